import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { paymentStatus } from '@/receipts/payment-status';
import { DEMO_INTEREST_POLICY } from '@/seed/demo-interest';
import { seedDemoTenants } from '@/seed/demo-seed';
import { bookingBody, createBooking } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';
import { withDatabase } from './support/database-url';
import { Client } from 'pg';

/** The set-based demo seed: data as the API would have left it, searchable, numbers continuing. */
describe('demo seed', () => {
  let t: TestApp;
  let db: DataSource;
  const key = `demo-${randomBytes(4).toString('hex')}`;
  const other = `demo-${randomBytes(4).toString('hex')}`;
  let tenantId: string;
  let seeded: Record<string, number>;
  let seedSeconds: number;
  /** Exactly this many receipts in each tenant (several chunks of the planner). */
  const RECEIPTS = 20_000;
  const today = formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata'));

  beforeAll(async () => {
    t = await createTestApp();
    db = await ownerDataSource(t.ownerUrl);
    const started = Date.now();
    seeded = await seedDemoTenants(
      t.app,
      [
        { key, name: 'Skyline Developers Pvt Ltd', seed: 42 },
        { key: other, name: 'Harbourview Homes LLP', seed: 7 },
      ],
      RECEIPTS,
    );
    seedSeconds = (Date.now() - started) / 1000;
    [{ id: tenantId }] = await db.query<{ id: string }[]>(`SELECT id FROM tenants WHERE key = $1`, [
      key,
    ]);
  }, 180_000);
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  it('writes exactly the receipts asked for, in each tenant, in reasonable time', async () => {
    expect(seeded).toEqual({ [key]: RECEIPTS, [other]: RECEIPTS });
    const rows = await db.query<{ key: string; n: number }[]>(
      `SELECT t.key, count(r.*)::int AS n FROM tenants t JOIN receipts r ON r.tenant_id = t.id
        WHERE t.key IN ($1, $2) GROUP BY t.key ORDER BY t.key`,
      [key, other],
    );
    expect(rows).toEqual([key, other].sort().map((k) => ({ key: k, n: RECEIPTS })));
    // 40,000 receipts: about 5 s on a quiet 2-core machine (this cluster runs without fsync);
    // generous for a busy one.
    expect(seedSeconds).toBeLessThan(120);
  });

  it('is searchable through the API, each tenant seeing only its own receipts', async () => {
    const all = await request(t.server).post('/receipts/search?size=500').set(as(key)).send([]);
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(seeded[key]);
    const mine = new Set(all.body.content.map((r: { id: string }) => r.id));
    const theirs = await request(t.server)
      .post('/receipts/search?size=500')
      .set(as(other))
      .send([]);
    expect(theirs.body.totalElements).toBe(seeded[other]);
    expect(theirs.body.content.some((r: { id: string }) => mine.has(r.id))).toBe(false);

    // Joined fields and text search work on seeded rows (buyer names, demand numbers).
    const buyer = all.body.content[0].demandMeta.buyerName as string;
    const byBuyer = await request(t.server)
      .post('/receipts/search')
      .set(as(key))
      .send([{ field: 'buyerName', query: buyer.split(' ')[1].toLowerCase(), type: 'CONTAINS' }]);
    expect(byBuyer.status).toBe(200);
    expect(byBuyer.body.totalElements).toBeGreaterThan(0);
    const cancelled = await request(t.server)
      .post('/receipts/search')
      .set(as(key))
      .send([{ field: 'status', query: 'CANCELLED', type: 'EQUALS' }]);
    expect(cancelled.body.totalElements).toBeGreaterThan(0);
    // The finance desk on first start: bounced cheques, a withdrawn booking, overdue demands.
    const bounced = await request(t.server)
      .post('/receipts/search')
      .set(as(key))
      .send([{ field: 'status', query: 'BOUNCED', type: 'EQUALS' }]);
    expect(bounced.body.totalElements).toBeGreaterThan(0);
    expect(bounced.body.content[0].statusReason).toBe('Insufficient funds');
    const withdrawn = await request(t.server)
      .post('/bookings/search')
      .set(as(key))
      .send([{ field: 'status', query: 'CANCELLED', type: 'EQUALS' }]);
    expect(withdrawn.body.totalElements).toBe(1);
    const overdue = await request(t.server)
      .post('/demands/search')
      .set(as(key))
      .send([
        { field: 'dueDate', query: today, type: 'LT' },
        { field: 'status', query: 'PENDING,PARTIALLY_PAID', type: 'IN' },
      ]);
    expect(overdue.body.totalElements).toBeGreaterThan(0);
    const receipt = await request(t.server)
      .get(`/receipts/${all.body.content[0].id as string}`)
      .set(as(key));
    expect(receipt.status).toBe(200);
  });

  it('keeps amounts and statuses consistent: no split overpaid, statuses as the API computes', async () => {
    const splits = await db.query<
      { amount: string; paid_amount: string; status: string; active: string }[]
    >(
      `SELECT s.amount, s.paid_amount, s.status,
              coalesce((SELECT sum(r.amount) FROM receipts r WHERE r.tenant_id = s.tenant_id
                          AND r.demand_split_id = s.id AND r.status = 'ACTIVE'), 0)::text AS active
         FROM demand_splits s WHERE s.tenant_id = $1`,
      [tenantId],
    );
    expect(splits.length).toBeGreaterThan(0);
    for (const s of splits) {
      expect(Number(s.paid_amount)).toBe(Number(s.active));
      if (s.status !== 'CANCELLED') expect(s.status).toBe(paymentStatus(s.amount, s.paid_amount));
    }
    const demands = await db.query<
      {
        total_amount: string;
        received_amount: string;
        status: string;
        parts: string;
        paid: string;
      }[]
    >(
      `SELECT d.total_amount, d.received_amount, d.status,
              (SELECT sum(amount) FROM demand_splits s WHERE s.tenant_id = d.tenant_id AND s.demand_id = d.id)::text AS parts,
              (SELECT sum(paid_amount) FROM demand_splits s WHERE s.tenant_id = d.tenant_id AND s.demand_id = d.id)::text AS paid
         FROM demands d WHERE d.tenant_id = $1`,
      [tenantId],
    );
    for (const d of demands) {
      expect(Number(d.parts)).toBe(Number(d.total_amount));
      expect(Number(d.paid)).toBe(Number(d.received_amount));
      if (d.status !== 'CANCELLED') {
        expect(d.status).toBe(paymentStatus(d.total_amount, d.received_amount));
      }
    }
    const statuses = new Set(demands.map((d) => d.status));
    expect(statuses).toEqual(new Set(['PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED']));
    // Entered during the business day they are dated, a status change after the entry.
    const [{ odd }] = await db.query<{ odd: number }[]>(
      `SELECT count(*)::int AS odd FROM receipts WHERE tenant_id = $1
          AND ((created_at AT TIME ZONE 'Asia/Kolkata')::date <> received_date
               OR status_changed_at <= created_at OR modified_at < created_at)`,
      [tenantId],
    );
    expect(odd).toBe(0);
  });

  it('numbers every series gap-free per financial year and leaves each counter at its next value', async () => {
    const series = await db.query<
      { type: string; key: string; n: number; first: number; last: number; next: number | null }[]
    >(
      `SELECT i.document_type AS type, s.key, count(*)::int AS n,
              min(s.seq)::int AS first, max(s.seq)::int AS last,
              (SELECT c.next_value::int FROM number_counters c
                WHERE c.tenant_id = i.tenant_id AND c.document_type = i.document_type
                  AND c.counter_key = s.key || '{SEQ}') AS next
         FROM issued_numbers i,
              LATERAL (SELECT regexp_replace(i.number, '\\d+$', '') AS key,
                              substring(i.number from '(\\d+)$')::bigint AS seq) s
        WHERE i.tenant_id = $1
        GROUP BY i.tenant_id, i.document_type, s.key ORDER BY 1, 2`,
      [tenantId],
    );
    // Receipts, demands, splits and bookings of FY 25-26 and 26-27 (or whichever years today's
    // 18 months span): each 1..n with the counter at n + 1.
    expect(series.length).toBeGreaterThanOrEqual(8);
    for (const s of series) expect(s).toEqual({ ...s, first: 1, last: s.n, next: s.n + 1 });
    expect(series.filter((s) => s.type === 'receipt').reduce((a, s) => a + s.n, 0)).toBe(RECEIPTS);

    // The search version counts every receipt write (and the demo statement's matching, which
    // realises receipts); each receipt carries the one that made it.
    const [v] = await db.query<
      { version: number; reset: number; top: number; writes: number; matching: number }[]
    >(
      `SELECT v.version::int, v.reset_version::int AS reset,
              (SELECT max(inserted_version)::int FROM receipts WHERE tenant_id = $1) AS top,
              (SELECT (count(*) FILTER (WHERE realised_on IS NOT NULL) > 0)::int
                 FROM receipts WHERE tenant_id = $1) AS matching,
              (SELECT count(*) + count(*) FILTER (WHERE status <> 'ACTIVE') + 1
                      + (count(*) FILTER (WHERE realised_on IS NOT NULL) > 0)::int
                 FROM receipts WHERE tenant_id = $1)::int AS writes
         FROM receipt_search_versions v WHERE v.tenant_id = $1`,
      [tenantId],
    );
    expect(v.version).toBe(v.writes);
    // The bulk load's reset is the last write but the statement's matching, which follows it.
    expect(v.matching).toBe(1);
    expect(v.reset).toBe(v.version - v.matching);
    expect(v.top).toBeLessThanOrEqual(v.version);
  });

  it('gives the first tenant (demo) an interest policy whose rate changes and one interest demand', async () => {
    const policy = await request(t.server).get('/tenant/interest-policy').set(as(key));
    expect(policy.body).toMatchObject({ enabled: true, rates: DEMO_INTEREST_POLICY.rates });
    const theirs = await request(t.server).get('/tenant/interest-policy').set(as(other));
    expect(theirs.body.enabled).toBe(false);

    const interest = await request(t.server)
      .post('/demands/search')
      .set(as(key))
      .send([{ field: 'demandType', query: 'INTEREST', type: 'EQUALS' }]);
    expect(interest.body.totalElements).toBe(1);
    const [demand] = interest.body.content as {
      booking: string;
      interestThrough: string;
      demandDate: string;
      totalAmount: { amount: number };
      remarks: string;
    }[];
    // Through the end of last month, raised today.
    const firstOfMonth = `${today.slice(0, 8)}01`;
    expect(demand.demandDate).toBe(today);
    expect(demand.interestThrough < firstOfMonth).toBe(true);
    expect(demand.remarks).toMatch(/^Interest on late payment, \d{4}-\d{2}-\d{2} to /);
    expect(demand.totalAmount.amount).toBeGreaterThan(0);

    // Late payments on that booking bear interest at the policy's rates.
    const view = await request(t.server).get(`/bookings/${demand.booking}/interest`).set(as(key));
    expect(view.status).toBe(200);
    expect(view.body.totals.demanded.amount).toBe(demand.totalAmount.amount);
    expect(view.body.totals.accrued.amount).toBeGreaterThanOrEqual(demand.totalAmount.amount);
    const rates = new Set(
      (view.body.splits as { periods: { annualRatePercent: number }[] }[]).flatMap((s) =>
        s.periods.map((p) => p.annualRatePercent),
      ),
    );
    expect(rates.size).toBeGreaterThan(0);
    for (const rate of rates) expect([10.85, 10.65]).toContain(rate);
  });

  it("shows interest, TDS and a bounced cheque on the interest booking's statement (docs/statement.md)", async () => {
    const interest = await request(t.server)
      .post('/demands/search')
      .set(as(key))
      .send([{ field: 'demandType', query: 'INTEREST', type: 'EQUALS' }]);
    const booking = (interest.body.content as { booking: string }[])[0].booking;
    const res = await request(t.server).get(`/bookings/${booking}/statement`).set(as(key));
    expect(res.status).toBe(200);
    const entries = res.body.entries as {
      kind: string;
      particulars: string;
      ref: { id: string };
    }[];
    expect(entries.some((e) => e.particulars.startsWith('Interest on late payment'))).toBe(true);
    expect(entries.some((e) => e.particulars.startsWith('TDS deducted u/s 194-IA, 26QB'))).toBe(
      true,
    );
    expect(
      entries.some((e) => e.kind === 'RECEIPT_REVERSED' && /bounced: /.test(e.particulars)),
    ).toBe(true);
    expect(res.body.totals.interestAccrued.amount).toBeGreaterThan(0);
    expect(res.body.totals.interestDemanded.amount).toBeGreaterThan(0);
    expect(res.body.closingBalance).toEqual(res.body.totals.outstanding);
  });

  it('records every number as issued and API-issued numbers continue each series without a gap', async () => {
    const [counts] = await db.query<{ docs: string; issued: string }[]>(
      `SELECT (SELECT count(*) FROM bookings WHERE tenant_id = $1)
            + (SELECT count(*) FROM demands WHERE tenant_id = $1)
            + (SELECT count(*) FROM demand_splits WHERE tenant_id = $1)
            + (SELECT count(*) FROM receipts WHERE tenant_id = $1) AS docs,
              (SELECT count(*) FROM issued_numbers WHERE tenant_id = $1) AS issued`,
      [tenantId],
    );
    expect(counts.issued).toBe(counts.docs);

    const seqOf = (n: string) => Number(/(\d+)$/.exec(n)?.[1]);

    const [open] = await db.query<{ id: string; pending: string }[]>(
      `SELECT s.id, (s.amount - s.paid_amount)::text AS pending FROM demand_splits s
        WHERE s.tenant_id = $1 AND s.status IN ('PENDING', 'PARTIALLY_PAID')
        ORDER BY s.created_at DESC LIMIT 1`,
      [tenantId],
    );
    const recorded = await request(t.server)
      .post('/receipts')
      .set(as(key))
      .send({
        demandSplit: open.id,
        amount: Number(open.pending),
        paymentMode: 'NEFT',
        transactionRef: 'UTR000000000001',
        receivedDate: today,
      });
    expect(recorded.status).toBe(201);
    expect(recorded.body.demandSplitMeta.status).toBe('PAID');
    // The seeded series of today's financial year is 1..n with no gap; the API issues n + 1.
    const series = (recorded.body.receiptNumber as string).replace(/\d+$/, '');
    const numbers = (
      await db.query<{ receipt_number: string }[]>(
        `SELECT receipt_number FROM receipts WHERE tenant_id = $1 AND receipt_number LIKE $2`,
        [tenantId, `${series}%`],
      )
    )
      .map((r) => seqOf(r.receipt_number))
      .sort((a, b) => a - b);
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(seqOf(recorded.body.receiptNumber)).toBe(numbers.length);

    const booking = await createBooking(t, key, bookingBody({ bookingDate: today }));
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM bookings WHERE tenant_id = $1 AND booking_number LIKE $2`,
      [tenantId, `${booking.bookingNumber.replace(/\d+$/, '')}%`],
    );
    expect(seqOf(booking.bookingNumber)).toBe(n);
  });

  it("has a bank account with last month's HDFC statement imported, its credits the month's receipts", async () => {
    const accounts = await request(t.server).get('/bank-accounts').set(as(key));
    expect(accounts.status).toBe(200);
    expect(accounts.body.accounts).toEqual([
      expect.objectContaining({
        name: 'HDFC RERA collections account',
        accountNumber: expect.stringMatching(/^X{10}\d{4}$/),
        ifsc: 'HDFC0001234',
        currency: 'INR',
      }),
    ]);
    const account = accounts.body.accounts[0].id as string;
    const [statement] = await db.query<
      {
        format: string;
        layout: string;
        balance_check: string;
        imported: number;
        from_date: string;
        to_date: string;
        matched_auto: number;
      }[]
    >(
      `SELECT format, layout, balance_check, imported, from_date, to_date, matched_auto FROM bank_statements
        WHERE tenant_id = $1 AND bank_account_id = $2`,
      [tenantId, account],
    );
    const now = new Date(`${today}T00:00:00Z`);
    const firstOfLastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const lastMonth = firstOfLastMonth.toISOString().slice(0, 7);
    expect(statement).toMatchObject({ format: 'csv', layout: 'hdfc', balance_check: 'OK' });
    expect(statement.from_date.slice(0, 7)).toBe(lastMonth);
    expect(statement.to_date.slice(0, 7)).toBe(lastMonth);
    const [{ receipts }] = await db.query<{ receipts: number }[]>(
      `SELECT count(*)::int AS receipts FROM receipts
        WHERE tenant_id = $1 AND to_char(received_date, 'YYYY-MM') = $2
          AND status IN ('ACTIVE', 'BOUNCED') AND payment_mode NOT IN ('CASH', 'TDS')`,
      [tenantId, lastMonth],
    );
    expect(receipts).toBeGreaterThan(10);
    const [{ deposits }] = await db.query<{ deposits: number }[]>(
      `SELECT count(DISTINCT (received_date, payment_mode,
                CASE WHEN payment_mode IN ('NEFT', 'RTGS', 'IMPS') THEN transaction_ref
                     ELSE id::text END))::int AS deposits
         FROM receipts
        WHERE tenant_id = $1 AND to_char(received_date, 'YYYY-MM') = $2
          AND status = 'ACTIVE' AND payment_mode NOT IN ('CASH', 'TDS')`,
      [tenantId, lastMonth],
    );
    const lineStates = await db.query<
      { direction: string; status: string; rule: string | null; n: number }[]
    >(
      `SELECT l.direction, l.status,
              CASE WHEN l.status = 'SUGGESTED' THEN l.suggestions -> 0 ->> 'rule'
                   ELSE l.match_rule END AS rule,
              count(*)::int AS n
         FROM bank_lines l
        WHERE l.tenant_id = $1 AND l.bank_account_id = $2
        GROUP BY 1, 2, 3`,
      [tenantId, account],
    );
    const count = (direction: string, status: string, rule?: string | null) =>
      lineStates
        .filter(
          (s) =>
            s.direction === direction &&
            s.status === status &&
            (rule === undefined || s.rule === rule),
        )
        .reduce((n, s) => n + s.n, 0);
    const credits = lineStates.filter((s) => s.direction === 'CREDIT').reduce((n, s) => n + s.n, 0);
    // One credit per deposit (a transfer for several dues is one), and three no receipt explains.
    expect(credits).toBe(deposits + 3);
    expect(statement.imported).toBeGreaterThan(credits);
    // Mostly matched on import by reference, transfers for several dues as GROUP ...
    expect(count('CREDIT', 'MATCHED')).toBeGreaterThan(deposits * 0.8);
    expect(statement.matched_auto).toBe(count('CREDIT', 'MATCHED'));
    expect(count('CREDIT', 'MATCHED', 'REFERENCE')).toBeGreaterThan(deposits * 0.7);
    expect(count('CREDIT', 'MATCHED', 'GROUP')).toBeGreaterThan(0);
    // ... the credits that lost their reference suggested by amount and date ...
    expect(count('CREDIT', 'SUGGESTED', 'AMOUNT_DATE')).toBeGreaterThan(deposits * 0.05);
    // ... the unknown ones left for the desk, and one returned cheque suggested as its RETURN.
    expect(count('CREDIT', 'UNMATCHED')).toBeGreaterThanOrEqual(3);
    expect(count('CREDIT', 'UNMATCHED')).toBeLessThan(deposits * 0.05 + 3);
    expect(count('DEBIT', 'SUGGESTED', 'RETURN')).toBe(1);

    // The whole flow: the desk bounces the returned cheque against that line.
    const [ret] = await db.query<{ id: string; receipt: string; on: string }[]>(
      `SELECT id, to_char(value_date, 'YYYY-MM-DD') AS on,
              suggestions -> 0 -> 'receipts' ->> 0 AS receipt FROM bank_lines
        WHERE tenant_id = $1 AND bank_account_id = $2 AND direction = 'DEBIT' AND status = 'SUGGESTED'`,
      [tenantId, account],
    );
    const before = await request(t.server).get(`/receipts/${ret.receipt}`).set(as(key));
    expect(before.body).toMatchObject({ status: 'ACTIVE', paymentMode: 'CHEQUE' });
    expect(before.body.realisedOn).not.toBeNull();
    const bounced = await request(t.server)
      .post(`/receipts/${ret.receipt}/bounce`)
      .set(as(key))
      .send({
        reason: 'Returned: funds insufficient',
        bouncedOn: ret.on,
        charges: 590,
        bankLine: ret.id,
      });
    expect(bounced.status).toBe(200);
    expect(bounced.body.status).toBe('BOUNCED');
    const line = await request(t.server).get(`/bank-lines/${ret.id}`).set(as(key));
    expect(line.body).toMatchObject({ status: 'MATCHED' });
    const lines = await request(t.server)
      .get(`/bank-accounts/${account}/lines?limit=50`)
      .set(as(key));
    expect(lines.status).toBe(200);
    expect((lines.body.lines as { status: string }[]).map((l) => l.status)).toContain('MATCHED');
    // The other demo tenant's account is not this tenant's.
    const mine = await request(t.server).get(`/bank-accounts/${account}`).set(as(other));
    expect(mine.status).toBe(404);
  });

  it('gives letters a collection account, agreement values, a held booking and reminders due today', async () => {
    const accounts = (await request(t.server).get('/bank-accounts').set(as(key))).body.accounts;
    expect(accounts.map((a: { collection: boolean }) => a.collection)).toEqual([true]);
    const [{ valued, bookings }] = await db.query<{ valued: number; bookings: number }[]>(
      `SELECT count(agreement_value)::int AS valued, count(*)::int AS bookings
         FROM bookings WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(valued).toBeGreaterThan(bookings / 2);
    const holds = await db.query<{ booking_id: string }[]>(
      `SELECT booking_id FROM collection_holds
        WHERE tenant_id = $1 AND ended_at IS NULL AND from_date = $2::date`,
      [tenantId, today],
    );
    expect(holds).toHaveLength(1);
    const due = await request(t.server).get('/reminders/due?size=500').set(as(key));
    expect(due.status).toBe(200);
    expect(due.body.totalElements).toBeGreaterThan(0);
    const first = due.body.content[0] as { demand: string; payerId: string };
    const letter = await request(t.server)
      .get(`/demands/${first.demand}/letter?format=json&payerId=${first.payerId}`)
      .set(as(key));
    expect(letter.status).toBe(200);
    expect(letter.body.payTo.accountNumber).toMatch(/^5020\d{10}$/);
    const run = await request(t.server).post('/reminders/run').set(as(key)).send({});
    expect(run.status).toBe(200);
    expect(run.body.sent).toBe(due.body.totalElements);
    expect(run.body.skippedHeld).toBeGreaterThanOrEqual(1);
  });
});

/**
 * On a database with no bookings, demands or receipts yet, the seed builds their indexes and
 * foreign keys after its rows (migration SeedDeferredIndexes); with rows there it keeps them.
 */
describe('demo seed on a fresh database', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const appServerUrl =
    process.env.TEST_DATABASE_DIRECT_APP_URL ?? process.env.TEST_DATABASE_APP_URL;
  const database = `finance_seed_${randomBytes(4).toString('hex')}`;
  let admin: Client;
  let owner: Client;
  let app: Client;
  let t: TestApp | undefined;

  /** Every index and constraint of the seeded tables: name, definition and object id. */
  const schema = async () =>
    (
      await owner.query<{ name: string; definition: string; oid: number }>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, c.oid::int AS oid
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid IN ('bookings'::regclass, 'demands'::regclass,
                               'demand_splits'::regclass, 'receipts'::regclass)
         UNION ALL
         SELECT k.conname, pg_get_constraintdef(k.oid), k.oid::int FROM pg_constraint k
          WHERE k.conrelid IN ('bookings'::regclass, 'demands'::regclass,
                               'demand_splits'::regclass, 'receipts'::regclass)
         ORDER BY 1, 2`,
      )
    ).rows;
  /** seed_defer_indexes() as the application role, rolled back: how many it would drop. */
  const wouldDefer = async () => {
    await app.query('BEGIN');
    try {
      return (await app.query<{ n: number }>('SELECT seed_defer_indexes() AS n')).rows[0].n;
    } finally {
      await app.query('ROLLBACK');
    }
  };

  beforeAll(async () => {
    if (!serverUrl || !appServerUrl) throw new Error('TEST_DATABASE_URL not set (global setup)');
    admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const ownerUrl = withDatabase(serverUrl, database);
    const appUrl = withDatabase(appServerUrl, database);
    t = await createTestApp({}, { ownerUrl, appUrl });
    owner = new Client({ connectionString: ownerUrl });
    await owner.connect();
    app = new Client({ connectionString: appUrl });
    await app.connect();
  }, 60_000);
  afterAll(async () => {
    await app?.end();
    await owner?.end();
    await t?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
  });

  it('drops nothing it cannot commit: a transaction that defers and does not restore fails', async () => {
    const before = await schema();
    await app.query('BEGIN');
    const { rows } = await app.query<{ n: number }>('SELECT seed_defer_indexes() AS n');
    expect(rows[0].n).toBeGreaterThan(10);
    await expect(app.query('COMMIT')).rejects.toThrow(/without seed_restore_indexes/);
    expect(await schema()).toEqual(before);
  });

  it('builds the indexes and foreign keys after the rows: the same definitions, built anew', async () => {
    const before = await schema();
    expect(await wouldDefer()).toBeGreaterThan(10);
    const seeded = await seedDemoTenants(
      t!.app,
      [
        { key: 'demo', name: 'Skyline Developers Pvt Ltd', seed: 42 },
        { key: 'demo-b', name: 'Harbourview Homes LLP', seed: 7 },
      ],
      2_000,
      undefined,
      { deferIndexes: true },
    );
    expect(seeded).toEqual({ demo: 2_000, 'demo-b': 2_000 });
    const after = await schema();
    const shape = (rows: { name: string; definition: string }[]) =>
      rows.map(({ name, definition }) => ({ name, definition }));
    expect(shape(after)).toEqual(shape(before));
    // Built again (new objects): the trigram indexes and the foreign keys among them.
    const rebuilt = after.filter((a) => before.find((b) => b.name === a.name)?.oid !== a.oid);
    expect(rebuilt.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'receipts_text_trgm_idx',
        'demands_text_trgm_idx',
        'receipts_tenant_id_demand_split_id_fkey',
      ]),
    );
    const { rows } = await owner.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM seed_deferred_indexes',
    );
    expect(rows[0].n).toBe(0);
    // Rows of tenants there now: nothing is deferred any more.
    expect(await wouldDefer()).toBe(0);
  });
});
