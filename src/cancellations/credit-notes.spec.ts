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
