import type { CancellationView } from '@/cancellations/dto/cancellation.view';
import { cancellationLetter, claimNote } from './cancellation-letter';

const money = (amount: number) => ({
  amount,
  currency: 'INR',
  currencySymbol: '₹',
  formatted: amount.toFixed(2),
});

const cancellation = (overrides: Partial<CancellationView> = {}): CancellationView => ({
  id: 'c1',
  booking: 'b1',
  requestedOn: '2026-12-01',
  initiatedBy: 'BUYER',
  rule: 'MAHARERA_2022',
  days: 300,
  capPercent: 2,
  cap: money(160000),
  agreementValue: money(8000000),
  paid: { consideration: money(1000000), tax: money(50000), total: money(1050000) },
  deduction: money(160000),
  taxRetained: money(8000),
  taxToClaim: money(42000),
  demands: [
    {
      demand: 'd1',
      demandNumber: 'DMD/1',
      chargeType: 'CONSTRUCTION',
      invoice: { number: 'INV/25-26/00001', date: '2026-03-10' },
      grossAmount: money(1050000),
      paid: money(1050000),
      paidConsideration: money(1000000),
      paidTax: money(50000),
      retained: money(160000),
      keptTax: money(8000),
      credit: { taxableValue: money(0), cgst: money(0), sgst: money(0) },
      refund: money(840000),
      taxToClaim: money(42000),
      timeBarred: true,
    },
  ],
  creditNote: null,
  refundDueDate: '2027-01-15',
  byPayer: [],
  cancelledOn: '2026-12-01',
  reason: 'Buyer withdrew',
  createdBy: 'desk',
  creditNotes: [],
  refund: {
    amount: money(840000),
    dueDate: '2027-01-15',
    status: 'DUE',
    paidOn: null,
    interest: null,
    paidAmount: null,
    paymentMode: null,
    transactionRef: null,
    voucherNumber: null,
  },
  ...overrides,
});

const input = (overrides: Partial<Parameters<typeof cancellationLetter>[0]> = {}) => ({
  tenantName: 'Skyline',
  locale: 'en-IN',
  buyerName: 'Ananya Iyer',
  buyerGstin: null,
  bookingNumber: 'BKG/1',
  unit: 'Tower B - 1203',
  cancellation: cancellation(),
  ...overrides,
});

describe('cancellationLetter', () => {
  it('tells a buyer without a GSTIN how to claim GST that could not be credited', () => {
    const letter = cancellationLetter(input());
    expect(letter.claimNote).toBe(claimNote(money(42000), ['INV/25-26/00001']));
    expect(letter.claimNote).toContain('Circular No. 188/20/2022-GST');
    expect(letter.computation.map((l) => l.label)).toContain('GST to claim from the government');
    expect(letter.computation.at(-1)).toEqual({
      label: 'Refund due to you',
      amount: money(840000),
      total: true,
    });
  });

  it('says nothing of a claim to a buyer with a GSTIN, or when nothing is left to claim', () => {
    expect(cancellationLetter(input({ buyerGstin: '29AAGCB7383J1Z4' })).claimNote).toBeNull();
    const credited = cancellation({ taxToClaim: money(0) });
    expect(cancellationLetter(input({ cancellation: credited })).claimNote).toBeNull();
  });

  it("names the developer's default, and the refund once paid", () => {
    const paid = cancellation({
      initiatedBy: 'PROMOTER_DEFAULT',
      refund: {
        ...cancellation().refund,
        status: 'PAID',
        paidOn: '2027-01-20',
        interest: money(1234.5),
        paidAmount: money(841234.5),
        voucherNumber: 'RFD/26-27/00001',
      },
    });
    const letter = cancellationLetter(input({ cancellation: paid }));
    expect(letter.intro).toContain('RERA section 18');
    expect(letter.refundNote).toContain('voucher RFD/26-27/00001');
    expect(letter.refundNote).toContain('1234.50');
  });
});
