import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import request from 'supertest';
import { SUMMARY_GROUPS } from '@/receipts/summary/receipt-summary';
import { Tenant } from '@/http/tenancy/tenant.entity';
import {
  cancelReceipt,
  createDemand,
  recordReceipt,
  ReceiptView,
  searchReceipts,
  split,
} from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

type Filter = { field: string; query?: string; type: string };
interface Group {
  key: string;
  count: number;
  amount: { amount: number; currency: string; formatted: string };
}
interface Summary {
  count: number;
  amount: { amount: number; currency: string; formatted: string };
  groups: Group[];
}

/** POST /receipts/summary (docs/api.md) against search: same filters and receipts, to the paisa. */
describe('POST /receipts/summary', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;

  const summary = async (key: string, filters: Filter[] = [], groupBy?: string) => {
    const path =
      groupBy === undefined ? '/receipts/summary' : `/receipts/summary?groupBy=${groupBy}`;
    const res = await request(t.server).post(path).set(as(key)).send(filters);
    expect(res.status).toBe(200);
    return res.body as Summary;
  };
  const totalElements = async (key: string, filters: Filter[]) => {
    const res = await request(t.server).post('/receipts/search?size=1').set(as(key)).send(filters);
    expect(res.status).toBe(200);
    return res.body.totalElements as number;
  };
  const sum = (receipts: ReceiptView[]) =>
    receipts.reduce((s, r) => s.plus(String(r.amount.amount)), new Decimal(0));
  /** The key a receipt falls under for `groupBy`, computed from its search view. */
  const keyOf = (r: ReceiptView, groupBy: string): string => {
    switch (groupBy) {
      case 'paymentMode':
        return r.paymentMode;
      case 'status':
        return r.status;
      case 'payerType':
        return r.payerType;
      case 'demandType':
        return r.demandMeta.demandType;
      case 'receivedMonth':
        return r.receivedDate.slice(0, 7);
      case 'receivedDate':
        return r.receivedDate;
      default:
        throw new Error(`no key for ${groupBy}`);
    }
  };

  const FILTERS: Record<string, Filter[]> = {
    everything: [],
    active: [{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }],
    november: [{ field: 'receivedDate', query: '2026-11-01,2026-11-30', type: 'BETWEEN' }],
    modes: [{ field: 'paymentMode', query: 'NEFT,CHEQUE', type: 'IN' }],
    keyword: [{ field: 'keyword', query: 'iyer', type: 'CONTAINS' }],
    demandField: [{ field: 'demandMeta.demandType', query: 'MILESTONE', type: 'EQUALS' }],
    splitField: [{ field: 'demandSplitMeta.status', query: 'PARTIALLY_PAID', type: 'EQUALS' }],
    nothing: [{ field: 'amount', query: '999999999', type: 'GT' }],
  };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    other = await t.createTenant();
    const manual = await createDemand(t, tenant.key, {
      splits: [split(500000), split(300000.75, 'BANK')],
    });
    const milestone = await createDemand(t, tenant.key, {
      demandType: 'MILESTONE',
      milestone: randomUUID(),
    });
    const receipts: Array<[string, number, string, string]> = [
      [manual.splits[0].id, 1000.1, 'NEFT', '2026-10-31'],
      [manual.splits[0].id, 2500.25, 'CHEQUE', '2026-11-01'],
      [manual.splits[0].id, 99.99, 'UPI', '2026-11-15'],
      [manual.splits[1].id, 150000.5, 'NEFT', '2026-11-27'],
      [manual.splits[1].id, 0.01, 'CASH', '2025-12-01'],
      [milestone.splits[0].id, 12345.67, 'CHEQUE', '2026-11-20'],
      [milestone.splits[0].id, 7.5, 'NEFT', '2026-09-02'],
    ];
    const recorded: ReceiptView[] = [];
    for (const [demandSplit, amount, paymentMode, receivedDate] of receipts) {
      recorded.push(
        await recordReceipt(t, tenant.key, { demandSplit, amount, paymentMode, receivedDate }),
      );
    }
    await cancelReceipt(t, tenant.key, recorded[1].id);
    // The other tenant has receipts that every filter above would match.
    const theirs = await createDemand(t, other.key, {
      splits: [split(900000), split(90000, 'BANK')],
    });
    await recordReceipt(t, other.key, {
      demandSplit: theirs.splits[0].id,
      amount: 77777.77,
      receivedDate: '2026-11-10',
    });
    await recordReceipt(t, other.key, {
      demandSplit: theirs.splits[1].id,
      amount: 5,
      paymentMode: 'CHEQUE',
      receivedDate: '2026-10-05',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(Object.entries(FILTERS))(
    'totals equal the searched receipts to the paisa (%s), for every groupBy',
    async (_, filters) => {
      const found = await searchReceipts(t, tenant.key, filters);
      const plain = await summary(tenant.key, filters);
      expect(plain.count).toBe(found.length);
      expect(plain.count).toBe(await totalElements(tenant.key, filters));
      expect(new Decimal(String(plain.amount.amount)).equals(sum(found))).toBe(true);
      expect(plain.amount.currency).toBe(found[0]?.amount.currency ?? plain.amount.currency);
      expect(plain.groups).toEqual([]);

      for (const groupBy of SUMMARY_GROUPS) {
        const grouped = await summary(tenant.key, filters, groupBy);
        expect({ count: grouped.count, amount: grouped.amount }).toEqual({
          count: plain.count,
          amount: plain.amount,
        });
        const expected = new Map<string, ReceiptView[]>();
        for (const r of found) {
          const key = keyOf(r, groupBy);
          expected.set(key, [...(expected.get(key) ?? []), r]);
        }
        const keys = [...expected.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
        expect(grouped.groups.map((g) => g.key)).toEqual(keys);
        for (const g of grouped.groups) {
          const members = expected.get(g.key) ?? [];
          expect(g.count).toBe(members.length);
          expect(new Decimal(String(g.amount.amount)).equals(sum(members))).toBe(true);
        }
        const groupSum = grouped.groups.reduce(
          (s, g) => s.plus(String(g.amount.amount)),
          new Decimal(0),
        );
        expect(groupSum.equals(new Decimal(String(plain.amount.amount)))).toBe(true);
        expect(grouped.groups.reduce((n, g) => n + g.count, 0)).toBe(plain.count);
      }
    },
  );

  it('answers an empty match with zero totals and no groups', async () => {
    const empty = await summary(tenant.key, FILTERS.nothing, 'paymentMode');
    expect(empty.count).toBe(0);
    expect(empty.amount.amount).toBe(0);
    expect(empty.amount.formatted).toBe('0.00');
    expect(empty.groups).toEqual([]);
  });

  it('groups by month with YYYY-MM keys and exact amounts', async () => {
    const byMonth = await summary(tenant.key, FILTERS.active, 'receivedMonth');
    expect(byMonth.groups.map((g) => g.key)).toEqual(['2025-12', '2026-09', '2026-10', '2026-11']);
    const november = byMonth.groups.find((g) => g.key === '2026-11');
    // 99.99 + 150000.50 + 12345.67 (the cheque of 2500.25 was cancelled)
    expect(november).toMatchObject({ count: 3, amount: { amount: 162446.16 } });
  });

  it('keeps tenants apart: the same filters total each tenant on its own', async () => {
    const mine = await summary(tenant.key, FILTERS.november);
    const theirs = await summary(other.key, FILTERS.november);
    expect(theirs.count).toBe(1);
    expect(theirs.amount.amount).toBe(77777.77);
    expect(mine.count).toBe((await searchReceipts(t, tenant.key, FILTERS.november)).length);
    const byId = await summary(other.key, [
      { field: 'id', query: (await searchReceipts(t, tenant.key, []))[0].id, type: 'EQUALS' },
    ]);
    expect(byId.count).toBe(0);
  });

  /** The summary computed from the searched receipts (what a fresh total must equal). */
  const truth = async (key: string, filters: Filter[], groupBy?: string) => {
    const found = await searchReceipts(t, key, filters);
    const groups = new Map<string, ReceiptView[]>();
    for (const r of groupBy === undefined ? [] : found) {
      const k = keyOf(r, groupBy as string);
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    return {
      count: found.length,
      amount: sum(found).toFixed(2),
      groups: [...groups.keys()]
        .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
        .map((k) => ({
          key: k,
          count: groups.get(k)?.length,
          amount: sum(groups.get(k) ?? []).toFixed(2),
        })),
    };
  };
  const shape = (s: Summary) => ({
    count: s.count,
    amount: new Decimal(String(s.amount.amount)).toFixed(2),
    groups: s.groups.map((g) => ({
      key: g.key,
      count: g.count,
      amount: new Decimal(String(g.amount.amount)).toFixed(2),
    })),
  });
  const CACHED: Array<[string, string | undefined]> = [
    ['everything', undefined],
    ['everything', 'status'],
    ['active', 'paymentMode'],
    ['keyword', 'receivedDate'],
    ['splitField', 'demandType'],
    ['modes', 'receivedMonth'],
  ];

  it('keeps totals exact across writes: a write makes the next summary fresh', async () => {
    const fresh = async () => {
      for (const [name, groupBy] of CACHED) {
        const got = await summary(tenant.key, FILTERS[name], groupBy);
        expect({ name, groupBy, ...shape(got) }).toEqual({
          name,
          groupBy,
          ...(await truth(tenant.key, FILTERS[name], groupBy)),
        });
      }
    };
    await fresh(); // cold: every entry computed and cached
    await fresh(); // warm
    const demand = await createDemand(t, tenant.key, {
      splits: [split(700000), split(200000, 'BANK')],
    });
    // A receipt the filters match (NEFT, ACTIVE, a new month and day).
    const added = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[0].id,
      amount: 4321.09,
      paymentMode: 'NEFT',
      receivedDate: '2026-08-15',
    });
    await fresh();
    // A status change: the status groups and the ACTIVE filter, recounted.
    await cancelReceipt(t, tenant.key, added.id);
    await fresh();
    // A payment that changes a split's status (PARTIALLY_PAID -> PAID): the split filter.
    await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[1].id,
      amount: 200000,
      paymentMode: 'CHEQUE',
      receivedDate: '2026-08-16',
    });
    await fresh();
  });

  it('answers from the cache until a write, and never across tenants', async () => {
    const owner = await ownerDataSource(t.ownerUrl);
    try {
      const filters = FILTERS.everything;
      const before = await summary(tenant.key, filters, 'paymentMode');
      await summary(other.key, filters, 'paymentMode'); // the other tenant's entry, cached too
      // Behind the service's back (no write version moves; the application cannot do this):
      // a cached summary does not see it, which shows the answer came from the cache...
      const [{ id }] = await owner.query<{ id: string }[]>(
        `SELECT id FROM receipts WHERE tenant_id = $1 ORDER BY id LIMIT 1`,
        [tenant.id],
      );
      await owner.query(
        `UPDATE receipts SET amount = amount + 1 WHERE tenant_id = $1 AND id = $2`,
        [tenant.id, id],
      );
      expect(await summary(tenant.key, filters, 'paymentMode')).toEqual(before);
      // ...and a reset (as a bulk load or repair records) makes the next one fresh.
      const reset = `UPDATE receipt_search_versions
          SET version = version + 1, reset_version = version + 1 WHERE tenant_id = $1`;
      await owner.query(reset, [tenant.id]);
      const after = await summary(tenant.key, filters, 'paymentMode');
      expect(after.amount.amount).toBeCloseTo(before.amount.amount + 1, 2);
      expect(shape(after)).toEqual(await truth(tenant.key, filters, 'paymentMode'));
      await owner.query(
        `UPDATE receipts SET amount = amount - 1 WHERE tenant_id = $1 AND id = $2`,
        [tenant.id, id],
      );
      await owner.query(reset, [tenant.id]);

      // The other tenant, with its entry cached, still gets its own totals only.
      const theirs = await summary(other.key, filters, 'paymentMode');
      expect(shape(theirs)).toEqual(await truth(other.key, filters, 'paymentMode'));
      expect(theirs.count).toBe(2);
      expect(theirs.amount.amount).toBe(77782.77);
    } finally {
      await owner.destroy();
    }
  });

  it('refuses a bad groupBy, naming it and the allowed values', async () => {
    const res = await request(t.server)
      .post('/receipts/summary?groupBy=buyerName')
      .set(as(tenant.key))
      .send([]);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].field).toBe('groupBy');
    expect(res.body.errors[0].message).toContain('paymentMode, status, payerType');
  });

  it.each([
    [[{ field: 'receivedDate', query: '2026-13-01', type: 'EQUALS' }], 'receivedDate'],
    [[{ field: 'amount', query: 'ten', type: 'GT' }], 'amount'],
    [[{ field: 'nope', query: 'x', type: 'EQUALS' }], 'field'],
  ])('refuses a bad filter like search does (%j)', async (filters, named) => {
    const res = await request(t.server).post('/receipts/summary').set(as(tenant.key)).send(filters);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(named);
  });

  it('refuses paging parameters and needs receipts:read', async () => {
    const paged = await request(t.server)
      .post('/receipts/summary?page=1')
      .set(as(tenant.key))
      .send([]);
    expect(paged.status).toBe(400);
    expect(paged.body.code).toBe('UNKNOWN_PARAMETER');
    expect((await request(t.server).post('/receipts/summary').send([])).status).toBe(401);
    const writer = await request(t.server)
      .post('/receipts/summary')
      .set(as(tenant.key, { scope: 'receipts:write' }))
      .send([]);
    expect(writer.status).toBe(403);
  });
});
