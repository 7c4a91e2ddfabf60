import { MigrationInterface, QueryRunner } from 'typeorm';

const PATTERN = '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}';
const SERIES = [
  ['tax_invoice', 'INV'],
  ['credit_note', 'CRN'],
  ['refund', 'RFD'],
] as const;

/**
 * Numbering of the GST documents (tax invoice, credit note, refund): three fields each on the
 * tenant configuration, with defaults so every existing tenant gets the default series. Adding a
 * column with a constant default rewrites no rows.
 */
export class GstDocumentNumbers1765620000000 implements MigrationInterface {
  name = 'GstDocumentNumbers1765620000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE tenant_configurations ${SERIES.map(
        ([stem, prefix]) =>
          `ADD COLUMN ${stem}_number_prefix text NOT NULL DEFAULT '${prefix}', ` +
          `ADD COLUMN ${stem}_number_starting bigint NOT NULL DEFAULT 1, ` +
          `ADD COLUMN ${stem}_number_pattern text NOT NULL DEFAULT '${PATTERN}'`,
      ).join(', ')}`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE tenant_configurations ${SERIES.map(
        ([stem]) =>
          `DROP COLUMN ${stem}_number_prefix, DROP COLUMN ${stem}_number_starting, ` +
          `DROP COLUMN ${stem}_number_pattern`,
      ).join(', ')}`,
    );
  }
}
