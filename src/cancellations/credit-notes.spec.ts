import type { TaxInvoiceDocument } from '@/demands/demands.sql';
import { creditWindowCloses, financialYearOf, planCreditNotes } from './credit-notes';

const invoice = (
  number: string,
  date: string,
  consideration = '1000000.00',
): TaxInvoiceDocument => ({
  number,
  date,
  supplier: {
    legalName: 'Acme Realty',
    address: 'Mumbai',
    gstin: '27AAPFU0939F1ZV',
    stateCode: '27',
  },
  recipient: {
    name: 'Ananya Iyer',
    address: 'Andheri',
    gstin: null,
    bookingNumber: 'BKG/1',
    unit: 'u1',
    unitName: 'B-1203',
  },
  placeOfSupply: { stateCode: '27' },
  lines: [
    {
      description: 'Construction',
      sac: '995411',
      consideration,
      landDeduction: '333333.33',
      taxableValue: '666666.67',
      cgstRate: '3.75',
      cgst: '25000.00',
      sgstRate: '3.75',
      sgst: '25000.00',
    },
  ],
  totals: {
    consideration,
    taxableValue: '666666.67',
    cgst: '25000.00',
    sgst: '25000.00',
    tax: '50000.00',
    grossAmount: '1050000.00',
  },
  reverseCharge: false,
});

describe('financialYearOf and creditWindowCloses', () => {
  it('runs April to March; the window closes on 30 November after the year', () => {
    expect(financialYearOf('2026-03-31')).toBe('2025-26');
    expect(financialYearOf('2026-04-01')).toBe('2026-27');
    expect(creditWindowCloses('2025-26', [])).toBe('2026-11-30');
  });

  it('closes earlier when that year annual return was filed before 30 November', () => {
    const filed = [{ financialYear: '2025-26', filedOn: '2026-10-15' }];
    expect(creditWindowCloses('2025-26', filed)).toBe('2026-10-15');
    expect(
      creditWindowCloses('2025-26', [{ financialYear: '2025-26', filedOn: '2026-12-20' }]),
    ).toBe('2026-11-30');
  });
});

describe('planCreditNotes', () => {
  const invoices = [
    { demandId: 'd2', document: invoice('INV/26-27/00002', '2026-05-01') },
    { demandId: 'd1', document: invoice('INV/25-26/00009', '2026-03-10') },
    { demandId: 'd3', document: invoice('INV/26-27/00001', '2026-04-15', '500000.00') },
  ];

  it('issues one note per financial year, one day inside the window', () => {
    const { notes, timeBarred } = planCreditNotes(invoices, '2026-11-30', []);
    expect(timeBarred).toEqual([]);
    expect(notes.map((n) => [n.financialYear, n.invoices.map((i) => i.number)])).toEqual([
      ['2025-26', ['INV/25-26/00009']],
      ['2026-27', ['INV/26-27/00001', 'INV/26-27/00002']],
    ]);
    expect(notes[1].totals).toEqual({
      consideration: '1500000.00',
      taxableValue: '1333333.34',
      cgst: '50000.00',
      sgst: '50000.00',
      tax: '100000.00',
      value: '1600000.00',
    });
  });

  it('time-bars the invoices of a year whose window closed the day before', () => {
    const { notes, timeBarred } = planCreditNotes(invoices, '2026-12-01', []);
    expect(timeBarred).toEqual(['d1']);
    expect(notes.map((n) => n.financialYear)).toEqual(['2026-27']);
  });
});

describe('planCreditNotes for a booking cancellation (what is credited of each invoice)', () => {
  it('credits each line only its credited part, and leaves out a line with nothing credited', () => {
    const { notes } = planCreditNotes(
      [
        {
          demandId: 'd1',
          document: invoice('INV/26-27/00001', '2026-05-02'),
          // 1,20,000.00 retained of 10,00,000.00: its tax (3,000.00 + 3,000.00) is kept too.
          credited: {
            consideration: 88_000_000n,
            taxableValue: 58_666_667n,
            cgst: 2_200_000n,
            sgst: 2_200_000n,
          },
        },
        {
          demandId: 'd2',
          document: invoice('INV/26-27/00002', '2026-06-05'),
          credited: { consideration: 0n, taxableValue: 0n, cgst: 0n, sgst: 0n },
        },
      ],
      '2026-06-20',
      [],
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].demandIds).toEqual(['d1']);
    expect(notes[0].invoices.map((i) => i.number)).toEqual(['INV/26-27/00001']);
    expect(notes[0].lines).toEqual([
      expect.objectContaining({
        consideration: '880000.00',
        taxableValue: '586666.67',
        cgst: '22000.00',
        sgst: '22000.00',
      }),
    ]);
    expect(notes[0].totals).toMatchObject({ tax: '44000.00', value: '924000.00' });
  });

  it('issues no note when nothing at all is credited', () => {
    const zero = { consideration: 0n, taxableValue: 0n, cgst: 0n, sgst: 0n };
    const { notes } = planCreditNotes(
      [{ demandId: 'd1', document: invoice('INV/26-27/00001', '2026-05-02'), credited: zero }],
      '2026-06-20',
      [],
    );
    expect(notes).toEqual([]);
  });
});
