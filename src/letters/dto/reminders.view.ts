import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { PageMetaView } from '@/search/search-page';
import { LetterView } from './letter.view';

export class ReminderStepView {
  @ApiProperty({ example: 'OVERDUE_1' })
  name: string;
  @ApiProperty({ example: 7, description: 'Days from the due date (negative: before it).' })
  offsetDays: number;
}

export class ReminderPolicyView {
  @ApiProperty({ example: true })
  enabled: boolean;
  @ApiProperty({ type: [ReminderStepView], description: 'In offset order.' })
  steps: ReminderStepView[];
}

/** One reminder due (GET /reminders/due), and the `reminder` of a reminder.due event. */
export class DueReminderView {
  @ApiProperty({ format: 'uuid' })
  demandSplit: string;
  @ApiProperty({ format: 'uuid' })
  demand: string;
  @ApiProperty({ example: 'DMD/26-27/00012' })
  demandNumber: string;
  @ApiProperty({ format: 'uuid' })
  booking: string;
  @ApiProperty({ example: 'BKG/26-27/00031' })
  bookingNumber: string;
  @ApiProperty({ format: 'uuid' })
  payerId: string;
  @ApiProperty({ enum: ['BUYER', 'CO_BUYER', 'BANK', 'OTHER'], example: 'BUYER' })
  payerType: string;
  @ApiProperty({ example: 'OVERDUE_1', description: "The policy's step that is due." })
  step: string;
  @ApiProperty({ format: 'date', example: '2026-11-15' })
  dueDate: string;
  @ApiProperty({ example: 7, description: 'asOf - dueDate (negative before the due date).' })
  daysPastDue: number;
  @ApiProperty({ type: MoneyView, description: 'What the split owes at asOf.' })
  pending: MoneyView;
  @ApiProperty({
    type: MoneyView,
    description: "The payer's interest due on the booking at asOf.",
  })
  interestDue: MoneyView;
}

export class DueRemindersPage extends PageMetaView {
  @ApiProperty({ type: [DueReminderView] })
  content: DueReminderView[];
}

export class ReminderRunView {
  @ApiProperty({ format: 'uuid', description: 'This run (on each reminder it sent).' })
  runId: string;
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  asOf: string;
  @ApiProperty({ example: 42, description: 'Reminders recorded as sent (one event each).' })
  sent: number;
  @ApiProperty({
    example: 3,
    description: 'Reminders that would be due but for a collection hold of their booking.',
  })
  skippedHeld: number;
}

/** The data of a reminder.due event. */
export class ReminderDueEventView {
  @ApiProperty({ type: DueReminderView })
  reminder: DueReminderView;
  @ApiProperty({ type: LetterView, description: "The demand letter's JSON for that payer." })
  letter: LetterView;
}

export class SentReminderView {
  @ApiProperty({ format: 'uuid' })
  demandSplit: string;
  @ApiProperty({ format: 'uuid' })
  payerId: string;
  @ApiProperty({ example: 'DUE' })
  step: string;
  @ApiProperty({ format: 'date', description: 'The business date of the run that sent it.' })
  asOf: string;
  @ApiProperty({ format: 'date-time' })
  sentAt: string;
  @ApiProperty({ format: 'uuid' })
  runId: string;
}

export class DemandRemindersView {
  @ApiProperty({ type: [SentReminderView], description: 'Oldest first.' })
  reminders: SentReminderView[];
}
