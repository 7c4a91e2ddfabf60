import { printedPayerName, printedUnit } from '@/common/domain/printed-names';

describe('names on paper', () => {
  const buyerName = 'Ananya Iyer';

  it("prints the split's payerName whatever the payer type", () => {
    for (const payerType of ['BUYER', 'CO_BUYER', 'BANK', 'OTHER']) {
      expect(printedPayerName({ payerName: 'HDFC Bank', payerType, buyerName })).toBe('HDFC Bank');
    }
  });

  it("prints a BUYER without a payerName as the booking's buyerName", () => {
    expect(printedPayerName({ payerName: null, payerType: 'BUYER', buyerName })).toBe(buyerName);
    expect(printedPayerName({ payerName: undefined, payerType: 'BUYER', buyerName })).toBe(
      buyerName,
    );
  });

  it("prints any other payer without a payerName as its type's label", () => {
    const label = (payerType: string) =>
      printedPayerName({ payerName: null, payerType, buyerName });
    expect(label('CO_BUYER')).toBe('Co-buyer');
    expect(label('BANK')).toBe('Home-loan bank');
    expect(label('OTHER')).toBe('Other');
  });

  it("prints the unit's name, or its id when it has none", () => {
    const unitId = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
    expect(printedUnit({ unitId, unitName: 'Tower B – 1203' })).toBe('Tower B – 1203');
    expect(printedUnit({ unitId, unitName: null })).toBe(unitId);
  });
});
