import {
  manualMatchDecision,
  manualMatchLine,
  ManualMatchLine,
  ManualMatchReceipt,
} from './manual-match';

const LINE: ManualMatchLine = {
  id: 'line-1',
  direction: 'CREDIT',
  status: 'UNMATCHED',
  amount: '150000.00',
  currency: 'INR',
  suggestedReturn: false,
};
const receipt = (id: string, over: Partial<ManualMatchReceipt> = {}): ManualMatchReceipt => ({
  id,
  status: 'ACTIVE',
  payment_mode: 'NEFT',
  amount: '150000.00',
  bank_line_id: null,
  returned_by: null,
  ...over,
});
const byId = (...receipts: ManualMatchReceipt[]) => new Map(receipts.map((r) => [r.id, r]));
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    const { code, detail } = error as { code: string; detail: string };
    return { code, detail };
  }
  throw new Error('not refused');
};

describe(manualMatchLine.name, () => {
  it('an UNMATCHED or SUGGESTED credit of the tenant currency is matched by hand (MANUAL)', () => {
    expect(manualMatchLine(LINE, 'INR')).toEqual({ kind: 'CREDIT', rule: 'MANUAL' });
    expect(manualMatchLine({ ...LINE, status: 'SUGGESTED' }, 'INR')).toEqual({
      kind: 'CREDIT',
      rule: 'MANUAL',
    });
  });

  it('a debit only as a suggested cheque return (RETURN)', () => {
    const debit = { ...LINE, direction: 'DEBIT' as const };
    expect(
      manualMatchLine({ ...debit, status: 'SUGGESTED', suggestedReturn: true }, 'INR'),
    ).toEqual({ kind: 'RETURN', rule: 'RETURN' });
    expect(refusal(() => manualMatchLine(debit, 'INR'))).toEqual({
      code: 'LINE_NOT_MATCHABLE',
      detail: expect.stringContaining('a debit, not a cheque return'),
    });
    // Suggested, but not as a return.
    expect(refusal(() => manualMatchLine({ ...debit, status: 'SUGGESTED' }, 'INR')).code).toBe(
      'LINE_NOT_MATCHABLE',
    );
  });

  it.each([
    ['MATCHED', 'unmatch it first'],
    ['IGNORED', 'it is IGNORED'],
  ] as const)('a %s line is LINE_NOT_MATCHABLE', (status, why) => {
    expect(refusal(() => manualMatchLine({ ...LINE, status }, 'INR'))).toEqual({
      code: 'LINE_NOT_MATCHABLE',
      detail: expect.stringContaining(why),
    });
  });

  it("a line of an account in another currency than the tenant's", () => {
    expect(refusal(() => manualMatchLine({ ...LINE, currency: 'USD' }, 'INR'))).toEqual({
      code: 'LINE_NOT_MATCHABLE',
      detail: expect.stringContaining('in USD, receipts in INR'),
    });
  });
});

describe(manualMatchDecision.name, () => {
  it('receipts adding up to the line exactly (decimal, not float)', () => {
    const parts = [receipt('a', { amount: '0.10' }), receipt('b', { amount: '0.20' })];
    const line = { ...LINE, amount: '0.30' };
    expect(manualMatchDecision(line, 'INR', ['a', 'b'], byId(...parts))).toEqual({
      kind: 'CREDIT',
      rule: 'MANUAL',
    });
  });

  it('amounts not adding up: 422 MATCH_AMOUNT_MISMATCH with both sums', () => {
    const r = receipt('a', { amount: '149000' });
    expect(refusal(() => manualMatchDecision(LINE, 'INR', ['a'], byId(r)))).toEqual({
      code: 'MATCH_AMOUNT_MISMATCH',
      detail: "The receipts add up to 149000.00, not to the line's amount 150000.00.",
    });
  });

  it('a receipt not found in the tenant: RECEIPT_NOT_FOUND', () => {
    expect(refusal(() => manualMatchDecision(LINE, 'INR', ['x'], byId())).code).toBe(
      'RECEIPT_NOT_FOUND',
    );
  });

  it.each(['CASH', 'TDS'])('a %s receipt is RECEIPT_NOT_MATCHABLE', (mode) => {
    const r = receipt('a', { payment_mode: mode });
    expect(refusal(() => manualMatchDecision(LINE, 'INR', ['a'], byId(r)))).toEqual({
      code: 'RECEIPT_NOT_MATCHABLE',
      detail: expect.stringContaining(`a ${mode} receipt`),
    });
  });

  it.each(['CANCELLED', 'BOUNCED'])(
    'a %s receipt is RECEIPT_NOT_MATCHABLE for a credit',
    (status) => {
      const r = receipt('a', { status });
      expect(refusal(() => manualMatchDecision(LINE, 'INR', ['a'], byId(r)))).toEqual({
        code: 'RECEIPT_NOT_MATCHABLE',
        detail: expect.stringContaining(`it is ${status}`),
      });
    },
  );

  it('a receipt realised by another line is RECEIPT_ALREADY_MATCHED, naming that line', () => {
    const r = receipt('a', { bank_line_id: 'line-0' });
    expect(refusal(() => manualMatchDecision(LINE, 'INR', ['a'], byId(r)))).toEqual({
      code: 'RECEIPT_ALREADY_MATCHED',
      detail: expect.stringContaining('line-0'),
    });
  });

  it('the line is checked before its receipts, and receipts in the order asked', () => {
    const cash = receipt('a', { payment_mode: 'CASH' });
    expect(
      refusal(() => manualMatchDecision({ ...LINE, status: 'IGNORED' }, 'INR', ['a'], byId(cash)))
        .code,
    ).toBe('LINE_NOT_MATCHABLE');
    const taken = receipt('b', { bank_line_id: 'line-0' });
    expect(
      refusal(() => manualMatchDecision(LINE, 'INR', ['b', 'a'], byId(cash, taken))).code,
    ).toBe('RECEIPT_ALREADY_MATCHED');
  });

  describe('a cheque return (a debit suggested as RETURN)', () => {
    const ret: ManualMatchLine = {
      ...LINE,
      direction: 'DEBIT',
      status: 'SUGGESTED',
      suggestedReturn: true,
    };
    const cheque = (over: Partial<ManualMatchReceipt> = {}) =>
      receipt('c', { payment_mode: 'CHEQUE', bank_line_id: 'credit-1', ...over });

    it('a realised cheque or draft, ACTIVE or bounced already', () => {
      expect(manualMatchDecision(ret, 'INR', ['c'], byId(cheque()))).toEqual({
        kind: 'RETURN',
        rule: 'RETURN',
      });
      const bounced = cheque({ status: 'BOUNCED', payment_mode: 'DEMAND_DRAFT' });
      expect(manualMatchDecision(ret, 'INR', ['c'], byId(bounced)).rule).toBe('RETURN');
    });

    it.each([
      [{ payment_mode: 'NEFT' }, 'RECEIPT_NOT_MATCHABLE', 'only a cheque or demand draft'],
      [{ status: 'CANCELLED' }, 'RECEIPT_NOT_MATCHABLE', 'it is CANCELLED'],
      [{ bank_line_id: null }, 'RECEIPT_NOT_MATCHABLE', 'not realised'],
      [{ returned_by: 'debit-0' }, 'RECEIPT_ALREADY_MATCHED', 'debit-0'],
    ] as const)('%j is %s', (over, code, why) => {
      expect(refusal(() => manualMatchDecision(ret, 'INR', ['c'], byId(cheque(over))))).toEqual({
        code,
        detail: expect.stringContaining(why),
      });
    });
  });
});
