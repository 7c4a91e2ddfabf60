import fc from 'fast-check';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { paiseText } from '@/common/money/paise';
import { guardFormula } from '@/exports/receipt-export-rows';
import { csvRows, tallyDate, tallyVoucher, xmlText } from './voucher-files';
import { Voucher, VOUCHER_TYPES } from './vouchers';

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const clean = (text: string) => text.replace(NOT_XML, '');

/** The voucher as fast-xml-parser's builder writes it (how tallyVoucher was first written). */
function builtByBuilder(v: Voucher): string {
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: false,
    suppressEmptyNode: false,
  });
  const xml = builder.build({
    TALLYMESSAGE: {
      VOUCHER: {
        '@_VCHTYPE': v.type,
        '@_ACTION': 'Create',
        '@_REMOTEID': v.documentId,
        DATE: tallyDate(v.date),
        VOUCHERTYPENAME: v.type,
        VOUCHERNUMBER: clean(v.number),
        PARTYLEDGERNAME: clean(v.partyLedger),
        NARRATION: clean(v.narration),
        'ALLLEDGERENTRIES.LIST': v.lines.map((l) => ({
          LEDGERNAME: clean(l.ledger),
          ISDEEMEDPOSITIVE: l.amount > 0n ? 'Yes' : 'No',
          AMOUNT: paiseText(-l.amount),
        })),
      },
    },
  });
  return `${xml}\r\n`;
}

/** The voucher's CSV rows cell by cell (how csvRows was first written). */
function csvRowsCellByCell(v: Voucher): string {
  const cell = (value: string) => {
    const guarded = guardFormula(value);
    return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
  };
  return v.lines
    .map(
      (l) =>
        [
          v.date,
          v.type,
          v.number,
          v.documentId,
          l.ledger,
          l.amount > 0n ? paiseText(l.amount) : '',
          l.amount < 0n ? paiseText(-l.amount) : '',
          v.narration,
          v.bookingId,
        ]
          .map(cell)
          .join(',') + '\r\n',
    )
    .join('');
}

/** Text with what needs escaping or dropping: entities, controls, quotes, non-ASCII. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('&', '<', '>', '"', "'", '\u0001', '\u000B', '\t', '\r', '\n', '₹', 'é'),
    fc.constantFrom(',', '=', '+', '-', '@'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 30,
});

const voucher: fc.Arbitrary<Voucher> = fc.record({
  date: fc
    .date({ min: new Date('2017-07-01'), max: new Date('2030-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  type: fc.constantFrom(...VOUCHER_TYPES),
  number: text,
  documentId: fc.uuid().map((id) => `${id}:SALE`),
  narration: text,
  bookingId: fc.uuid(),
  partyLedger: text,
  lines: fc.array(
    fc.record({
      ledger: text,
      amount: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).filter((a) => a !== 0n),
      party: fc.boolean(),
    }),
    { minLength: 1, maxLength: 5 },
  ),
});

describe('voucher files', () => {
  it('writes a Tally voucher exactly as the XML builder would, whatever its text', () => {
    fc.assert(
      fc.property(voucher, (v) => {
        expect(tallyVoucher(v)).toBe(builtByBuilder(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes CSV rows exactly as cell-by-cell quoting would, whatever their text', () => {
    fc.assert(
      fc.property(voucher, (v) => {
        expect(csvRows(v)).toBe(csvRowsCellByCell(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes the five entities and reads back intact', () => {
    expect(xmlText(`Tom & "Jerry's" <flat>`)).toBe(
      'Tom &amp; &quot;Jerry&apos;s&quot; &lt;flat&gt;',
    );
    const v: Voucher = {
      date: '2026-06-01',
      type: 'Sales',
      number: 'INV/26-27/00001',
      documentId: 'd:SALE',
      narration: 'Demand <1> & "2"\u0001',
      bookingId: 'b',
      partyLedger: "A & B's (BK/1)",
      lines: [
        { ledger: "A & B's (BK/1)", amount: 1050000_00n, party: true },
        { ledger: 'Sales - Construction', amount: -1050000_00n, party: false },
      ],
    };
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(
      tallyVoucher(v),
    ) as {
      TALLYMESSAGE: {
        VOUCHER: {
          PARTYLEDGERNAME: string;
          NARRATION: string;
          'ALLLEDGERENTRIES.LIST': { AMOUNT: string }[];
        };
      };
    };
    const read = parsed.TALLYMESSAGE.VOUCHER;
    expect(read.PARTYLEDGERNAME).toBe("A & B's (BK/1)");
    expect(read.NARRATION).toBe('Demand <1> & "2"');
    expect(read['ALLLEDGERENTRIES.LIST'].map((l) => l.AMOUNT)).toEqual([
      '-1050000.00',
      '1050000.00',
    ]);
  });
});
