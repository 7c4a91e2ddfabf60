import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { Tenant } from '@/http/tenancy/tenant.entity';
import {
  BookingView,
  createBooking,
  createDemand,
  DemandView,
  post,
  recordReceipt,
  split,
} from './support/factories';
import { Client } from 'pg';
import { BOOKING_SEARCH, BOOKING_TABLE } from '@/bookings/booking-search';
import { BOOKING_COLUMNS } from '@/bookings/bookings.sql';
import { DEMAND_SEARCH, DEMAND_TABLE } from '@/demands/demand-search';
import { DEMAND_COLUMNS } from '@/demands/demands.sql';
import { SearchCatalogue } from '@/search/search-catalogue';
import { KEYWORD_ID_CAP, pageStatement, SearchTable } from '@/search/search-page';
import { parseSearchRequest } from '@/search/search-request';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

type Filter = { field: string; query?: string; type: string };
interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  pageNumber: number;
}

/** POST /demands/search and POST /bookings/search (docs/api.md): one engine, two catalogues. */
describe('demand and booking search', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let today: string;
  const bookings: BookingView[] = [];
  const demands: DemandView[] = [];
  let milestone: string;

  const search = async <T>(key: string, resource: string, filters: Filter[] = [], query = '') => {
    const res = await request(t.server)
      .post(`/${resource}/search?size=500${query}`)
      .set(as(key))
      .send(filters);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Page<T>;
  };
  const all = async <T>(resource: string) => (await search<T>(tenant.key, resource)).content;
  const ids = (items: Array<{ id: string }>) => items.map((i) => i.id).sort();

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    other = await t.createTenant();
    today = formatLocalDate(localDateInZone(new Date(), tenant.timezone));
    milestone = randomUUID();
    const people = ['Ananya Iyer', 'Rohan Mehta', 'Kavya Rao', 'Vikram Iyer'];
    for (const [i, buyerName] of people.entries()) {
      bookings.push(
        await createBooking(t, tenant.key, { buyerName, bookingDate: `2025-0${i + 4}-1${i}` }),
      );
    }
    const due = [
      '2026-01-15',
      '2026-03-31',
      '2099-12-31',
      '2026-02-01',
      '2099-01-01',
      '2025-12-10',
    ];
    for (const [i, dueDate] of due.entries()) {
      demands.push(
        await createDemand(t, tenant.key, {
          booking: bookings[i % 3].id,
          dueDate,
          demandDate: `2025-1${i % 3}-0${i + 1}`,
          splits: [split(1000 * (i + 1)), split(500, 'BANK')],
          ...(i === 4 ? { demandType: 'MILESTONE', milestone } : {}),
        }),
      );
    }
    // demands[0] partly paid, demands[1] paid in full, demands[5] cancelled; bookings[3] cancelled.
    await recordReceipt(t, tenant.key, { demandSplit: demands[0].splits[0].id, amount: 400 });
    await recordReceipt(t, tenant.key, { demandSplit: demands[1].splits[0].id, amount: 2000 });
    await recordReceipt(t, tenant.key, { demandSplit: demands[1].splits[1].id, amount: 500 });
    expect(
      (await post(t, tenant.key, `/demands/${demands[5].id}/cancel`, { reason: 'x' })).status,
    ).toBe(200);
    expect(
      (await post(t, tenant.key, `/bookings/${bookings[3].id}/cancel`, { reason: 'x' })).status,
    ).toBe(200);
    await createDemand(t, other.key, { dueDate: '2026-01-01' });
  });
  afterAll(() => t?.close());

  describe('POST /demands/search', () => {
    it('returns demands with their splits, by due date by default', async () => {
      const page = await search<DemandView>(tenant.key, 'demands');
      expect(page.totalElements).toBe(6);
      expect(page.content.map((d) => d.dueDate)).toEqual(
        [...page.content.map((d) => d.dueDate)].sort(),
      );
      const first = page.content.find((d) => d.id === demands[0].id);
      expect(first).toMatchObject({
        status: 'PARTIALLY_PAID',
        receivedAmount: { amount: 400 },
        pendingAmount: { amount: 1100 },
        splits: [{ paidAmount: { amount: 400 } }, { payerType: 'BANK' }],
      });
    });

    it('finds overdue demands: due before today and not paid or cancelled', async () => {
      const overdue = await search<DemandView>(tenant.key, 'demands', [
        { field: 'dueDate', query: today, type: 'LT' },
        { field: 'status', query: 'PENDING,PARTIALLY_PAID', type: 'IN' },
      ]);
      expect(ids(overdue.content)).toEqual(ids([demands[0], demands[3]]));
      expect(overdue.content.map((d) => d.dueDate)).toEqual(['2026-01-15', '2026-02-01']);
    });

    it.each<[string, Filter[], (d: DemandView) => boolean]>([
      [
        'uuid EQUALS booking',
        [{ field: 'booking', query: '{booking0}', type: 'EQUALS' }],
        (d) => d.booking === '{booking0}',
      ],
      [
        'uuid IS_NULL milestone',
        [{ field: 'milestone', type: 'IS_NULL' }],
        (d) => d.milestone === null,
      ],
      [
        'uuid NOT_EQUALS milestone (NULL included)',
        [{ field: 'milestone', query: '{milestone}', type: 'NE' }],
        (d) => d.milestone !== '{milestone}',
      ],
      [
        'text CONTAINS buyerName',
        [{ field: 'buyerName', query: 'IYER', type: 'CONTAINS' }],
        (d) => /iyer/i.test(d.buyerName),
      ],
      [
        'text STARTS_WITH demandNumber',
        [{ field: 'demandNumber', query: 'DMD/', type: 'STARTS_WITH' }],
        (d) => d.demandNumber.startsWith('DMD/'),
      ],
      [
        'enum IN status',
        [{ field: 'status', query: 'paid,cancelled', type: 'IN' }],
        (d) => ['PAID', 'CANCELLED'].includes(d.status),
      ],
      [
        'enum EQUALS demandType',
        [{ field: 'demandType', query: 'MILESTONE', type: 'EQUALS' }],
        (d) => d.demandType === 'MILESTONE',
      ],
      [
        'number GT totalAmount',
        [{ field: 'totalAmount', query: '3500', type: 'GT' }],
        (d) => d.totalAmount.amount > 3500,
      ],
      [
        'number BETWEEN pendingAmount',
        [{ field: 'pendingAmount', query: '1000,3500', type: 'BETWEEN' }],
        (d) => d.pendingAmount.amount >= 1000 && d.pendingAmount.amount <= 3500,
      ],
      [
        'number LTE receivedAmount',
        [{ field: 'receivedAmount', query: '0', type: 'LTE' }],
        (d) => d.receivedAmount.amount <= 0,
      ],
      [
        'date BETWEEN demandDate',
        [{ field: 'demandDate', query: '2025-10-01,2025-11-30', type: 'BETWEEN' }],
        (d) => d.demandDate >= '2025-10-01' && d.demandDate <= '2025-11-30',
      ],
      [
        'date GTE dueDate',
        [{ field: 'dueDate', query: '2099-01-01', type: 'GTE' }],
        (d) => d.dueDate >= '2099-01-01',
      ],
      [
        'keyword',
        [{ field: 'keyword', query: 'mehta', type: 'CONTAINS' }],
        (d) => /mehta/i.test(d.buyerName) || /mehta/i.test(d.demandNumber),
      ],
    ])('filters by %s exactly like the records say', async (_, rawFilters, predicate) => {
      const filters = rawFilters.map((f) => ({
        ...f,
        query: f.query?.replace('{booking0}', bookings[0].id).replace('{milestone}', milestone),
      }));
      const expected = (await all<DemandView>('demands')).filter((d) =>
        predicate({
          ...d,
          booking: d.booking === bookings[0].id ? '{booking0}' : d.booking,
          milestone: d.milestone === milestone ? '{milestone}' : d.milestone,
        }),
      );
      const found = await search<DemandView>(tenant.key, 'demands', filters);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(found.content)).toEqual(ids(expected));
      expect(found.totalElements).toBe(expected.length);
    });

    it.each([
      'dueDate',
      'demandDate',
      'demandNumber',
      'buyerName',
      'demandType',
      'status',
      'totalAmount',
      'receivedAmount',
      'pendingAmount',
    ])('sorts by %s both ways', async (field) => {
      const value = (d: DemandView): string | number => {
        const v = (d as unknown as Record<string, unknown>)[field];
        return typeof v === 'object' && v !== null
          ? (v as { amount: number }).amount
          : (v as string);
      };
      for (const direction of ['asc', 'desc']) {
        const page = await search<DemandView>(
          tenant.key,
          'demands',
          [],
          `&sort=${field},${direction}`,
        );
        const values = page.content.map(value);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(values).toEqual(direction === 'asc' ? sorted : sorted.reverse());
      }
    });

    it('pages with exact totals', async () => {
      const res = await request(t.server)
        .post('/demands/search?page=1&size=4')
        .set(as(tenant.key))
        .send([]);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        pageNumber: 1,
        pageSize: 4,
        totalElements: 6,
        totalPages: 2,
        from: 5,
        to: 6,
      });
      expect(res.body.content).toHaveLength(2);
      const past = await request(t.server)
        .post('/demands/search?page=9&size=4')
        .set(as(tenant.key))
        .send([]);
      expect(past.body).toMatchObject({ content: [], totalElements: 6, empty: true });
    });

    it('refuses bad input like receipt search, naming the field', async () => {
      for (const [query, body, code, named] of [
        ['?sort=booking,asc', [], 'SEARCH_INVALID_SORT', 'sort[0]'],
        ['?sort=keyword', [], 'SEARCH_INVALID_SORT', 'sort[0]'],
        [
          '',
          [{ field: 'paymentMode', query: 'NEFT', type: 'EQUALS' }],
          'SEARCH_UNKNOWN_FIELD',
          'filters[0].field',
        ],
        [
          '',
          [{ field: 'dueDate', query: '2026-02-30', type: 'EQUALS' }],
          'SEARCH_INVALID_QUERY',
          'filters[0].query',
        ],
        [
          '',
          [{ field: 'status', query: 'OPEN', type: 'EQUALS' }],
          'SEARCH_INVALID_QUERY',
          'filters[0].query',
        ],
        [
          '',
          [{ field: 'totalAmount', query: 'x', type: 'CONTAINS' }],
          'SEARCH_OPERATOR_NOT_ALLOWED',
          'filters[0].type',
        ],
        ['?size=501', [], 'SEARCH_INVALID_PAGING', 'size'],
      ] as Array<[string, Filter[], string, string]>) {
        const res = await request(t.server)
          .post(`/demands/search${query}`)
          .set(as(tenant.key))
          .send(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(code);
        expect(res.body.errors[0].field).toBe(named);
      }
    });

    it("never shows another tenant's demands", async () => {
      const theirs = await search<DemandView>(other.key, 'demands');
      expect(theirs.totalElements).toBe(1);
      expect(demands.map((d) => d.id)).not.toContain(theirs.content[0].id);
      const byMine = await search<DemandView>(other.key, 'demands', [
        { field: 'booking', query: bookings[0].id, type: 'EQUALS' },
      ]);
      expect(byMine.totalElements).toBe(0);
      const reader = await request(t.server)
        .post('/demands/search')
        .set(as(tenant.key, { scope: 'receipts:write' }))
        .send([]);
      expect(reader.status).toBe(403);
    });
  });

  describe('POST /bookings/search', () => {
    it('returns bookings newest first by default', async () => {
      const page = await search<BookingView>(tenant.key, 'bookings');
      expect(page.content.map((b) => b.id)).toEqual([...bookings].reverse().map((b) => b.id));
    });

    it.each<
      [string, (b: BookingView[]) => Filter[], (b: BookingView, all: BookingView[]) => boolean]
    >([
      [
        'unit',
        (bs) => [{ field: 'unit', query: bs[1].unit, type: 'EQUALS' }],
        (b, bs) => b.id === bs[1].id,
      ],
      [
        'buyerId',
        (bs) => [{ field: 'buyerId', query: bs[2].buyerId ?? '', type: 'EQUALS' }],
        (b, bs) => b.id === bs[2].id,
      ],
      [
        'bookingNumber',
        (bs) => [{ field: 'bookingNumber', query: bs[0].bookingNumber, type: 'EQUALS' }],
        (b, bs) => b.id === bs[0].id,
      ],
      [
        'buyerName',
        () => [{ field: 'buyerName', query: 'iyer', type: 'ENDS_WITH' }],
        (b) => b.buyerName.endsWith('Iyer'),
      ],
      [
        'status',
        () => [{ field: 'status', query: 'CANCELLED', type: 'EQUALS' }],
        (b, bs) => b.id === bs[3].id,
      ],
      [
        'bookingDate',
        () => [{ field: 'bookingDate', query: '2025-05-01', type: 'GT' }],
        (b) => b.bookingDate > '2025-05-01',
      ],
      [
        'keyword',
        () => [{ field: 'keyword', query: 'rao', type: 'CONTAINS' }],
        (b) => b.buyerName === 'Kavya Rao',
      ],
    ])('filters by %s', async (_, filters, predicate) => {
      const found = await search<BookingView>(tenant.key, 'bookings', filters(bookings));
      const expected = bookings.filter((b) => predicate(b, bookings));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(found.content)).toEqual(ids(expected));
    });

    it('sorts by every sortable field and refuses the UUIDs', async () => {
      const byName = await search<BookingView>(tenant.key, 'bookings', [], '&sort=buyerName,asc');
      expect(byName.content.map((b) => b.buyerName)).toEqual(
        [...bookings.map((b) => b.buyerName)].sort(),
      );
      for (const field of ['bookingNumber', 'status', 'bookingDate']) {
        expect(
          (
            await request(t.server)
              .post(`/bookings/search?sort=${field},desc`)
              .set(as(tenant.key))
              .send([])
          ).status,
        ).toBe(200);
      }
      const bad = await request(t.server)
        .post('/bookings/search?sort=unit')
        .set(as(tenant.key))
        .send([]);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].message).toContain(
        'allowed sort fields: bookingDate, bookingNumber, buyerName, status',
      );
    });

    it("never shows another tenant's bookings", async () => {
      const theirs = await search<BookingView>(other.key, 'bookings');
      expect(theirs.totalElements).toBe(1);
      const byId = await search<BookingView>(other.key, 'bookings', [
        { field: 'id', query: bookings[0].id, type: 'EQUALS' },
      ]);
      expect(byId.totalElements).toBe(0);
    });
  });
  describe('keyword through the trigram indexes', () => {
    const RESOURCES: Array<[string, string, SearchTable, SearchCatalogue, string]> = [
      ['demands', 'demand_number', DEMAND_TABLE, DEMAND_SEARCH, DEMAND_COLUMNS],
      ['bookings', 'booking_number', BOOKING_TABLE, BOOKING_SEARCH, BOOKING_COLUMNS],
    ];
    const KEYWORDS = ['iyer', 'IYER', 'Rohan Me', 'rao', 'a', '%', '_', 'zzzz', 'yer'];
    /** The other tenant's booking and demand of a buyer whose name the keywords also match. */
    const zubin = { booking: '', demand: '' };
    beforeAll(async () => {
      const booking = await createBooking(t, other.key, { buyerName: 'Zubin Iyer' });
      const demand = await createDemand(t, other.key, { booking: booking.id });
      Object.assign(zubin, { booking: booking.id, demand: demand.id });
    });

    /** Runs a page statement as the application login in a tenant transaction (RLS on). */
    const asApp = async (tenantId: string, text: string, params: unknown[]) => {
      const app = new Client({ connectionString: t.appUrl });
      await app.connect();
      try {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
        const { rows } = await app.query<Record<string, unknown>>(text, params);
        await app.query('ROLLBACK');
        return rows;
      } finally {
        await app.end();
      }
    };

    it.each(RESOURCES)(
      '%s: the same matches as the scan (ILIKE over the number and the buyer name)',
      async (resource, numberColumn, table, catalogue, columns) => {
        const owner = await ownerDataSource(t.ownerUrl);
        try {
          const numbers = await owner.query<{ n: string }[]>(
            `SELECT ${numberColumn} AS n FROM ${resource} WHERE tenant_id = $1 ORDER BY 1 LIMIT 1`,
            [tenant.id],
          );
          for (const keyword of [...KEYWORDS, numbers[0].n, numbers[0].n.slice(2, 9)]) {
            const filters = [{ field: 'keyword', query: keyword, type: 'CONTAINS' }];
            const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
            const expected = await owner.query<{ id: string }[]>(
              `SELECT id FROM ${resource} WHERE tenant_id = $1
                  AND (${numberColumn} ILIKE $2 OR buyer_name ILIKE $2)`,
              [tenant.id, pattern],
            );
            const found = await search<{ id: string }>(tenant.key, resource, filters);
            expect({ keyword, ids: ids(found.content) }).toEqual({
              keyword,
              ids: ids(expected),
            });
            expect(found.totalElements).toBe(expected.length);

            // The indexed branch and the scanning one (the cap forced to 0) give the same page
            // and total, sorted and paged.
            const parsed = parseSearchRequest(catalogue, { size: '1', page: '1' }, filters);
            const statement = pageStatement(table, parsed, tenant.id, columns);
            const capped = `cardinality(ids) <= ${KEYWORD_ID_CAP}`;
            const indexed = await asApp(tenant.id, statement.text, statement.params);
            const scanned = await asApp(
              tenant.id,
              statement.text.split(capped).join('cardinality(ids) <= -1'),
              statement.params,
            );
            expect(scanned).toEqual(indexed);
            if (/[A-Za-z0-9]{3}/.test(keyword)) expect(statement.text).toContain(capped);
          }
        } finally {
          await owner.destroy();
        }
      },
    );

    it.each(RESOURCES)(
      "%s: never another tenant's matches, whatever tenant the lookup is asked for",
      async (resource, _column, table) => {
        const mine = await search<{ id: string }>(tenant.key, resource, [
          { field: 'keyword', query: 'zubin', type: 'CONTAINS' },
        ]);
        expect(mine.totalElements).toBe(0);
        const theirsFound = await search<{ id: string }>(other.key, resource, [
          { field: 'keyword', query: 'zubin', type: 'CONTAINS' },
        ]);
        expect(ids(theirsFound.content)).toEqual(
          [resource === 'bookings' ? zubin.booking : zubin.demand].sort(),
        );
        const myIyers = await search<{ id: string }>(tenant.key, resource, [
          { field: 'keyword', query: 'iyer', type: 'CONTAINS' },
        ]);
        expect(myIyers.totalElements).toBeGreaterThan(0);
        const ourIds = ids(myIyers.content);
        const others = await search<{ id: string }>(other.key, resource, [
          { field: 'keyword', query: 'iyer', type: 'CONTAINS' },
        ]);
        for (const id of ids(others.content)) expect(ourIds).not.toContain(id);
        // The lookup itself, called by the application with another tenant than the
        // transaction's: nothing.
        const rows = await asApp(
          other.id,
          `SELECT count(*)::int AS n FROM ${table.keywordIds}($1::uuid, '%iyer%', 100)`,
          [tenant.id],
        );
        expect(rows).toEqual([{ n: 0 }]);
      },
    );
  });
});
