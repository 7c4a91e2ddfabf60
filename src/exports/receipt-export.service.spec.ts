import type { PoolClient } from 'pg';
import { AppError } from '@/common/app-error';
import { guardFormula } from './receipt-export-rows';
import { MAX_XLSX_ROWS, refuseTooLarge } from './receipt-export.service';

/** A client whose count query answers `n` and records what it was asked. */
function countingClient(n: number) {
  const calls: { sql: string; params: unknown[] }[] = [];
  const client = {
    query: (sql: string, params: unknown[]) => {
      calls.push({ sql, params });
      return Promise.resolve({ rows: [{ n }] });
    },
  } as unknown as PoolClient;
  return { client, calls };
}

describe('receipt export', () => {
  describe(refuseTooLarge.name, () => {
    it('lets an XLSX of exactly the limit through, counting no further than one past it', async () => {
      const { client, calls } = countingClient(MAX_XLSX_ROWS);
      await expect(
        refuseTooLarge(client, 'SELECT r.id FROM receipts r', ['t']),
      ).resolves.toBeUndefined();
      expect(calls[0].sql).toContain(`LIMIT ${MAX_XLSX_ROWS + 1}`);
      expect(calls[0].params).toEqual(['t']);
    });

    it('refuses one more with 422 EXPORT_TOO_LARGE naming format', async () => {
      const { client } = countingClient(MAX_XLSX_ROWS + 1);
      const error = await refuseTooLarge(client, 'SELECT 1', []).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 422, code: 'EXPORT_TOO_LARGE' });
      expect((error as AppError).errors?.[0].field).toBe('format');
    });
  });

  describe(guardFormula.name, () => {
    it.each(['=1+1', '+91', '-5', '@SUM(A1)', '\tx', '\rx'])('prefixes %j', (value) => {
      expect(guardFormula(value)).toBe(`'${value}`);
    });
    it.each(['Ananya Iyer', '', 'UTR 1', "'quoted", '5-6'])('keeps %j', (value) => {
      expect(guardFormula(value)).toBe(value);
    });
  });
});
