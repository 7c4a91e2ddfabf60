import { planDemandTax, DemandTaxBooking, DemandTaxSettings } from './demand-tax';

const settings = (overrides: Partial<DemandTaxSettings> = {}): DemandTaxSettings => ({
  enabled: true,
  interestTax: 'AS_PRINCIPAL',
  otherChargesSac: '999799',
  lockedThrough: null,
  ...overrides,
});
const booking = (overrides: Partial<DemandTaxBooking> = {}): DemandTaxBooking => ({
  gstExempt: false,
  carpetAreaSqm: null,
  metroCity: false,
  agreementValue: null,
  buyerAddress: 'Flat 12, Andheri East, Mumbai',
  buyerGstin: null,
  ...overrides,
});
const plan = (o: Partial<Parameters<typeof planDemandTax>[0]> = {}) =>
  planDemandTax({
    settings: settings(),
    booking: booking(),
    chargeType: 'CONSTRUCTION',
    consideration: 100_000_000n,
    splitAmounts: [33_333_333n, 33_333_333n, 33_333_334n],
    demandDate: '2026-11-20',
    today: '2026-11-28',
    ...o,
  });

describe('planDemandTax', () => {
  it('taxes a STANDARD construction instalment and shares the tax over the splits', () => {
    expect(plan()).toEqual({
      kind: 'TAXED',
      tax: {
        landDeduction: '333333.33',
        taxableValue: '666666.67',
        cgstRate: '3.75',
        cgst: '25000.00',
        sgstRate: '3.75',
        sgst: '25000.00',
        total: '50000.00',
        sac: '995411',
      },
      total: 5_000_000n,
      splitTax: [1_666_667n, 1_666_666n, 1_666_667n],
    });
  });

  it('leaves untaxed: GST disabled, an EXEMPT booking, a bounce penalty', () => {
    expect(plan({ settings: settings({ enabled: false }) })).toEqual({ kind: 'UNTAXED' });
    expect(plan({ booking: booking({ gstExempt: true }) })).toEqual({ kind: 'UNTAXED' });
    expect(plan({ chargeType: 'OTHER_CHARGES', untaxed: true })).toEqual({ kind: 'UNTAXED' });
  });

  it('taxes OTHER_CHARGES of an EXEMPT booking at 9 % + 9 % on the whole', () => {
    const p = plan({ booking: booking({ gstExempt: true }), chargeType: 'OTHER_CHARGES' });
    expect(p).toMatchObject({ kind: 'TAXED', tax: { landDeduction: '0.00', cgstRate: '9.00' } });
  });

  it('refuses an invoice dated after today, or in or before the filed month', () => {
    expect(plan({ demandDate: '2026-11-29' })).toMatchObject({ kind: 'INVOICE_DATE_INVALID' });
    const locked = settings({ lockedThrough: '2026-10' });
    expect(plan({ settings: locked, demandDate: '2026-10-31' })).toMatchObject({
      kind: 'INVOICE_DATE_INVALID',
    });
    expect(plan({ settings: locked, demandDate: '2026-11-01' })).toMatchObject({ kind: 'TAXED' });
  });

  it('needs the address of a buyer without a GSTIN from a taxable value of 50,000.00', () => {
    const noAddress = booking({ buyerAddress: null });
    // 75,000.00 of construction: taxable 50,000.00 exactly.
    expect(
      plan({ booking: noAddress, consideration: 7_500_000n, splitAmounts: [7_500_000n] }),
    ).toEqual({ kind: 'BUYER_ADDRESS_REQUIRED', taxableValue: '50000.00' });
    expect(
      plan({ booking: noAddress, consideration: 7_499_998n, splitAmounts: [7_499_998n] }),
    ).toMatchObject({ kind: 'TAXED' });
    expect(
      plan({
        booking: booking({ buyerAddress: null, buyerGstin: '27AAPFU0939F1ZV' }),
        consideration: 7_500_000n,
        splitAmounts: [7_500_000n],
      }),
    ).toMatchObject({ kind: 'TAXED' });
  });
});
