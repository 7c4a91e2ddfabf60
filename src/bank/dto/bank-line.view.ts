import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';

export const LINE_STATUSES = ['UNMATCHED', 'SUGGESTED', 'MATCHED', 'IGNORED'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export const MATCH_RULES = ['REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN'] as const;

export class BankLineMatchView {
  @ApiProperty({ description: 'The receipt matched.', format: 'uuid' })
  receipt: string;
  @ApiProperty({ type: MoneyView, description: 'The part of the line it accounts for.' })
  amount: MoneyView;
  @ApiProperty({ enum: MATCH_RULES, example: 'REFERENCE' })
  rule: string;
  @ApiProperty({ description: 'Confidence, 0 to 1.', example: 1 })
  score: number;
}

export class BankLineSuggestionView {
  @ApiProperty({ description: 'The receipts suggested together.', type: [String], format: 'uuid' })
  receipts: string[];
  @ApiProperty({ enum: MATCH_RULES, example: 'AMOUNT_DATE' })
  rule: string;
  @ApiProperty({ description: 'Confidence, 0 to 1.', example: 0.8 })
  score: number;
  @ApiProperty({
    description: 'Why, in short phrases.',
    type: [String],
    example: ['amount equal', '2 days after receipt'],
  })
  reasons: string[];
}

export class BankLineView {
  @ApiProperty({
    description: 'Line id.',
    format: 'uuid',
    example: '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a',
  })
  id: string;

  @ApiProperty({
    type: 'integer',
    description:
      'Per account, strictly increasing in file and import (commit) order: the feed cursor. A line skipped as a duplicate leaves its number unused.',
    example: 42,
  })
  sequence: number;

  @ApiProperty({ description: 'When the money moved.', format: 'date', example: '2026-10-14' })
  valueDate: string;

  @ApiProperty({
    description: 'When the bank booked it (null when the file does not say).',
    format: 'date',
    nullable: true,
    type: String,
    example: '2026-10-14',
  })
  bookingDate: string | null;

  @ApiProperty({ enum: ['CREDIT', 'DEBIT'], example: 'CREDIT' })
  direction: 'CREDIT' | 'DEBIT';

  @ApiProperty({ type: MoneyView, description: "In the account's currency; always positive." })
  amount: MoneyView;

  @ApiProperty({ example: 'NEFT CR-SBIN0001234-RAJESH KUMAR-HDFCN52026101412345' })
  narration: string;

  @ApiProperty({
    description: "The bank's reference column or field, as written.",
    example: '0000512345678901',
  })
  reference: string;

  @ApiProperty({
    description:
      'The UTR (NEFT/RTGS) or UPI/IMPS RRN read from the reference and narration, or null.',
    nullable: true,
    type: String,
    example: 'HDFCN52026101412345',
  })
  utr: string | null;

  @ApiProperty({
    description: 'The cheque number (6 digits) read from the reference and narration, or null.',
    nullable: true,
    type: String,
    example: null,
  })
  chequeNumber: string | null;

  @ApiProperty({
    type: MoneyView,
    nullable: true,
    description: 'The running balance the file printed after this line (CSV), else null.',
  })
  balance: MoneyView | null;

  @ApiProperty({ enum: LINE_STATUSES, example: 'UNMATCHED' })
  status: LineStatus;

  @ApiProperty({
    description: 'It looks like a line imported from a file of another format.',
    example: false,
  })
  possibleDuplicate: boolean;

  @ApiProperty({ type: [BankLineMatchView], description: 'Receipts matched to it.' })
  matches: BankLineMatchView[];

  @ApiProperty({ type: [BankLineSuggestionView], description: 'Receipts suggested for it.' })
  suggestions: BankLineSuggestionView[];
}

export class BankLinePage {
  @ApiProperty({ type: [BankLineView], description: 'In sequence order.' })
  lines: BankLineView[];

  @ApiProperty({
    type: 'integer',
    description:
      'Send it back as `after` for the next page. Equals `after` on an empty page; with `status`, the last sequence scanned, so filtered readers move on too.',
    example: 42,
  })
  nextAfter: number;
}

export class BankLineHistoryView {
  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:15:30.123Z' })
  at: string;
  @ApiProperty({ example: 'priya.sharma' })
  actor: string;
  @ApiProperty({ enum: ['MATCHED', 'UNMATCHED', 'IGNORED'], example: 'MATCHED' })
  action: string;
  @ApiProperty({ enum: MATCH_RULES, nullable: true, type: String, example: 'MANUAL' })
  rule: string | null;
  @ApiProperty({ nullable: true, type: String, example: null })
  reason: string | null;
  @ApiProperty({ type: [String], format: 'uuid', description: 'The receipts concerned.' })
  receipts: string[];
}

export class BankLineDetailView extends BankLineView {
  @ApiProperty({ description: 'The import the line came from.', format: 'uuid' })
  statement: string;

  @ApiProperty({ description: 'Its bank account.', format: 'uuid' })
  bankAccount: string;

  @ApiProperty({
    type: 'integer',
    description: 'The 1-based line of the file where it starts.',
    example: 27,
  })
  fileLine: number;

  @ApiProperty({
    description: 'The transaction as the file wrote it.',
    example:
      '14/10/26,NEFT CR-SBIN0001234-RAJESH KUMAR,0000512345678901,14/10/26,,"1,50,000.00","12,34,567.89"',
  })
  raw: string;

  @ApiProperty({
    type: [BankLineHistoryView],
    description: 'Every match, unmatch and ignore, oldest first (none before matching).',
  })
  history: BankLineHistoryView[];
}
