import { PAYMENT_MODES } from './enums';
import {
  BOUNCEABLE_MODES,
  NEVER_IN_BANK,
  PAYMENT_MODE_FACTS,
  canBounce,
  paymentModeLabel,
  reachesBank,
  sqlModes,
} from './payment-modes';

describe('payment-mode facts', () => {
  it('cover every mode', () => {
    expect(Object.keys(PAYMENT_MODE_FACTS).sort()).toEqual([...PAYMENT_MODES].sort());
  });

  it('paper bounces; cash and TDS never reach the bank', () => {
    expect(BOUNCEABLE_MODES).toEqual(['CHEQUE', 'DEMAND_DRAFT']);
    expect(NEVER_IN_BANK).toEqual(['CASH', 'TDS']);
    expect(sqlModes(BOUNCEABLE_MODES)).toBe("'CHEQUE', 'DEMAND_DRAFT'");
  });

  it('answers unknown modes safely', () => {
    expect(paymentModeLabel('DEMAND_DRAFT')).toBe('Demand draft');
    expect(paymentModeLabel('constructor')).toBe('constructor');
    expect(canBounce('toString')).toBe(false);
    expect(reachesBank('BARTER')).toBe(false);
  });
});
