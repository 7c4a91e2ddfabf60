import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '@/common/app-error';
import { parseCamt053 } from './camt053';
import { parseCsvStatement } from './csv-statement';
import { detectFormat } from './detect-format';
import { parseMt940 } from './mt940';
import type { StatementParser } from './statement-line';
import { decodeStatement } from './text-decoding';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bank');
/** Each fixture with the account it is of, so an undamaged file reads through. */
const FILES = (
  [
    ['hdfc-2025-11.csv', '50200012345678'],
    ['icici-2025-11-cp1252.csv', '000405012345'],
    ['sbi-2025-11.xls.txt', '30123456789'],
    ['kotak-2025-11-newest-first.csv', '4512345678'],
    ['mt940-2025-11.sta', '50200012345678'],
    ['camt053-v08-2025-11.xml', '50200012345678'],
  ] as const
).map(([name, accountNumber]) => ({
  bytes: readFileSync(join(FIXTURES, name)),
  expected: { accountNumber, currency: 'INR' },
}));

/** Reads a file as the import does; resolves with the error it was refused with, if any. */
async function outcome(
  bytes: Buffer,
  expected: { accountNumber: string; currency: string },
): Promise<unknown> {
  try {
    const { text } = decodeStatement(bytes);
    const format = detectFormat(text);
    const parser: StatementParser =
      format === 'csv'
        ? parseCsvStatement(text, {}, expected)
        : format === 'mt940'
          ? parseMt940(text, expected)
          : parseCamt053(text, expected);
    for (let next = await parser.next(); !next.done; next = await parser.next());
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A damaged file is refused with a 4xx problem, never an exception of another kind (a 500). */
describe('statement parsers on damaged files', () => {
  it('answer every mutation of the fixtures with a line or a 4xx AppError', async () => {
    const damaged = fc
      .tuple(
        fc.constantFrom(...FILES),
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.nat({ max: 40 }),
            fc.oneof(
              fc.uint8Array({ maxLength: 12 }).map((a) => Buffer.from(a)),
              fc
                .constantFrom(
                  ',',
                  '"',
                  '\n',
                  ':61:',
                  ':62F:',
                  '<Ntry>',
                  '</Stmt>',
                  '&amp;',
                  '\u0000',
                  '-}',
                )
                .map((s) => Buffer.from(s)),
            ),
          ),
          { minLength: 1, maxLength: 4 },
        ),
      )
      .map(([{ bytes: original, expected }, edits]) => {
        let bytes = original;
        for (const [at, remove, insert] of edits) {
          const i = at % (bytes.length + 1);
          bytes = Buffer.concat([bytes.subarray(0, i), insert, bytes.subarray(i + remove)]);
        }
        return { bytes, expected };
      });
    await fc.assert(
      fc.asyncProperty(damaged, async ({ bytes, expected }) => {
        const error = await outcome(bytes, expected);
        if (error === undefined) return true;
        return error instanceof AppError && error.status >= 400 && error.status < 500;
      }),
      { numRuns: 400, seed: Number(process.env.FUZZ_SEED ?? 42) },
    );
  });
});
