import { parseSearchRequest } from '@/search/search-request';
import { compileSearch } from '../search/receipt-search.sql';
import { RECEIPT_SEARCH } from '../search/search-fields';
import { parseGroupBy, SUMMARY_GROUPS, summaryStatement } from './receipt-summary';

const TENANT = '0b6c3f5e-2d1a-4e8b-9c7d-6f5e4d3c2b1a';

describe('receipt summary', () => {
  const compiled = compileSearch(
    parseSearchRequest(RECEIPT_SEARCH, {}, [{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }]),
    TENANT,
  );

  it('accepts each group and nothing else', () => {
    expect(parseGroupBy(undefined)).toBeUndefined();
    for (const g of SUMMARY_GROUPS) expect(parseGroupBy(g)).toBe(g);
    for (const bad of ['PAYMENTMODE', 'buyerName', '', ['status', 'status']]) {
      expect(() => parseGroupBy(bad)).toThrow(/groupBy must be one of paymentMode/);
    }
  });

  it('aggregates over the search conditions without grouping', () => {
    const sql = summaryStatement(compiled, undefined);
    expect(sql).toContain(compiled.matchSql('r.amount').split(' WHERE ')[1]);
    expect(sql).not.toMatch(/GROUP BY/);
  });

  it('rolls the groups up with the total, joining demands only for demandType', () => {
    const byMode = summaryStatement(compiled, 'paymentMode');
    expect(byMode).toMatch(
      /GROUP BY ROLLUP \(g\.key\) ORDER BY grouping\(g\.key\), g\.key COLLATE "C"$/,
    );
    expect(byMode).not.toContain('JOIN demands');
    expect(summaryStatement(compiled, 'demandType')).toContain(
      'JOIN demands d ON d.tenant_id = $1::uuid AND d.id = m.demand_id',
    );
    expect(summaryStatement(compiled, 'receivedMonth')).toContain(
      `to_char(m.received_date, 'YYYY-MM')`,
    );
  });
});
