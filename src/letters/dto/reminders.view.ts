import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { PageMetaView } from '@/search/search-page';
import { LetterView } from './letter.view';

export class ReminderStepView {
  @ApiProperty({ description: 'Unique in the policy.', example: 'OVERDUE_1' })
  name: string;
  @ApiProperty({ example: 7, description: 'Days from the due date (negative: before it).' })
  offsetDays: number;
}

export class ReminderPolicyView {
  @ApiProperty({ description: 'false: no reminder is due.', example: true })
  enabled: boolean;
  @ApiProperty({ type: [ReminderStepView], description: 'In offset order.' })
  steps: ReminderStepView[];
}

/** One reminder due (GET /reminders/due), and the `reminder` of a reminder.due event. */
export class DueReminderView {
  @ApiProperty({
    description: 'The split reminded.',
    format: 'uuid',
    example: '3f2e1d0c-9b8a-4f7e-8d6c-5b4a3f2e1d0c',
  })
  demandSplit: string;
  @ApiProperty({
    description: 'Its demand.',
    format: 'uuid',
    example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  demand: string;
  @ApiProperty({ description: "The demand's number.", example: 'DMD/26-27/00012' })
  demandNumber: string;
  @ApiProperty({
    description: 'Its booking.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({ description: "The booking's number.", example: 'BKG/26-27/00031' })
  bookingNumber: string;
  @ApiProperty({
    description: 'Who is reminded.',
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({
    description: 'The payer type.',
    enum: ['BUYER', 'CO_BUYER', 'BANK', 'OTHER'],
    example: 'BUYER',
  })
  payerType: string;
  @ApiProperty({ example: 'OVERDUE_1', description: "The policy's step that is due." })
  step: string;
  @ApiProperty({ description: "The demand's due date.", format: 'date', example: '2026-11-15' })
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
  @ApiProperty({ type: [DueReminderView], description: 'By due date, then split.' })
  content: DueReminderView[];
}

export class ReminderRunView {
  @ApiProperty({
    format: 'uuid',
    description: 'This run (on each reminder it sent).',
    example: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  })
  runId: string;
  @ApiProperty({
    description: 'The business date it ran on.',
    format: 'date',
    example: '2026-11-26',
  })
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
  @ApiProperty({
    description: 'The split reminded.',
    format: 'uuid',
    example: '3f2e1d0c-9b8a-4f7e-8d6c-5b4a3f2e1d0c',
  })
  demandSplit: string;
  @ApiProperty({
    description: 'Its payer.',
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({ description: "The policy's step sent.", example: 'DUE' })
  step: string;
  @ApiProperty({
    format: 'date',
    description: 'The business date of the run that sent it.',
    example: '2026-11-26',
  })
  asOf: string;
  @ApiProperty({
    description: 'When it was recorded (UTC).',
    format: 'date-time',
    example: '2026-11-26T04:30:00.123Z',
  })
  sentAt: string;
  @ApiProperty({
    description: 'The run that sent it.',
    format: 'uuid',
    example: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  })
  runId: string;
}

export class DemandRemindersView {
  @ApiProperty({ type: [SentReminderView], description: 'Oldest first.' })
  reminders: SentReminderView[];
}
