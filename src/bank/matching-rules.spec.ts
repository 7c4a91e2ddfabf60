import {
  decideCredits,
  decideImport,
  lineKeys,
  paise,
  receiptReferenceKey,
  RuleLine,
  RuleReceipt,
} from './matching-rules';

const UTR = 'SBINN52026101412345';
const line = (id: string, over: Partial<RuleLine> = {}): RuleLine => ({
  id,
  direction: 'CREDIT',
  amount: '1000.00',
  valueDate: '2026-10-12',
  utr: UTR,
  chequeNumber: null,
  referenceKey: '',
  narration: 'NEFT CR',
  reversal: false,
  ...over,
});
const receipt = (id: string, over: Partial<RuleReceipt> = {}): RuleReceipt => ({
  id,
  amount: '1000.00',
  receivedDate: '2026-10-10',
  paymentMode: 'NEFT',
  transactionRef: `UTR: ${UTR.toLowerCase()}`,
  status: 'ACTIVE',
  bankLine: null,
  realisedOn: null,
  returned: false,
  ...over,
});
const decide = (lines: RuleLine[], receipts: RuleReceipt[]) =>
  decideCredits(lines, receipts, { amountDate: true });

describe('matching rules (the reference of bank-matching.sql.ts)', () => {
  it('reference keys: labels, separators and leading zeros dropped, as bank_reference_key()', () => {
    expect(receiptReferenceKey('UTR: sbinn5202-6101412345')).toBe('SBINN52026101412345');
    expect(receiptReferenceKey('CHQ NO. 004512')).toBe('4512');
    expect(receiptReferenceKey('RRN530512345678')).toBe('530512345678');
    expect(receiptReferenceKey('NOTE 12')).toBe('NOTE12');
    expect(lineKeys(line('l', { chequeNumber: '004512', referenceKey: '4512' }))).toEqual([
      UTR,
      '4512',
    ]);
    expect(paise('1500.05')).toBe(150005n);
  });

  it('REFERENCE: key, amount and the -3..+30 day window', () => {
    const d = decide(
      [line('in'), line('late', { valueDate: '2026-11-10', utr: 'HDFCN52026101400001' })],
      [
        receipt('a'),
        receipt('b', { transactionRef: 'HDFCN52026101400001', receivedDate: '2026-10-10' }),
      ],
    );
    expect(d.get('in')).toEqual({
      status: 'MATCHED',
      matched: { rule: 'REFERENCE', receipts: ['a'] },
      suggestions: [],
    });
    // 31 days after: no reference candidate; nor an AMOUNT_DATE one.
    expect(d.get('late')?.status).toBe('UNMATCHED');
  });

  it('GROUP: every open receipt of the key, adding up to the line', () => {
    const parts = [
      receipt('a', { amount: '600.00' }),
      receipt('b', { amount: '400.00' }),
      receipt('cash', { amount: '5.00', paymentMode: 'CASH' }),
    ];
    expect(decide([line('l')], parts).get('l')?.matched).toEqual({
      rule: 'GROUP',
      receipts: ['a', 'b'],
    });
    // A third receipt of that key breaks the sum.
    const more = [...parts, receipt('c', { amount: '1.00' })];
    expect(decide([line('l')], more).get('l')?.status).toBe('UNMATCHED');
  });

  it('two receipts or two lines qualifying equally: none matched, all SUGGESTED', () => {
    const two = decide([line('l')], [receipt('a'), receipt('b')]);
    expect(two.get('l')).toMatchObject({ status: 'SUGGESTED', matched: null });
    expect(two.get('l')?.suggestions.map((s) => s.receipts)).toEqual([['a'], ['b']]);
    const lines = decide([line('l1'), line('l2')], [receipt('a')]);
    expect([lines.get('l1')?.status, lines.get('l2')?.status]).toEqual(['SUGGESTED', 'SUGGESTED']);
  });

  it('AMOUNT_DATE: equal amount 0-3 days before (10 for a cheque), never matched, never a matched receipt', () => {
    const noRef = { utr: null, narration: 'CLEARING' };
    const d = decide(
      [line('l', noRef), line('cheque', { ...noRef, valueDate: '2026-10-20', amount: '7.00' })],
      [
        receipt('near', { transactionRef: '', receivedDate: '2026-10-09' }),
        receipt('far', { transactionRef: '', receivedDate: '2026-10-08' }),
        receipt('after', { transactionRef: '', receivedDate: '2026-10-13' }),
        receipt('chq', { amount: '7.00', paymentMode: 'CHEQUE', receivedDate: '2026-10-10' }),
      ],
    );
    expect(d.get('l')).toEqual({
      status: 'SUGGESTED',
      matched: null,
      suggestions: [{ rule: 'AMOUNT_DATE', receipts: ['near'] }],
    });
    expect(d.get('cheque')?.suggestions).toEqual([{ rule: 'AMOUNT_DATE', receipts: ['chq'] }]);
    expect(
      decideCredits([line('l', noRef)], [receipt('near', { transactionRef: '' })], {
        amountDate: false,
      }).get('l')?.status,
    ).toBe('UNMATCHED');
  });

  it('RETURN: a debit naming a return, of a cheque realised by the import, is suggested', () => {
    const chq = receipt('chq', { paymentMode: 'CHEQUE', transactionRef: 'CHQ 004512' });
    const credit = line('credit', { utr: null, chequeNumber: '004512', narration: 'CLG' });
    const debit = (id: string, narration: string, valueDate = '2026-10-15') =>
      line(id, { direction: 'DEBIT', utr: null, chequeNumber: '004512', narration, valueDate });
    const d = decideImport(
      [
        credit,
        debit('ret', 'CHQ RETURN 004512'),
        debit('plain', 'CHQ PAID 004512'),
        debit('early', 'CHQ RETURN 004512', '2026-10-11'),
      ],
      [chq],
    );
    expect(d.get('credit')?.matched).toEqual({ rule: 'REFERENCE', receipts: ['chq'] });
    expect(d.get('ret')).toEqual({
      status: 'SUGGESTED',
      matched: null,
      suggestions: [{ rule: 'RETURN', receipts: ['chq'] }],
    });
    expect(d.get('plain')?.status).toBe('UNMATCHED');
    expect(d.get('early')?.status).toBe('UNMATCHED');
  });
});
