import { parseSearchRequest } from '@/search/search-request';
import { compileSearch } from '../search/receipt-search.sql';
import { RECEIPT_SEARCH } from '../search/search-fields';
import { parseGroupBy, SUMMARY_GROUPS, summaryStatement } from './receipt-summary';
import {
  summaryDeltaStatement,
  summaryDependencies,
  versionedSummaryStatement,
} from './receipt-summary.sql';

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

describe('receipt summary from a cache', () => {
  const parsed = parseSearchRequest(RECEIPT_SEARCH, {}, [
    { field: 'paymentMode', query: 'NEFT', type: 'EQUALS' },
  ]);
  const compiled = compileSearch(parsed, TENANT);

  it('recounts on a status change only when the filters or the groups read a status', () => {
    expect(summaryDependencies(parsed, 'paymentMode')).toEqual({
      receiptStatus: false,
      demandStatus: false,
    });
    expect(summaryDependencies(parsed, 'status').receiptStatus).toBe(true);
    const active = parseSearchRequest(RECEIPT_SEARCH, {}, [
      { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
    ]);
    expect(summaryDependencies(active, undefined).receiptStatus).toBe(true);
  });

  it('reads the versions with the totals, and only the receipts inserted since when cached', () => {
    const full = versionedSummaryStatement(compiled, 'paymentMode');
    expect(full).toContain('FROM receipt_search_versions WHERE tenant_id = $1::uuid');
    expect(full).not.toContain('inserted_version');
    const delta = summaryDeltaStatement(compiled, 'status', summaryDependencies(parsed, 'status'));
    // The cached version is bound right after the filter values.
    const cached = `$${compiled.countParams.length + 1}::bigint`;
    expect(delta).toContain(`r.inserted_version > ${cached}`);
    expect(delta).toContain(`v.receipt_status_version > ${cached}`);
    expect(delta).not.toContain('v.demand_status_version');
    expect(delta).toMatch(/LEFT JOIN LATERAL \(.*GROUP BY ROLLUP/);
  });
});
