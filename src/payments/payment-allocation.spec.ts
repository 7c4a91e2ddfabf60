import Decimal from 'decimal.js';
import {
  allocateOldestFirst,
  firstRepeated,
  ListedSplit,
  outstanding,
  refuseListed,
  total,
} from './payment-allocation';

const d = (v: string) => new Decimal(v);
const shown = (parts: { splitId: string; amount: Decimal }[] | null) =>
  parts?.map((p) => [p.splitId, p.amount.toFixed(2)]) ?? null;

describe('payment allocation', () => {
  const splits = [
    { id: 'a', pending: d('100.10') },
    { id: 'b', pending: d('0') },
    { id: 'c', pending: d('200.20') },
    { id: 'e', pending: d('0.30') },
  ];

  it('pays the splits in order, each up to what it owes, skipping those that owe nothing', () => {
    expect(shown(allocateOldestFirst(d('250.25'), splits))).toEqual([
      ['a', '100.10'],
      ['c', '150.15'],
    ]);
  });

  it('pays everything exactly, in decimals', () => {
    expect(shown(allocateOldestFirst(d('300.60'), splits))).toEqual([
      ['a', '100.10'],
      ['c', '200.20'],
      ['e', '0.30'],
    ]);
    expect(outstanding(splits).toFixed(2)).toBe('300.60');
  });

  it('stops at the first split when it covers the amount', () => {
    expect(shown(allocateOldestFirst(d('0.01'), splits))).toEqual([['a', '0.01']]);
  });

  it('is null when the splits owe less than the amount', () => {
    expect(allocateOldestFirst(d('300.61'), splits)).toBeNull();
    expect(allocateOldestFirst(d('1'), [])).toBeNull();
  });

  it('adds parts exactly', () => {
    const parts = [
      { splitId: 'a', amount: d('0.1') },
      { splitId: 'b', amount: d('0.2') },
    ];
    expect(total(parts).toFixed(2)).toBe('0.30');
    expect(total(parts).eq('0.3')).toBe(true);
  });

  it('finds a split listed twice, whatever the case of its id', () => {
    expect(firstRepeated(['A1', 'b2', 'a1'])).toBe('a1');
    expect(firstRepeated(['a', 'b'])).toBeNull();
  });
});

describe('refuseListed', () => {
  const owner = { bookingId: 'B1', payerId: 'P1', receivedDate: '2026-05-01' };
  const split = (id: string, overrides: Partial<ListedSplit> = {}): [string, ListedSplit] => [
    id,
    {
      id,
      bookingId: 'b1',
      payerId: 'p1',
      cancelled: false,
      pending: d('100.00'),
      invoiceDate: null,
      ...overrides,
    },
  ];
  const splits = new Map([
    split('s1'),
    split('s2', { bookingId: 'b2' }),
    split('s3', { payerId: 'p2' }),
    split('s4', { cancelled: true }),
    split('s5', { pending: d('10.00') }),
    split('s6', { invoiceDate: '2026-05-02' }),
    split('s7', { invoiceDate: '2026-05-01' }),
  ]);
  const part = (splitId: string, amount = '1.00') => ({ splitId, amount: d(amount) });

  it('accepts splits of the booking and payer that owe at least their part (ids any case)', () => {
    expect(refuseListed([part('S1', '100.00'), part('s5', '10.00')], splits, owner)).toBeNull();
  });

  it.each([
    ['missing', 'it was not found'],
    ['s2', 'it is of another booking'],
    ['s3', 'it is of another payer'],
    ['s4', 'it is cancelled'],
  ])('refuses %s: %s', (id, why) => {
    expect(refuseListed([part('s1'), part(id)], splits, owner)).toEqual({
      kind: 'INVALID',
      splitId: id,
      why,
    });
  });

  it('refuses a part above its pending amount, but only once every split is valid', () => {
    expect(refuseListed([part('s5', '10.01')], splits, owner)).toMatchObject({
      kind: 'EXCEEDS',
      splitId: 's5',
    });
    expect(refuseListed([part('s5', '10.01'), part('s4')], splits, owner)).toMatchObject({
      kind: 'INVALID',
      splitId: 's4',
    });
  });
});

describe('refuseListed and tax invoices', () => {
  const owner = { bookingId: 'b1', payerId: 'p1', receivedDate: '2026-05-01' };
  const listed = (invoiceDate: string | null): Map<string, ListedSplit> =>
    new Map([
      [
        's1',
        {
          id: 's1',
          bookingId: 'b1',
          payerId: 'p1',
          cancelled: false,
          pending: d('100'),
          invoiceDate,
        },
      ],
    ]);
  it('refuses paying a taxed split before its invoice, not on its date or after', () => {
    const part = { splitId: 's1', amount: d('1.00') };
    expect(refuseListed([part], listed('2026-05-02'), owner)).toEqual({
      kind: 'BEFORE_INVOICE',
      splitId: 's1',
      invoiceDate: '2026-05-02',
    });
    expect(refuseListed([part], listed('2026-05-01'), owner)).toBeNull();
    expect(refuseListed([part], listed(null), owner)).toBeNull();
  });
});
