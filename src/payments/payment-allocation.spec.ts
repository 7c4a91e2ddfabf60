import Decimal from 'decimal.js';
import { allocateOldestFirst, firstRepeated, outstanding, total } from './payment-allocation';

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
