import Decimal from 'decimal.js';
import fc from 'fast-check';
import { paiseText, toPaise } from '@/common/money/paise';
import {
  ChargeType,
  demandTax,
  DemandTax,
  GstClass,
  gstClass,
  gstinCheckChar,
  gstinValid,
  InterestTax,
  normaliseGstin,
  shareTax,
} from './gst-tax';

/** `10,00,000.00` -> paise: the figures below are written as the rule's examples are. */
const rs = (text: string): bigint => toPaise(text.replace(/,/g, ''));

/** The tax with money as text, for readable expectations. */
function taxText(tax: DemandTax | null) {
  if (!tax) return null;
  return {
    landDeduction: paiseText(tax.landDeduction),
    taxableValue: paiseText(tax.taxableValue),
    cgstRate: tax.cgstRate,
    sgstRate: tax.sgstRate,
    cgst: paiseText(tax.cgst),
    sgst: paiseText(tax.sgst),
    total: paiseText(tax.total),
    grossAmount: paiseText(tax.grossAmount),
    sac: tax.sac,
  };
}

const construction = (consideration: bigint, cls: GstClass = 'STANDARD') =>
  taxText(
    demandTax({
      consideration,
      chargeType: 'CONSTRUCTION',
      gstClass: cls,
      interestTax: 'AS_PRINCIPAL',
    }),
  );

describe('gstinValid', () => {
  // Computed with the check-character rule; 27AAPFU0939F1ZV is the form's published example.
  const VALID = [
    '27AAPFU0939F1ZV',
    '29AAGCB7383J1Z4',
    '07AAACR5055K1Z9',
    '33ABCDE1234F1Z7',
    '97AAAAA0000A1ZV',
    '38ZZZZZ9999Z9ZX',
    '01ABCDE1234FAZ5',
  ];

  it.each(VALID)('accepts %s', (gstin) => {
    expect(gstinValid(gstin)).toBe(true);
  });

  it('refuses every wrong check character', () => {
    for (const gstin of VALID) {
      for (const c of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
        if (c === gstin[14]) continue;
        expect(gstinValid(gstin.slice(0, 14) + c)).toBe(false);
      }
    }
  });

  it('refuses state codes outside 01-38 and 97', () => {
    for (const state of ['00', '39', '40', '96', '98', '99', 'AB']) {
      const first14 = `${state}AAPFU0939F1Z`;
      // A correct check character, so only the state code is wrong.
      const gstin = /^\d\d$/.test(state) ? first14 + gstinCheckChar(first14) : `${first14}V`;
      expect(gstinValid(gstin)).toBe(false);
    }
    for (const state of ['01', '09', '10', '37', '38', '97']) {
      const first14 = `${state}AAPFU0939F1Z`;
      expect(gstinValid(first14 + gstinCheckChar(first14))).toBe(true);
    }
  });

  it('refuses a PAN, entity or Z of the wrong form even with a matching check character', () => {
    for (const first14 of [
      '271APFU0939F1Z', // a digit among the PAN's five letters
      '27AAPFUA939F1Z', // a letter among its four digits
      '27AAPFU093991Z', // a digit as its last letter
      '27AAPFU0939F0Z', // entity 0
      '27AAPFU0939F1Y', // not Z
    ]) {
      expect(gstinValid(first14 + gstinCheckChar(first14))).toBe(false);
    }
  });

  it('refuses other lengths, lower case and non-strings; normaliseGstin upper-cases and trims', () => {
    expect(gstinValid('27AAPFU0939F1Z')).toBe(false);
    expect(gstinValid('27AAPFU0939F1ZVX')).toBe(false);
    expect(gstinValid('')).toBe(false);
    expect(gstinValid('27aapfu0939f1zv')).toBe(false);
    expect(gstinValid(' 27AAPFU0939F1ZV')).toBe(false);
    expect(gstinValid(null as unknown as string)).toBe(false);
    expect(normaliseGstin(' 27aapfu0939f1zv\n')).toBe('27AAPFU0939F1ZV');
    expect(gstinValid(normaliseGstin('27aapfu0939f1zv'))).toBe(true);
  });
});

describe('gstClass', () => {
  const base = {
    gstExempt: false,
    metroCity: false,
    carpetAreaSqm: '60.00',
    agreementValue: '4500000.00',
  };

  it('is EXEMPT when exempt, whatever else', () => {
    expect(gstClass({ ...base, gstExempt: true })).toBe('EXEMPT');
    expect(gstClass({ ...base, gstExempt: true, carpetAreaSqm: null })).toBe('EXEMPT');
  });

  it('is AFFORDABLE at the limits: 60 m2 in a metro, 90 elsewhere, 45,00,000.00', () => {
    expect(gstClass({ ...base, metroCity: true, carpetAreaSqm: '60' })).toBe('AFFORDABLE');
    expect(gstClass({ ...base, metroCity: true, carpetAreaSqm: '60.01' })).toBe('STANDARD');
    expect(gstClass({ ...base, carpetAreaSqm: '90.00' })).toBe('AFFORDABLE');
    expect(gstClass({ ...base, carpetAreaSqm: '90.01' })).toBe('STANDARD');
    expect(gstClass({ ...base, agreementValue: '4500000' })).toBe('AFFORDABLE');
    expect(gstClass({ ...base, agreementValue: '4500000.01' })).toBe('STANDARD');
  });

  it('is STANDARD when the area or the value is unknown', () => {
    expect(gstClass({ ...base, carpetAreaSqm: null })).toBe('STANDARD');
    expect(gstClass({ ...base, agreementValue: null })).toBe('STANDARD');
  });
});

describe('demandTax: the worked examples', () => {
  it('STANDARD 10,00,000.00', () => {
    expect(construction(rs('10,00,000.00'))).toEqual({
      landDeduction: '333333.33',
      taxableValue: '666666.67',
      cgstRate: '3.75',
      sgstRate: '3.75',
      cgst: '25000.00',
      sgst: '25000.00',
      total: '50000.00',
      grossAmount: '1050000.00',
      sac: '995411',
    });
  });

  it('AFFORDABLE 4,00,000.00', () => {
    expect(construction(rs('4,00,000.00'), 'AFFORDABLE')).toMatchObject({
      taxableValue: '266666.67',
      cgstRate: '0.75',
      cgst: '2000.00',
      sgst: '2000.00',
      grossAmount: '404000.00',
    });
  });

  it('STANDARD 10,00,001.00 (25,000.024875 rounds to 25,000.02)', () => {
    expect(construction(rs('10,00,001.00'))).toMatchObject({
      landDeduction: '333333.67',
      taxableValue: '666667.33',
      cgst: '25000.02',
      sgst: '25000.02',
      grossAmount: '1050001.04',
    });
  });

  it('STANDARD 7,77,777.00 (each head rounds half-up, never a combined rate halved)', () => {
    expect(construction(rs('7,77,777.00'))).toMatchObject({
      taxableValue: '518518.00',
      cgst: '19444.43',
      sgst: '19444.43',
      total: '38888.86',
    });
  });

  it('OTHER_CHARGES 2,50,000.00', () => {
    const tax = demandTax({
      consideration: rs('2,50,000.00'),
      chargeType: 'OTHER_CHARGES',
      gstClass: 'STANDARD',
      interestTax: 'AS_PRINCIPAL',
    });
    expect(taxText(tax)).toEqual({
      landDeduction: '0.00',
      taxableValue: '250000.00',
      cgstRate: '9.00',
      sgstRate: '9.00',
      cgst: '22500.00',
      sgst: '22500.00',
      total: '45000.00',
      grossAmount: '295000.00',
      sac: '999799',
    });
  });

  it('a taxed demand whose tax rounds to 0.00 is still taxed', () => {
    expect(construction(1n)).toMatchObject({ landDeduction: '0.00', cgst: '0.00', total: '0.00' });
    expect(construction(0n)).toMatchObject({ taxableValue: '0.00', grossAmount: '0.00' });
  });

  it('refuses a negative consideration', () => {
    expect(() => construction(-1n)).toThrow(RangeError);
  });
});

describe('demandTax: every row of the table', () => {
  const C = rs('3,00,000.00');
  // [chargeType, interestTax, class] -> [rate, land third, SAC] or null (untaxed).
  const ROWS: [ChargeType, InterestTax, GstClass, [string, boolean, string] | null][] = [
    ['CONSTRUCTION', 'AS_PRINCIPAL', 'STANDARD', ['3.75', true, '995411']],
    ['CONSTRUCTION', 'AS_PRINCIPAL', 'AFFORDABLE', ['0.75', true, '995411']],
    ['CONSTRUCTION', 'AS_PRINCIPAL', 'EXEMPT', null],
    ['CONSTRUCTION', 'STANDARD_18', 'STANDARD', ['3.75', true, '995411']],
    ['OTHER_CHARGES', 'AS_PRINCIPAL', 'STANDARD', ['9.00', false, '999799']],
    ['OTHER_CHARGES', 'AS_PRINCIPAL', 'AFFORDABLE', ['9.00', false, '999799']],
    ['OTHER_CHARGES', 'AS_PRINCIPAL', 'EXEMPT', ['9.00', false, '999799']],
    ['OTHER_CHARGES', 'STANDARD_18', 'EXEMPT', ['9.00', false, '999799']],
    ['INTEREST', 'AS_PRINCIPAL', 'STANDARD', ['3.75', true, '995411']],
    ['INTEREST', 'AS_PRINCIPAL', 'AFFORDABLE', ['0.75', true, '995411']],
    ['INTEREST', 'AS_PRINCIPAL', 'EXEMPT', null],
    ['INTEREST', 'STANDARD_18', 'STANDARD', ['9.00', false, '995411']],
    ['INTEREST', 'STANDARD_18', 'AFFORDABLE', ['9.00', false, '995411']],
    ['INTEREST', 'STANDARD_18', 'EXEMPT', null],
  ];

  it.each(ROWS)('%s %s %s', (chargeType, interestTax, cls, expected) => {
    const tax = demandTax({ consideration: C, chargeType, gstClass: cls, interestTax });
    if (expected === null) {
      expect(tax).toBeNull();
      return;
    }
    const [rate, landThird, sac] = expected;
    const land = landThird ? rs('1,00,000.00') : 0n;
    const head = ((C - land) * BigInt(rate.replace('.', ''))) / 10_000n;
    expect(tax).toEqual({
      landDeduction: land,
      taxableValue: C - land,
      cgstRate: rate,
      sgstRate: rate,
      cgst: head,
      sgst: head,
      total: 2n * head,
      grossAmount: C + 2n * head,
      sac,
    });
  });

  it('uses the tenant SAC of other charges when given', () => {
    const tax = demandTax({
      consideration: C,
      chargeType: 'OTHER_CHARGES',
      gstClass: 'STANDARD',
      interestTax: 'AS_PRINCIPAL',
      otherChargesSac: '999599',
    });
    expect(tax?.sac).toBe('999599');
  });
});

describe('shareTax', () => {
  it('the worked example: 50,000.00 over 3,33,333.33 / 3,33,333.33 / 3,33,333.34', () => {
    const shares = shareTax(rs('50,000.00'), [
      rs('3,33,333.33'),
      rs('3,33,333.33'),
      rs('3,33,333.34'),
    ]);
    expect(shares.map(paiseText)).toEqual(['16666.67', '16666.66', '16666.67']);
  });

  it('gives leftover paise to the largest remainders, ties in the order given', () => {
    // 1 paisa over three equal splits: all remainders tie, so the first gets it.
    expect(shareTax(1n, [100n, 100n, 100n])).toEqual([1n, 0n, 0n]);
    expect(shareTax(2n, [100n, 100n, 100n])).toEqual([1n, 1n, 0n]);
    // 10 over 1/2/4: exact 1.43 / 2.86 / 5.71 -> floors 1/2/5, remainders .43 .86 .71.
    expect(shareTax(10n, [1n, 2n, 4n])).toEqual([1n, 3n, 6n]);
  });

  it('shares nothing over nothing, and refuses tax over splits summing to zero', () => {
    expect(shareTax(0n, [])).toEqual([]);
    expect(shareTax(0n, [0n, 0n])).toEqual([0n, 0n]);
    expect(() => shareTax(1n, [0n])).toThrow(RangeError);
    expect(() => shareTax(-1n, [1n])).toThrow(RangeError);
    expect(() => shareTax(1n, [-1n, 2n])).toThrow(RangeError);
  });
});

describe('properties (seeded)', () => {
  const RUNS = { numRuns: 2000, seed: 20261213 };
  // 0.01 to 99,99,99,999.99
  const consideration = fc.bigInt({ min: 1n, max: 99_999_999_999n });
  const cls = fc.constantFrom<GstClass>('STANDARD', 'AFFORDABLE', 'EXEMPT');
  const charge = fc.constantFrom<ChargeType>('CONSTRUCTION', 'OTHER_CHARGES', 'INTEREST');
  const interest = fc.constantFrom<InterestTax>('AS_PRINCIPAL', 'STANDARD_18');

  const halfUp = (d: Decimal) => BigInt(d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));

  it('land + taxable = C, and each head is round(taxable x rate) by decimal.js', () => {
    fc.assert(
      fc.property(consideration, charge, cls, interest, (c, chargeType, gstCls, interestTax) => {
        const tax = demandTax({ consideration: c, chargeType, gstClass: gstCls, interestTax });
        if (!tax) return;
        expect(tax.landDeduction + tax.taxableValue).toBe(c);
        if (tax.landDeduction !== 0n) {
          expect(tax.landDeduction).toBe(halfUp(new Decimal(c.toString()).div(3)));
        }
        const taxable = new Decimal(tax.taxableValue.toString());
        expect(tax.cgst).toBe(halfUp(taxable.mul(tax.cgstRate).div(100)));
        expect(tax.sgst).toBe(halfUp(taxable.mul(tax.sgstRate).div(100)));
        expect(tax.total).toBe(tax.cgst + tax.sgst);
        expect(tax.grossAmount).toBe(c + tax.total);
      }),
      RUNS,
    );
  });

  it("splits' shares sum to the tax, each within a paisa of its exact proportion", () => {
    const splits = fc.array(fc.bigInt({ min: 1n, max: 99_999_999_999n }), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(splits, cls, (amounts, gstCls) => {
        const c = amounts.reduce((s, a) => s + a, 0n);
        const tax = demandTax({
          consideration: c,
          chargeType: 'CONSTRUCTION',
          gstClass: gstCls === 'EXEMPT' ? 'STANDARD' : gstCls,
          interestTax: 'AS_PRINCIPAL',
        })!;
        const shares = shareTax(tax.total, amounts);
        expect(shares.reduce((s, x) => s + x, 0n)).toBe(tax.total);
        amounts.forEach((amount, i) => {
          // |share - tax x amount / C| < 1 paisa, exactly: |share x C - tax x amount| < C.
          const diff = shares[i] * c - tax.total * amount;
          expect(diff < c && -diff < c).toBe(true);
        });
      }),
      RUNS,
    );
  });
});
