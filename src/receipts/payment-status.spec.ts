import Decimal from 'decimal.js';
import { applyPayment, paymentStatus, pendingAmount } from './payment-status';

describe(paymentStatus.name, () => {
  it('is PENDING with nothing paid, PARTIALLY_PAID in between, PAID when paid in full', () => {
    expect(paymentStatus('1000.00', '0')).toBe('PENDING');
    expect(paymentStatus('1000.00', '0.01')).toBe('PARTIALLY_PAID');
    expect(paymentStatus('1000.00', '999.99')).toBe('PARTIALLY_PAID');
    expect(paymentStatus('1000.00', '1000')).toBe('PAID');
  });

  it('compares exactly, not through binary floating point', () => {
    // 0.1 + 0.2 !== 0.3 in doubles
    expect(paymentStatus('0.30', new Decimal('0.1').plus('0.2'))).toBe('PAID');
  });

  it('refuses a paid amount below zero or above the total', () => {
    expect(() => paymentStatus('10.00', '-0.01')).toThrow(RangeError);
    expect(() => paymentStatus('10.00', '10.01')).toThrow(RangeError);
  });
});

describe(applyPayment.name, () => {
  it('adds a receipt and moves the status forward', () => {
    expect(applyPayment({ total: '1000.00', paid: '0.00', status: 'PENDING' }, '400.50')).toEqual({
      paid: '400.50',
      status: 'PARTIALLY_PAID',
    });
    expect(
      applyPayment({ total: '1000.00', paid: '400.50', status: 'PARTIALLY_PAID' }, '599.50'),
    ).toEqual({
      paid: '1000.00',
      status: 'PAID',
    });
  });

  it('subtracts a cancellation and moves the status back', () => {
    expect(applyPayment({ total: '1000.00', paid: '1000.00', status: 'PAID' }, '-599.50')).toEqual({
      paid: '400.50',
      status: 'PARTIALLY_PAID',
    });
    expect(
      applyPayment({ total: '1000.00', paid: '400.50', status: 'PARTIALLY_PAID' }, '-400.50'),
    ).toEqual({
      paid: '0.00',
      status: 'PENDING',
    });
  });

  it('keeps a cancelled payable cancelled', () => {
    expect(applyPayment({ total: '10.00', paid: '5.00', status: 'CANCELLED' }, '-5')).toEqual({
      paid: '0.00',
      status: 'CANCELLED',
    });
  });

  it('refuses to overpay', () => {
    expect(() =>
      applyPayment({ total: '10.00', paid: '5.00', status: 'PARTIALLY_PAID' }, '5.01'),
    ).toThrow(RangeError);
  });
});

describe(pendingAmount.name, () => {
  it('is total minus paid, exactly', () => {
    expect(pendingAmount({ total: '100000000000.10', paid: '0.20' }).toFixed(2)).toBe(
      '99999999999.90',
    );
  });
});
