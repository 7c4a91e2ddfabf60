import { DemandMetaView } from '@/demands/dto/demand.view';
import { CreditNoteDocument, InvoiceDocument } from '../gst-documents';
import { toCreditNoteView, toInvoiceView } from './gst-documents.view';

const supplier = {
  legalName: 'Skyline Developers Private Limited',
  address: 'Bandra Kurla Complex, Mumbai 400051',
  gstin: '27AAPFU0939F1ZV',
  stateCode: '27',
};
const recipient = {
  name: 'Ananya Iyer',
  address: null,
  gstin: null,
  bookingNumber: 'BKG/26-27/00031',
  unit: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  unitName: null,
};
const amounts = {
  consideration: '1000000.00',
  taxableValue: '666666.67',
  cgstRate: '3.75',
  cgst: '25000.00',
  sgstRate: '3.75',
  sgst: '25000.00',
};
const inr = (amount: number, formatted: string) => ({
  amount,
  currency: 'INR',
  currencySymbol: '₹',
  formatted,
});

describe('GST document views', () => {
  it('an invoice: amounts as Money in the locale, rates as numbers, the demand added', () => {
    const invoice: InvoiceDocument = {
      number: 'INV/26-27/00001',
      date: '2026-04-01',
      supplier,
      recipient,
      placeOfSupply: { stateCode: '27', stateName: 'Maharashtra' },
      lines: [{ description: 'Plinth', sac: '995411', landDeduction: '333333.33', ...amounts }],
      totals: {
        consideration: '1000000.00',
        taxableValue: '666666.67',
        cgst: '25000.00',
        sgst: '25000.00',
        tax: '50000.00',
        grossAmount: '1050000.00',
      },
      amountInWords: 'Rupees Ten Lakh Fifty Thousand Only',
      reverseCharge: false,
    };
    const demand = { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' } as DemandMetaView;
    const view = toInvoiceView(invoice, demand, 'INR', 'en-IN');
    expect(view.lines[0]).toEqual({
      description: 'Plinth',
      sac: '995411',
      consideration: inr(1000000, '10,00,000.00'),
      landDeduction: inr(333333.33, '3,33,333.33'),
      taxableValue: inr(666666.67, '6,66,666.67'),
      cgstRate: 3.75,
      cgst: inr(25000, '25,000.00'),
      sgstRate: 3.75,
      sgst: inr(25000, '25,000.00'),
    });
    expect(view.totals.grossAmount).toEqual(inr(1050000, '10,50,000.00'));
    expect(view).toMatchObject({
      number: 'INV/26-27/00001',
      date: '2026-04-01',
      supplier,
      recipient,
      placeOfSupply: { stateCode: '27', stateName: 'Maharashtra' },
      amountInWords: 'Rupees Ten Lakh Fifty Thousand Only',
      reverseCharge: false,
      demand,
    });
    expect(view.supplier).not.toBe(invoice.supplier);
  });

  it('a credit note: amounts as Money, the invoices it credits', () => {
    const note: CreditNoteDocument = {
      id: '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f',
      number: 'CRN/26-27/00001',
      date: '2026-06-15',
      reason: 'Cancelled',
      supplier,
      recipient,
      invoices: [{ number: 'INV/26-27/00001', date: '2026-04-01' }],
      lines: [{ invoice: 'INV/26-27/00001', description: 'Plinth', sac: '995411', ...amounts }],
      totals: {
        consideration: '1000000.00',
        taxableValue: '666666.67',
        cgst: '25000.00',
        sgst: '25000.00',
        tax: '50000.00',
        value: '1050000.00',
      },
    };
    const view = toCreditNoteView(note, 'INR', 'en-US');
    expect(view.invoices).toEqual([{ number: 'INV/26-27/00001', date: '2026-04-01' }]);
    expect(view.lines[0].cgstRate).toBe(3.75);
    expect(view.lines[0].invoice).toBe('INV/26-27/00001');
    expect(view.totals.value).toEqual(inr(1050000, '1,050,000.00'));
    expect(view).toMatchObject({ id: note.id, number: note.number, reason: 'Cancelled' });
  });
});
