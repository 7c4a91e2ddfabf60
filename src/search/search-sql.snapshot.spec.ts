/**
 * The SQL the search engine writes for a fixed set of requests over the three catalogues, kept in
 * __snapshots__/search-sql.snapshot.spec.ts.snap so that any change to a statement shows up in
 * review as a diff. A changed snapshot is not a failure to paper over: read the diff, then
 * `npx jest src/search/search-sql.snapshot.spec.ts --selectProjects unit -u` if it is intended.
 *
 * For reading only, the statements are broken into lines before their main keywords; joining the
 * lines with single spaces gives the exact text sent to PostgreSQL.
 */
import { BOOKING_SEARCH, BOOKING_TABLE } from '@/bookings/booking-search';
import { DEMAND_SEARCH, DEMAND_TABLE } from '@/demands/demand-search';
import { NOTHING_CACHED } from '@/receipts/search/exact-counts';
import { searchPageStatement } from '@/receipts/search/receipt-search-page';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { SearchCatalogue } from '@/search/search-catalogue';
import { pageStatement, SearchTable } from '@/search/search-page';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';

const TENANT = '0b6f4a39-6a43-4c43-9a34-1f6c0d1e2f30';
const UUID = '123e4567-e89b-12d3-a456-426614174000';
const OTHER_UUID = 'ffffffff-ffff-7fff-bfff-ffffffffffff';
/** The row columns are the resource's own; the page statement around them is the engine's. */
const ROW_COLUMNS = 'id';

type Filter = { field: string; type: string; query?: string };

interface Case {
  readonly name: string;
  readonly query?: RawSearchQuery;
  readonly filters?: readonly Filter[];
}

/** Line breaks before the main keywords (display only: see the file comment). */
function lines(sql: string): string {
  return sql.replace(
    / (?=(?:FROM|WHERE|OR|ORDER BY|LIMIT|UNION ALL|LEFT JOIN|CROSS JOIN|SELECT) )|(?<!BETWEEN \S+) (?=AND )/g,
    '\n',
  );
}

const parse = (catalogue: SearchCatalogue, c: Case) =>
  parseSearchRequest(catalogue, c.query ?? {}, c.filters ?? []);

describe('search SQL snapshots', () => {
  describe('receipts (compileSearch)', () => {
    const cases: Case[] = [
      { name: 'no filter, default sort and paging' },
      {
        name: 'uuid EQUALS, enum IN, number BETWEEN; sort and paging',
        query: { page: '2', size: '50', sort: ['amount,asc', 'created,desc'] },
        filters: [
          { field: 'booking', type: 'eq', query: UUID },
          { field: 'paymentMode', type: 'in', query: 'neft,upi' },
          { field: 'amount', type: 'between', query: '1000,2500.50' },
        ],
      },
      {
        name: 'date BETWEEN, text CONTAINS with wildcards, text NOT_IN, NOT_EQUALS',
        filters: [
          { field: 'receivedDate', type: 'between', query: '2025-04-01,2025-06-30' },
          { field: 'receiptNumber', type: 'contains', query: '50%_off' },
          { field: 'transactionRef', type: 'not in', query: 'A,b' },
          { field: 'status', type: 'ne', query: 'cancelled' },
        ],
      },
      {
        name: 'null filters and the nullable milestone; split and demand EXISTS',
        filters: [
          { field: 'milestone', type: 'is null' },
          { field: 'demandMeta.milestone', type: 'ne', query: UUID },
          { field: 'demandMeta.dueDate', type: 'lt', query: '2025-01-31' },
          { field: 'demandSplitMeta.payerId', type: 'is not null' },
          { field: 'demandSplitMeta.status', type: 'not_in', query: 'paid' },
        ],
      },
      {
        name: 'keyword with a trigram (the indexed lookup) and a status',
        query: { sort: 'receiptNumber,asc' },
        filters: [
          { field: 'keyword', type: 'contains', query: 'Sharma' },
          { field: 'status', type: 'eq', query: 'active' },
        ],
      },
      {
        name: 'short keyword (scanned)',
        filters: [{ field: 'keyword', type: 'contains', query: 'ab' }],
      },
    ];

    it.each(cases)('$name', (c) => {
      const sql = compileSearch(parse(RECEIPT_SEARCH, c), TENANT);
      expect({
        ids: lines(sql.idsSql),
        idsParams: sql.idsParams,
        count: lines(sql.countSql),
        countParams: sql.countParams,
      }).toMatchSnapshot();
    });

    it.each([
      ['nothing cached', NOTHING_CACHED],
      ['a cached count at version 42', '42'],
    ])('the one-statement page, %s', (_name, cachedVersion) => {
      const parsed = parse(RECEIPT_SEARCH, {
        name: 'status filter',
        filters: [{ field: 'status', type: 'in', query: 'active,bounced' }],
      });
      const statement = searchPageStatement(parsed, compileSearch(parsed, TENANT), cachedVersion);
      expect({ text: lines(statement.text), params: statement.params }).toMatchSnapshot();
    });
  });

  const pageCases = (
    resource: string,
    catalogue: SearchCatalogue,
    table: SearchTable,
    cases: Case[],
  ) =>
    describe(`${resource} (pageStatement)`, () => {
      it.each(cases)('$name', (c) => {
        const statement = pageStatement(table, parse(catalogue, c), TENANT, ROW_COLUMNS);
        expect({ text: lines(statement.text), params: statement.params }).toMatchSnapshot();
      });
    });

  pageCases('demands', DEMAND_SEARCH, DEMAND_TABLE, [
    { name: 'no filter, default sort and paging' },
    {
      name: 'overdue: date LT and enum IN, sorted by due date',
      query: { sort: 'dueDate,asc' },
      filters: [
        { field: 'dueDate', type: 'lt', query: '2025-06-30' },
        { field: 'status', type: 'in', query: 'pending,partially_paid' },
      ],
    },
    {
      name: 'keyword, number GTE, nullable milestone NOT_IN; second page',
      query: { page: '1', size: '10', sort: ['pendingAmount,desc'] },
      filters: [
        { field: 'keyword', type: 'contains', query: 'tower' },
        { field: 'totalAmount', type: 'gte', query: '100000' },
        { field: 'milestone', type: 'not in', query: `${UUID},${OTHER_UUID}` },
      ],
    },
  ]);

  pageCases('bookings', BOOKING_SEARCH, BOOKING_TABLE, [
    { name: 'no filter, default sort and paging' },
    {
      name: 'null buyer, date BETWEEN, text STARTS_WITH; sorted by number',
      query: { sort: 'bookingNumber,asc', size: '5' },
      filters: [
        { field: 'buyerId', type: 'is null' },
        { field: 'bookingDate', type: 'between', query: '2025-01-01,2025-12-31' },
        { field: 'buyerName', type: 'starts with', query: 'An' },
      ],
    },
    {
      name: 'enum NOT_EQUALS, uuid IN, text ENDS_WITH and EQUALS',
      filters: [
        { field: 'status', type: 'ne', query: 'cancelled' },
        { field: 'unit', type: 'in', query: `${UUID},${OTHER_UUID}` },
        { field: 'buyerName', type: 'ends with', query: 'Rao' },
        { field: 'bookingNumber', type: 'eq', query: 'BK-0001' },
      ],
    },
  ]);
});
