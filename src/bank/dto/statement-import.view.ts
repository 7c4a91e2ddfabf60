import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { CSV_LAYOUTS } from '@/bank/statements/csv-layouts';
import { STATEMENT_FORMATS } from '@/bank/statements/statement-line';

export class MatchedCountsView {
  @ApiProperty({ type: 'integer', description: 'Lines MATCHED on import.', example: 0 })
  auto: number;
  @ApiProperty({ type: 'integer', description: 'Lines SUGGESTED on import.', example: 0 })
  suggested: number;
  @ApiProperty({
    type: 'integer',
    description: 'Credit lines imported and left UNMATCHED.',
    example: 118,
  })
  unmatched: number;
}

/** What an import did (also the data of the bank-statement.imported event). */
export class StatementImportView {
  @ApiProperty({
    description: 'Import id (the same id when the same file is sent again).',
    format: 'uuid',
    example: '2c1d0e9f-8a7b-4c6d-9e5f-4a3b2c1d0e9f',
  })
  id: string;

  @ApiProperty({ description: 'The format read.', enum: STATEMENT_FORMATS, example: 'csv' })
  format: string;

  @ApiProperty({
    description: 'The CSV layout read (null for camt053 and mt940).',
    enum: CSV_LAYOUTS,
    nullable: true,
    example: 'hdfc',
  })
  layout: string | null;

  @ApiProperty({
    type: 'integer',
    description: 'Transactions read from the file (pending entries not counted).',
    example: 250,
  })
  lines: number;

  @ApiProperty({ type: 'integer', description: 'New lines imported.', example: 240 })
  imported: number;

  @ApiProperty({
    type: 'integer',
    description: 'Lines the account already had (an overlapping statement): not imported again.',
    example: 10,
  })
  duplicates: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Imported lines that look like a line of another format (same value date, direction, amount and reference); each is flagged possibleDuplicate.',
    example: 0,
  })
  possibleDuplicates: number;

  @ApiProperty({
    type: 'integer',
    description: 'Entries the bank marks pending (camt PDNG), not imported.',
    example: 0,
  })
  pending: number;

  @ApiProperty({
    description: 'The earliest value date among the lines (null: no lines).',
    format: 'date',
    nullable: true,
    type: String,
    example: '2026-10-01',
  })
  from: string | null;

  @ApiProperty({
    description: 'The latest value date among the lines.',
    format: 'date',
    nullable: true,
    type: String,
    example: '2026-10-31',
  })
  to: string | null;

  @ApiProperty({
    type: MoneyView,
    nullable: true,
    description: "Opening balance of the first statement in the file, in the account's currency.",
  })
  openingBalance: MoneyView | null;

  @ApiProperty({
    type: MoneyView,
    nullable: true,
    description: 'Closing balance of the last statement in the file.',
  })
  closingBalance: MoneyView | null;

  @ApiProperty({
    description: "Whether every statement's balance chain adds up.",
    enum: ['OK', 'MISMATCH'],
    example: 'OK',
  })
  balanceCheck: 'OK' | 'MISMATCH';

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Where the chain first breaks: CSV, the 1-based file line whose running balance disagrees; MT940, the line of the :62F:/:62M: that disagrees; camt, the 1-based Stmt. Null when OK.',
    example: null,
  })
  firstMismatchLine: number | null;

  @ApiProperty({
    type: MatchedCountsView,
    description: 'Lines MATCHED, SUGGESTED, and credit lines left UNMATCHED by this import.',
  })
  matched: MatchedCountsView;
}

/** POST /bank-accounts/{id}/rematch: what matching again did to the account's open lines. */
export class RematchView {
  @ApiProperty({
    type: MatchedCountsView,
    description:
      'Of the UNMATCHED and SUGGESTED credit lines taken: now MATCHED (auto), SUGGESTED, and left UNMATCHED.',
  })
  matched: MatchedCountsView;
}
