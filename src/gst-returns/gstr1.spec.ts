import { toPaise } from '@/common/money/paise';
import { buildGstr1, documentRanges, Gstr1Document, Gstr1Input, rateText, seriesOf } from './gstr1';
import {
  gstr1Problems,
  hsnTotalProblems,
  lineTaxProblems,
  supplierProblems,
  taxTotalProblems,
} from './gstr1-checks';
import { gstr1Json } from './gstr1-json';
import { parseGstr1Query } from './gstr1-query';
import { gstr1Sheets, reconciliation, sheetDate } from './gstr1-sheets';
import { FieldError } from '@/common/app-error';

const GSTIN = '27AAPFU0939F1ZV';
const BUYER_GSTIN = '29AAGCB7383J1Z4';

/** A one-line document as the tax rule issues it (rates per head, amounts as text). */
function doc(
  number: string,
  date: string,
  line: { taxable: string; rate: string; head: string; sac?: string; value: string },
  recipientGstin: string | null = null,
): Gstr1Document {
  const taxable = toPaise(line.taxable);
  const head = toPaise(line.head);
  return {
    number,
    date,
    supplierGstin: GSTIN,
    recipientGstin,
    recipientName: recipientGstin ? 'Bharat Infra Private Limited' : 'Ananya Iyer',
    pos: '27',
    lines: [
      {
        sac: line.sac ?? '995411',
        taxableValue: taxable,
        cgstRate: line.rate,
        cgst: head,
        sgstRate: line.rate,
        sgst: head,
      },
    ],
    totals: {
      taxableValue: taxable,
      cgst: head,
      sgst: head,
      tax: 2n * head,
      value: toPaise(line.value),
    },
  };
}

/**
 * The worked month of docs/returns-and-books.md (October 2026), as docs/gst.md taxes it: a STANDARD
 * invoice of 10,00,000.00, an AFFORDABLE one of 4,00,000.00, one of 20,00,000.00 to a buyer with
 * a GSTIN, an INTEREST demand of 8,917.81 taxed as its principal, and the credit note of a
 * booking cancelled in October whose invoice of 6,00,000.00 was dated in September; plus
 * 5,00,000.00 demanded on an EXEMPT booking.
 */
const standard = doc('INV/26-27/00002', '2026-10-05', {
  taxable: '666666.67',
  rate: '3.75',
  head: '25000.00',
  value: '1050000.00',
});
const affordable = doc('INV/26-27/00003', '2026-10-08', {
  taxable: '266666.67',
  rate: '0.75',
  head: '2000.00',
  value: '404000.00',
});
const b2b = doc(
  'INV/26-27/00004',
  '2026-10-10',
  { taxable: '1333333.33', rate: '3.75', head: '50000.00', value: '2100000.00' },
  BUYER_GSTIN,
);
const interest = doc('INV/26-27/00005', '2026-10-15', {
  taxable: '5945.21',
  rate: '3.75',
  head: '222.95',
  value: '9363.71',
});
const creditNote = doc('CRN/26-27/00001', '2026-10-28', {
  taxable: '400000.00',
  rate: '3.75',
  head: '15000.00',
  value: '630000.00',
});

const worked = (): Gstr1Input => ({
  gstin: GSTIN,
  period: '2026-10',
  invoices: [standard, affordable, b2b, interest],
  creditNotes: [creditNote],
  nonGst: { count: 1, amount: toPaise('500000.00') },
  seriesKeys: { invoice: ['INV/26-27/{SEQ}'], creditNote: ['CRN/26-27/{SEQ}'] },
});

const item = (rt: number, txval: number, tax: number) => ({
  rt,
  txval,
  iamt: 0,
  camt: tax,
  samt: tax,
  csamt: 0,
});

describe('GSTR-1: the worked month', () => {
  it('builds every table from the documents, in the offline-tool layout', () => {
    const ret = buildGstr1(worked());
    expect(gstr1Problems(worked(), ret)).toEqual([]);
    expect(gstr1Json(ret)).toEqual({
      gstin: GSTIN,
      fp: '102026',
      b2b: [
        {
          ctin: BUYER_GSTIN,
          inv: [
            {
              inum: 'INV/26-27/00004',
              idt: '10-10-2026',
              val: 2100000,
              pos: '27',
              rchrg: 'N',
              inv_typ: 'R',
              itms: [{ num: 1, itm_det: item(7.5, 1333333.33, 50000) }],
            },
          ],
        },
      ],
      b2cs: [
        { sply_ty: 'INTRA', pos: '27', typ: 'OE', ...item(1.5, 266666.67, 2000) },
        // 6,66,666.67 + 5,945.21 - 4,00,000.00; 25,000.00 + 222.95 - 15,000.00.
        { sply_ty: 'INTRA', pos: '27', typ: 'OE', ...item(7.5, 272611.88, 10222.95) },
      ],
      nil: { inv: [{ sply_ty: 'INTRAB2C', expt_amt: 0, nil_amt: 0, ngsup_amt: 500000 }] },
      hsn: {
        hsn_b2b: [
          {
            num: 1,
            hsn_sc: '995411',
            desc: 'Residential construction',
            uqc: 'NA',
            qty: 0,
            ...item(7.5, 1333333.33, 50000),
          },
        ],
        hsn_b2c: [
          {
            num: 1,
            hsn_sc: '995411',
            desc: 'Residential construction',
            uqc: 'NA',
            qty: 0,
            ...item(1.5, 266666.67, 2000),
          },
          {
            num: 2,
            hsn_sc: '995411',
            desc: 'Residential construction',
            uqc: 'NA',
            qty: 0,
            ...item(7.5, 272611.88, 10222.95),
          },
        ],
      },
      doc_issue: {
        doc_det: [
          {
            doc_num: 1,
            docs: [
              {
                num: 1,
                from: 'INV/26-27/00002',
                to: 'INV/26-27/00005',
                totnum: 4,
                cancel: 0,
                net_issue: 4,
              },
            ],
          },
          {
            doc_num: 5,
            docs: [
              {
                num: 1,
                from: 'CRN/26-27/00001',
                to: 'CRN/26-27/00001',
                totnum: 1,
                cancel: 0,
                net_issue: 1,
              },
            ],
          },
        ],
      },
    });
  });

  it('a credit note to a GSTIN goes to cdnr, unsigned, and nets the B2B HSN rows', () => {
    const note = doc(
      'CRN/26-27/00002',
      '2026-10-30',
      { taxable: '1333333.33', rate: '3.75', head: '50000.00', value: '2100000.00' },
      BUYER_GSTIN,
    );
    const input = { ...worked(), creditNotes: [creditNote, note] };
    const ret = buildGstr1(input);
    expect(gstr1Problems(input, ret)).toEqual([]);
    expect(gstr1Json(ret).cdnr).toEqual([
      {
        ctin: BUYER_GSTIN,
        nt: [
          {
            ntty: 'C',
            nt_num: 'CRN/26-27/00002',
            nt_dt: '30-10-2026',
            val: 2100000,
            pos: '27',
            rchrg: 'N',
            inv_typ: 'R',
            itms: [{ num: 1, itm_det: item(7.5, 1333333.33, 50000) }],
          },
        ],
      },
    ]);
    // The invoice and its note cancel out: no B2B HSN row is left.
    expect(ret.hsn?.hsn_b2b).toBeUndefined();
  });

  it('leaves out every empty section: a month without documents is gstin and fp only', () => {
    const input: Gstr1Input = {
      ...worked(),
      invoices: [],
      creditNotes: [],
      nonGst: { count: 0, amount: 0n },
    };
    const ret = buildGstr1(input);
    expect(gstr1Json(ret)).toEqual({ gstin: GSTIN, fp: '102026' });
    expect(gstr1Problems(input, ret)).toEqual([]);
  });

  it('the workbook: offline-tool sheets, and a reconciliation that agrees', () => {
    const input = worked();
    const ret = buildGstr1(input);
    const sheets = gstr1Sheets(input, ret);
    expect(sheets.map((s) => s.sheet.name)).toEqual([
      'b2b',
      'b2cs',
      'cdnr',
      'nil',
      'hsn_b2b',
      'hsn_b2c',
      'docs',
      'reconciliation',
    ]);
    expect(sheets[0].sheet.columns.map((c) => c.header)).toEqual([
      'GSTIN/UIN of Recipient',
      'Receiver Name',
      'Invoice Number',
      'Invoice date',
      'Invoice Value',
      'Place Of Supply',
      'Reverse Charge',
      'Applicable % of Tax Rate',
      'Invoice Type',
      'E-Commerce GSTIN',
      'Rate',
      'Taxable Value',
      'Cess Amount',
    ]);
    expect([...(sheets[0].rows as Iterable<Record<string, unknown>>)][0]).toMatchObject({
      ctin: BUYER_GSTIN,
      name: 'Bharat Infra Private Limited',
      idt: '10-Oct-2026',
      pos: '27-Maharashtra',
      type: 'Regular B2B',
      rt: '7.5',
      txval: '1333333.33',
    });
    const rows = reconciliation(input, ret);
    expect(rows.map((r) => [r.table, r.rows, r.documents, r.agrees])).toEqual([
      ['b2b', 1, 1, true],
      ['b2cs', 2, 4, true],
      ['cdnr', 0, 0, true],
      ['nil', 1, 1, true],
      ['hsn_b2b', 1, 1, true],
      ['hsn_b2c', 2, 4, true],
      ['docs', 2, 5, true],
      ['b2b + b2cs - cdnr', 0, 5, true],
    ]);
    const total = rows[rows.length - 1];
    expect(total.heads).toEqual({
      txval: toPaise('1872611.88'),
      camt: toPaise('62222.95'),
      samt: toPaise('62222.95'),
    });
  });
});

describe('GSTR-1 checks: each one can fail', () => {
  it('line tax: a CGST more than 0.01 from its rate names the document and line', () => {
    const bad = doc('INV/26-27/00009', '2026-10-20', {
      taxable: '666666.67',
      rate: '3.75',
      head: '25000.02',
      value: '1050000.04',
    });
    expect(lineTaxProblems([bad])).toEqual([
      {
        where: 'INV/26-27/00009',
        message: 'line 1: CGST 25000.02 is not 3.75 % of 666666.67 (25000.00)',
      },
      {
        where: 'INV/26-27/00009',
        message: 'line 1: SGST 25000.02 is not 3.75 % of 666666.67 (25000.00)',
      },
    ]);
    // 0.01 off is within tolerance (a credit's head is a difference of two roundings).
    const near = doc('INV/26-27/00010', '2026-10-20', {
      taxable: '666666.67',
      rate: '3.75',
      head: '25000.01',
      value: '1050000.02',
    });
    expect(lineTaxProblems([near])).toEqual([]);
    const input = { ...worked(), invoices: [...worked().invoices, bad] };
    expect(gstr1Problems(input, buildGstr1(input)).map((p) => p.where)).toContain(
      'INV/26-27/00009',
    );
  });

  it('tax totals: a document whose tax is not its lines is named', () => {
    const wrongTax: Gstr1Document = {
      ...standard,
      totals: {
        ...standard.totals,
        cgst: standard.totals.cgst + 100n,
        tax: standard.totals.tax + 100n,
      },
    };
    const input = { ...worked(), invoices: [wrongTax, affordable, b2b, interest] };
    const ret = buildGstr1(input);
    expect(lineTaxProblems(input.invoices)).toEqual([]);
    const problems = taxTotalProblems(input, ret);
    expect(problems.map((p) => p.where)).toEqual(['INV/26-27/00002']);
    expect(problems[0].message).toMatch(/^b2b \+ b2cs - cdnr \(.*tax 124445\.90\) differ from/);
  });

  it('tax totals: tables that lost a row fail even when every document agrees with itself', () => {
    const input = worked();
    const ret = buildGstr1(input);
    const lost = { ...ret, b2cs: ret.b2cs?.slice(1) };
    expect(taxTotalProblems(input, lost)).toEqual([
      {
        where: 'b2b+b2cs-cdnr',
        message: expect.stringContaining(
          'tax 120445.90) differ from the invoices less the credit notes',
        ),
      },
    ]);
  });

  it('HSN totals: a summary that disagrees with its documents is refused', () => {
    const input = worked();
    const ret = buildGstr1(input);
    const [first, ...rest] = ret.hsn?.hsn_b2c ?? [];
    const off = {
      ...ret,
      hsn: { ...ret.hsn, hsn_b2c: [{ ...first, txval: first.txval + 1n }, ...rest] },
    };
    expect(hsnTotalProblems(input, off)).toEqual([
      { where: 'hsn_b2c', message: expect.stringContaining('differs from its documents') },
    ]);
    // And a document whose taxable value is not its lines' is named.
    const wrongTaxable: Gstr1Document = {
      ...b2b,
      totals: { ...b2b.totals, taxableValue: b2b.totals.taxableValue + 1n },
    };
    const bad = { ...input, invoices: [standard, affordable, wrongTaxable, interest] };
    expect(hsnTotalProblems(bad, buildGstr1(bad)).map((p) => p.where)).toEqual(['INV/26-27/00004']);
  });

  it("supplier: a document issued under another GSTIN is not this return's", () => {
    const other = { ...affordable, supplierGstin: BUYER_GSTIN };
    const input = { ...worked(), invoices: [standard, other] };
    expect(supplierProblems(input)).toEqual([
      {
        where: 'INV/26-27/00003',
        message: `issued under GSTIN ${BUYER_GSTIN}, not ${GSTIN}`,
      },
    ]);
  });
});

describe('GSTR-1 Table 13: series of numbers', () => {
  it('a number belongs to the counter key it matches', () => {
    expect(seriesOf('INV/26-27/00012', ['INV/26-27/{SEQ}', 'INV/25-26/{SEQ}'])).toEqual({
      key: 'INV/26-27/{SEQ}',
      seq: 12n,
    });
    // The sequence need not be last.
    expect(seriesOf('INV00012/26-27', ['INV{SEQ}/26-27'])).toEqual({
      key: 'INV{SEQ}/26-27',
      seq: 12n,
    });
    // No key (the counter is gone): the last run of digits.
    expect(seriesOf('X/7-A', [])).toEqual({ key: 'X/{SEQ}-A', seq: 7n });
  });

  it('one range per series, lowest to highest by sequence, counting what is in the period', () => {
    const keys = ['INV/26-27/{SEQ}', 'INV/25-26/{SEQ}'];
    expect(
      documentRanges(
        ['INV/26-27/00010', 'INV/25-26/00099', 'INV/26-27/00002', 'INV/26-27/00009'],
        keys,
      ),
    ).toEqual([
      {
        num: 1,
        from: 'INV/25-26/00099',
        to: 'INV/25-26/00099',
        totnum: 1,
        cancel: 0,
        net_issue: 1,
      },
      {
        num: 2,
        from: 'INV/26-27/00002',
        to: 'INV/26-27/00010',
        totnum: 3,
        cancel: 0,
        net_issue: 3,
      },
    ]);
  });
});

describe('GSTR-1 small rules', () => {
  it('rates and dates as the sheets write them', () => {
    expect([rateText(750n), rateText(150n), rateText(1800n), rateText(0n)]).toEqual([
      '7.5',
      '1.5',
      '18',
      '0',
    ]);
    expect(sheetDate('05-10-2026')).toBe('05-Oct-2026');
  });

  it.each([
    [{ period: '2026-10' }, '2026-10', { period: '2026-10', from: '2026-10-01', to: '2026-10-31' }],
    [{ period: '2024-02', format: 'xlsx' }, '2026-10', { to: '2024-02-29', format: 'xlsx' }],
  ])('parses %j', (raw, current, expected) => {
    const errors: FieldError[] = [];
    expect(parseGstr1Query(raw, current, errors)).toMatchObject(expected);
    expect(errors).toEqual([]);
  });

  it.each([
    [{}, 'period'],
    [{ period: '2026-13' }, 'period'],
    [{ period: '2026-1' }, 'period'],
    [{ period: '2016-12' }, 'period'],
    [{ period: '2026-11' }, 'period'],
    [{ period: '2026-10', format: 'pdf' }, 'format'],
  ])('refuses %j', (raw, field) => {
    const errors: FieldError[] = [];
    parseGstr1Query(raw, '2026-10', errors);
    expect(errors.map((e) => e.field)).toEqual([field]);
  });
});
