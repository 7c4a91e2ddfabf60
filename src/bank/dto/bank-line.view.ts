import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';

export const LINE_STATUSES = ['UNMATCHED', 'SUGGESTED', 'MATCHED', 'IGNORED'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export const MATCH_RULES = ['REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN'] as const;

export class BankLineMatchView {
  @ApiProperty({
    description: 'The receipt matched.',
    format: 'uuid',
    example: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b',
  })
  receipt: string;
  @ApiProperty({ description: "The receipt's number.", example: 'RCT/26-27/00042' })
  receiptNumber: string;
  @ApiProperty({ type: MoneyView, description: 'The part of the line it accounts for.' })
  amount: MoneyView;
  @ApiProperty({
    description: 'The rule that matched it.',
    enum: MATCH_RULES,
    example: 'REFERENCE',
  })
  rule: string;
  @ApiProperty({ description: 'Confidence, 0 to 1.', example: 1 })
  score: number;
}

export class BankLineSuggestionView {
  @ApiProperty({
    description: 'The receipts suggested together.',
    type: [String],
    format: 'uuid',
    example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b'],
  })
  receipts: string[];
  @ApiProperty({
    description: "The receipts' numbers, in the order of `receipts`.",
    type: [String],
    example: ['RCT/26-27/00042'],
  })
  receiptNumbers: string[];
  @ApiProperty({
    description: 'The rule that suggests them.',
    enum: MATCH_RULES,
    example: 'AMOUNT_DATE',
  })
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

  @ApiProperty({
    description: 'CREDIT: money in; DEBIT: money out.',
    enum: ['CREDIT', 'DEBIT'],
    example: 'CREDIT',
  })
  direction: 'CREDIT' | 'DEBIT';

  @ApiProperty({ type: MoneyView, description: "In the account's currency; always positive." })
  amount: MoneyView;

  @ApiProperty({
    description: "The bank's description of the transaction, as the file wrote it.",
    example: 'NEFT CR-SBIN0001234-RAJESH KUMAR-HDFCN52026101412345',
  })
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

  @ApiProperty({
    description:
      'UNMATCHED (nothing found), SUGGESTED (candidates in suggestions), MATCHED (matches) or IGNORED.',
    enum: LINE_STATUSES,
    example: 'UNMATCHED',
  })
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
  @ApiProperty({ description: 'When.', format: 'date-time', example: '2026-11-22T10:15:30.123Z' })
  at: string;
  @ApiProperty({
    description: "Who (the token's preferred_username, else sub).",
    example: 'priya.sharma',
  })
  actor: string;
  @ApiProperty({
    description: 'What happened to the line.',
    enum: ['MATCHED', 'UNMATCHED', 'IGNORED'],
    example: 'MATCHED',
  })
  action: string;
  @ApiProperty({
    description: `The rule of the match (${MATCH_RULES.join(', ')}) a MATCHED or UNMATCHED entry concerns; null for IGNORED.`,
    nullable: true,
    type: String,
    example: 'MANUAL',
  })
  rule: string | null;
  @ApiProperty({
    description: 'Why (unmatch, ignore).',
    nullable: true,
    type: String,
    example: null,
  })
  reason: string | null;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'The receipts concerned.',
    example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b'],
  })
  receipts: string[];
}

export class BankLineDetailView extends BankLineView {
  @ApiProperty({
    description: 'The import the line came from.',
    format: 'uuid',
    example: '2c1d0e9f-8a7b-4c6d-9e5f-4a3b2c1d0e9f',
  })
  statement: string;

  @ApiProperty({
    description: 'Its bank account.',
    format: 'uuid',
    example: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
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
    description: 'Every match, unmatch and ignore, oldest first.',
  })
  history: BankLineHistoryView[];
}
