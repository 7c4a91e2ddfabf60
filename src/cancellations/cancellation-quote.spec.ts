import { paiseText } from '@/common/money/paise';
import {
  CancellationPolicy,
  capHundredths,
  QuoteDemand,
  quoteCancellation,
} from './cancellation-quote';

const rupees = (r: number) => BigInt(Math.round(r * 100));
const MAHARERA: CancellationPolicy = {
  rule: 'MAHARERA_2022',
  percent: '10.00',
  bands: [],
  refundDays: 45,
};

/** A taxed demand of consideration C at `rate` % a head, a third deducted for land or not. */
function demand(
  id: string,
  date: string,
  chargeType: QuoteDemand['chargeType'],
  c: number,
  rate: string,
  land: boolean,
  paid: number,
): QuoteDemand {
  const consideration = rupees(c);
  const landDeduction = land ? (2n * consideration + 3n) / 6n : 0n;
  const taxableValue = consideration - landDeduction;
  const rateH = BigInt(Math.round(Number(rate) * 100));
  const head = (2n * taxableValue * rateH + 10_000n) / 20_000n;
  return {
    id,
    number: `DMD/${id}`,
    demandDate: date,
    chargeType,
    consideration,
    tax: { landDeduction, taxableValue, cgstRate: rate, cgst: head, sgstRate: rate, sgst: head },
    timeBarred: false,
    paidBy: [{ payerId: 'buyer', payerType: 'BUYER', paid: rupees(paid) }],
  };
}

const worked = () => [
  demand('D1', '2026-05-05', 'CONSTRUCTION', 800000, '3.75', true, 840000),
  demand('D2', '2026-06-01', 'CONSTRUCTION', 1000000, '3.75', true, 525000),
  demand('D3', '2026-05-05', 'OTHER_CHARGES', 50000, '9', false, 59000),
];

describe('quoteCancellation: the worked example', () => {
  const q = quoteCancellation({
    policy: MAHARERA,
    initiatedBy: 'BUYER',
    requestedOn: '2026-06-20',
    allotmentDate: '2026-05-01',
    agreementValue: rupees(8000000),
    demands: worked(),
  });
  const t = (v: bigint) => paiseText(v);

  it('50 days: 1.5 % of 80,00,000.00, kept from D1', () => {
    expect([q.days, q.capPercent, t(q.cap), t(q.deduction)]).toEqual([
      50,
      '1.50',
      '120000.00',
      '120000.00',
    ]);
    expect(q.demands.map((d) => t(d.retained))).toEqual(['120000.00', '0.00', '0.00']);
    expect(t(q.taxRetained)).toBe('6000.00');
  });

  it('credits each head less the kept tax; the note totals 11,70,000.00 and 93,000.00', () => {
    expect(q.demands.map((d) => [t(d.credit.cgst), t(d.credit.sgst)])).toEqual([
      ['17000.00', '17000.00'],
      ['25000.00', '25000.00'],
      ['4500.00', '4500.00'],
    ]);
    expect(q.creditNote && [t(q.creditNote.taxableValue), t(q.creditNote.tax)]).toEqual([
      '1170000.00',
      '93000.00',
    ]);
  });

  it('refunds 12,98,000.00 of 14,24,000.00 paid, due 2026-08-04', () => {
    expect(q.demands.map((d) => t(d.refund))).toEqual(['714000.00', '525000.00', '59000.00']);
    expect([t(q.refund), t(q.paid.total), q.refundDueDate]).toEqual([
      '1298000.00',
      '1424000.00',
      '2026-08-04',
    ]);
    expect(q.demands[1].paidTax).toBe(rupees(25000));
  });
});

describe('quoteCancellation: other cases', () => {
  const base = {
    policy: MAHARERA,
    requestedOn: '2026-06-20',
    allotmentDate: '2026-05-01',
    agreementValue: rupees(8000000),
  };

  it('PROMOTER_DEFAULT keeps nothing and refunds interest', () => {
    const interest = { ...demand('I1', '2026-06-10', 'INTEREST', 10000, '3.75', true, 10500) };
    const q = quoteCancellation({
      ...base,
      initiatedBy: 'PROMOTER_DEFAULT',
      demands: [...worked(), interest],
    });
    expect([q.deduction, q.taxRetained]).toEqual([0n, 0n]);
    expect(q.refund).toBe(q.paid.total);
    const buyer = quoteCancellation({ ...base, initiatedBy: 'BUYER', demands: [interest] });
    expect(buyer.demands[0].retained).toBe(rupees(10000));
  });

  it('a time-barred invoice: no credit, its tax to claim, refund of consideration only', () => {
    const [d1] = worked();
    const q = quoteCancellation({
      ...base,
      initiatedBy: 'BUYER',
      demands: [{ ...d1, timeBarred: true }],
    });
    expect(q.creditNote).toBeNull();
    expect([paiseText(q.refund), paiseText(q.taxToClaim)]).toEqual(['680000.00', '34000.00']);
  });

  it('an untaxed demand and a booking with no receipts', () => {
    const untaxed = { ...worked()[0], tax: null };
    const q = quoteCancellation({ ...base, initiatedBy: 'BUYER', demands: [untaxed] });
    expect([q.creditNote, q.taxRetained]).toEqual([null, 0n]);
    const none = quoteCancellation({ ...base, initiatedBy: 'BUYER', demands: [] });
    expect([none.refund, none.deduction, none.byPayer]).toEqual([0n, 0n, []]);
  });
});

describe('capHundredths', () => {
  it.each([
    [15, 0n],
    [16, 100n],
    [30, 100n],
    [31, 150n],
    [60, 150n],
    [61, 200n],
  ])('MAHARERA_2022 after %d days keeps %d hundredths of a percent', (days, expected) => {
    expect(capHundredths(MAHARERA, days)).toBe(expected);
  });

  it('PERCENT_OF_VALUE and BANDS', () => {
    expect(capHundredths({ ...MAHARERA, rule: 'PERCENT_OF_VALUE', percent: '10.00' }, 5)).toBe(
      1000n,
    );
    const bands = {
      ...MAHARERA,
      rule: 'BANDS' as const,
      bands: [
        { fromDay: 0, percent: '0' },
        { fromDay: 90, percent: '5.5' },
      ],
    };
    expect([capHundredths(bands, 89), capHundredths(bands, 90)]).toEqual([0n, 550n]);
  });
});
