import { randomUUID } from 'node:crypto';
import request from 'supertest';
import Decimal from 'decimal.js';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import {
  createBooking,
  createDemand,
  DemandView,
  get,
  post,
  recordReceipt,
  cancelReceipt,
  split,
} from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface Money {
  amount: number;
  currency: string;
  currencySymbol: string;
  formatted: string;
}
interface Ageing {
  asOf: string;
  buckets: string[];
  total: { outstanding: Money; byBucket: Record<string, Money> };
  groups: { key: string; label: string; outstanding: Money; byBucket: Record<string, Money> }[];
  totalGroups: number;
}

/** GET /receivables/ageing (docs/receivables.md): what is owed on asOf, by days past due. */
describe('GET /receivables/ageing', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const newTenant = async () => (await t.createTenant()).key;

  const ageing = async (tenant: string, query = ''): Promise<Ageing> => {
    const res = await get(t, tenant, `/receivables/ageing${query ? `?${query}` : ''}`);
    if (res.status !== 200)
      throw new Error(`ageing ${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Ageing;
  };
  /** The amounts of byBucket, label to number. */
  const amounts = (byBucket: Record<string, Money>) =>
    Object.fromEntries(Object.entries(byBucket).map(([k, v]) => [k, v.amount]));

  const today = () => formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata'));
  const addDays = (date: string, days: number) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };

  /** A demand dated `demandDate` due `dueDate` with one BUYER split of `amount`. */
  const demand = (
    tenant: string,
    amount: number,
    dueDate: string,
    more: { demandDate?: string; booking?: string; payerType?: string } = {},
  ): Promise<DemandView> =>
    createDemand(t, tenant, {
      dueDate,
      demandDate: more.demandDate ?? '2026-01-01',
      ...(more.booking ? { booking: more.booking } : {}),
      splits: [split(amount, more.payerType ?? 'BUYER')],
    });

  it('puts each split in the bucket of its days past due on asOf, every label present', async () => {
    const tenant = await newTenant();
    await demand(tenant, 100, '2026-07-15'); // due after asOf: NOT_DUE
    await demand(tenant, 200, '2026-06-30'); // due on asOf: NOT_DUE
    await demand(tenant, 300, '2026-06-29'); // 1 day
    await demand(tenant, 400, '2026-05-31'); // 30 days
    await demand(tenant, 500, '2026-05-30'); // 31 days
    await demand(tenant, 600, '2026-04-01'); // 90 days
    await demand(tenant, 700.55, '2026-03-31'); // 91 days

    const body = await ageing(tenant, 'asOf=2026-06-30');
    expect(body.asOf).toBe('2026-06-30');
    expect(body.buckets).toEqual(['NOT_DUE', '1-30', '31-60', '61-90', '91+']);
    expect(amounts(body.total.byBucket)).toEqual({
      NOT_DUE: 300,
      '1-30': 700,
      '31-60': 500,
      '61-90': 600,
      '91+': 700.55,
    });
    expect(body.total.outstanding).toEqual({
      amount: 2800.55,
      currency: 'INR',
      currencySymbol: '₹',
      formatted: '2,800.55',
    });
    expect(body.groups).toEqual([]);
    expect(body.totalGroups).toBe(0);
  });

  it('subtracts partial payments received on or before asOf', async () => {
    const tenant = await newTenant();
    const d = await demand(tenant, 1000, '2026-05-31');
    await recordReceipt(t, tenant, {
      demandSplit: d.splits[0].id,
      amount: 250.25,
      receivedDate: '2026-06-01',
    });
    const body = await ageing(tenant, 'asOf=2026-06-30');
    expect(body.total.outstanding.amount).toBe(749.75);
    expect(amounts(body.total.byBucket)['1-30']).toBe(749.75);
  });

  it('a cancelled split owes nothing from its cancel date; before it, it still owes', async () => {
    const tenant = await newTenant();
    const kept = await demand(tenant, 300, '2026-03-31');
    const cancelled = await demand(tenant, 5000, '2026-03-31');
    const res = await post(t, tenant, `/demands/${cancelled.id}/cancel`, { reason: 'Wrong unit' });
    expect(res.status).toBe(200);

    const now = today();
    expect((await ageing(tenant, `asOf=${now}`)).total.outstanding.amount).toBe(300);
    expect((await ageing(tenant)).total.outstanding.amount).toBe(300);
    // the day before the cancel it still owed
    const before = await ageing(tenant, `asOf=${addDays(now, -1)}`);
    expect(before.total.outstanding.amount).toBe(5300);
    expect(kept.splits[0].amount.amount).toBe(300);
  });

  it('asOf in the past ignores demands and receipts dated after it', async () => {
    const tenant = await newTenant();
    const first = await demand(tenant, 1000, '2026-03-31', { demandDate: '2026-03-01' });
    await demand(tenant, 500, '2026-05-31', { demandDate: '2026-05-01' });
    await recordReceipt(t, tenant, {
      demandSplit: first.splits[0].id,
      amount: 300,
      receivedDate: '2026-04-20',
    });
    expect((await ageing(tenant, 'asOf=2026-02-28')).total.outstanding.amount).toBe(0);
    expect((await ageing(tenant, 'asOf=2026-04-19')).total.outstanding.amount).toBe(1000);
    expect((await ageing(tenant, 'asOf=2026-04-20')).total.outstanding.amount).toBe(700);
    expect((await ageing(tenant, 'asOf=2026-04-30')).total.outstanding.amount).toBe(700);
    const may = await ageing(tenant, 'asOf=2026-05-01');
    expect(may.total.outstanding.amount).toBe(1200);
    expect(amounts(may.total.byBucket)).toEqual({
      NOT_DUE: 500,
      '1-30': 0,
      '31-60': 700,
      '61-90': 0,
      '91+': 0,
    });
  });

  it('a receipt cancelled or bounced after asOf still counts as paid on asOf', async () => {
    const tenant = await newTenant();
    const d = await demand(tenant, 1000, '2026-03-31');
    const cancelled = await recordReceipt(t, tenant, {
      demandSplit: d.splits[0].id,
      amount: 400,
      receivedDate: '2026-02-01',
    });
    await cancelReceipt(t, tenant, cancelled.id);
    const bounced = await recordReceipt(t, tenant, {
      demandSplit: d.splits[0].id,
      amount: 100,
      paymentMode: 'CHEQUE',
      receivedDate: '2026-02-05',
    });
    const bounce = await post(t, tenant, `/receipts/${bounced.id}/bounce`, {
      reason: 'Insufficient funds',
      bouncedOn: '2026-02-15',
    });
    expect(bounce.status).toBe(200);

    // cancelled today, bounced on 2026-02-15: both had paid on 2026-02-14
    expect((await ageing(tenant, 'asOf=2026-02-14')).total.outstanding.amount).toBe(500);
    // on its bounce date the cheque no longer pays; the cancel (today) is still ahead
    expect((await ageing(tenant, 'asOf=2026-02-15')).total.outstanding.amount).toBe(600);
    expect((await ageing(tenant, `asOf=${today()}`)).total.outstanding.amount).toBe(1000);
  });

  it('labels custom buckets NOT_DUE, 1-15, 16-45, 46+ and fills them', async () => {
    const tenant = await newTenant();
    await demand(tenant, 10, '2026-06-15'); // 15 days
    await demand(tenant, 20, '2026-06-14'); // 16 days
    await demand(tenant, 40, '2026-05-16'); // 45 days
    await demand(tenant, 80, '2026-05-15'); // 46 days
    const body = await ageing(tenant, 'asOf=2026-06-30&buckets=15,45&groupBy=payerType');
    expect(body.buckets).toEqual(['NOT_DUE', '1-15', '16-45', '46+']);
    expect(amounts(body.total.byBucket)).toEqual({
      NOT_DUE: 0,
      '1-15': 10,
      '16-45': 60,
      '46+': 80,
    });
    expect(body.groups).toHaveLength(1);
    expect(Object.keys(body.groups[0].byBucket)).toEqual(body.buckets);
  });

  describe('groups', () => {
    let tenant: string;
    const bookings: { id: string; bookingNumber: string; buyerName: string }[] = [];

    beforeAll(async () => {
      tenant = await newTenant();
      for (const buyerName of ['Asha Rao', 'Vikram Shah', 'Meera Nair']) {
        bookings.push(await createBooking(t, tenant, { buyerName }));
      }
      // booking 0: 600 (BUYER 100 MANUAL + BANK 500 MILESTONE); 1: 900 (CO_BUYER); 2: 300 (BUYER)
      await demand(tenant, 100, '2026-06-20', { booking: bookings[0].id });
      await createDemand(t, tenant, {
        booking: bookings[0].id,
        demandType: 'MILESTONE',
        milestone: randomUUID(),
        dueDate: '2026-04-01',
        demandDate: '2026-01-01',
        splits: [split(500, 'BANK')],
      });
      await demand(tenant, 900, '2026-07-31', { booking: bookings[1].id, payerType: 'CO_BUYER' });
      await demand(tenant, 300, '2026-05-01', { booking: bookings[2].id });
      // a booking whose only split is paid in full has nothing outstanding and is no group
      const paid = await createBooking(t, tenant);
      const d = await demand(tenant, 50, '2026-05-01', { booking: paid.id });
      await recordReceipt(t, tenant, {
        demandSplit: d.splits[0].id,
        amount: 50,
        receivedDate: '2026-02-01',
      });
    });

    it('groupBy=booking: largest first, labelled by number and buyer, paged', async () => {
      const first = await ageing(tenant, 'asOf=2026-06-30&groupBy=booking&page=0&size=2');
      expect(first.totalGroups).toBe(3);
      expect(first.groups.map((g) => [g.key, g.label, g.outstanding.amount])).toEqual([
        [bookings[1].id, `${bookings[1].bookingNumber} — Vikram Shah`, 900],
        [bookings[0].id, `${bookings[0].bookingNumber} — Asha Rao`, 600],
      ]);
      expect(amounts(first.groups[1].byBucket)).toEqual({
        NOT_DUE: 0,
        '1-30': 100,
        '31-60': 0,
        '61-90': 500,
        '91+': 0,
      });
      const second = await ageing(tenant, 'asOf=2026-06-30&groupBy=booking&page=1&size=2');
      expect(second.totalGroups).toBe(3);
      expect(second.groups.map((g) => [g.key, g.outstanding.amount])).toEqual([
        [bookings[2].id, 300],
      ]);
      const past = await ageing(tenant, 'asOf=2026-06-30&groupBy=booking&page=2&size=2');
      expect(past.groups).toEqual([]);
      expect(past.totalGroups).toBe(3);
      expect(past.total.outstanding.amount).toBe(1800);
    });

    it('groupBy=payerType and demandType: keys are the enum values', async () => {
      const payer = await ageing(tenant, 'asOf=2026-06-30&groupBy=payerType&size=2');
      expect(payer.totalGroups).toBe(3);
      expect(payer.groups.map((g) => [g.key, g.label, g.outstanding.amount])).toEqual([
        ['CO_BUYER', 'CO_BUYER', 900],
        ['BANK', 'BANK', 500],
      ]);
      const rest = await ageing(tenant, 'asOf=2026-06-30&groupBy=payerType&page=1&size=2');
      expect(rest.groups.map((g) => [g.key, g.outstanding.amount])).toEqual([['BUYER', 400]]);

      const type = await ageing(tenant, 'asOf=2026-06-30&groupBy=demandType');
      expect(type.totalGroups).toBe(2);
      expect(type.groups.map((g) => [g.key, g.outstanding.amount])).toEqual([
        ['MANUAL', 1300],
        ['MILESTONE', 500],
      ]);
      const none = await ageing(tenant, 'asOf=2026-06-30&groupBy=none');
      expect(none.groups).toEqual([]);
      expect(none.totalGroups).toBe(0);
      expect(none.total.outstanding.amount).toBe(1800);
    });

    it('ties in outstanding are ordered by key', async () => {
      const tied = await newTenant();
      await demand(tied, 100, '2026-06-01', { payerType: 'OTHER' });
      await demand(tied, 100, '2026-06-01', { payerType: 'BANK' });
      const body = await ageing(tied, 'asOf=2026-06-30&groupBy=payerType');
      expect(body.groups.map((g) => g.key)).toEqual(['BANK', 'OTHER']);
    });
  });

  it("total.outstanding today equals demand search's pendingAmount over non-cancelled demands", async () => {
    const tenant = await newTenant();
    const a = await demand(tenant, 1000.1, '2026-03-31');
    const b = await demand(tenant, 2500, '2026-12-31', { demandDate: '2026-02-01' });
    const c = await demand(tenant, 700, '2026-01-31');
    await recordReceipt(t, tenant, {
      demandSplit: a.splits[0].id,
      amount: 333.33,
      receivedDate: '2026-04-01',
    });
    const gone = await recordReceipt(t, tenant, {
      demandSplit: b.splits[0].id,
      amount: 500,
      receivedDate: '2026-02-10',
    });
    await cancelReceipt(t, tenant, gone.id);
    await recordReceipt(t, tenant, {
      demandSplit: b.splits[0].id,
      amount: 1200,
      receivedDate: '2026-03-10',
    });
    expect((await post(t, tenant, `/demands/${c.id}/cancel`, { reason: 'Duplicate' })).status).toBe(
      200,
    );

    const search = await post(t, tenant, '/demands/search?size=500', []);
    expect(search.status).toBe(200);
    const pending = (search.body.content as { status: string; pendingAmount: Money }[])
      .filter((d) => d.status !== 'CANCELLED')
      .reduce((sum, d) => sum.plus(String(d.pendingAmount.amount)), new Decimal(0));
    expect(pending.toNumber()).toBe(1000.1 - 333.33 + 2500 - 1200);
    const body = await ageing(tenant);
    expect(body.asOf).toBe(today());
    expect(new Decimal(String(body.total.outstanding.amount)).equals(pending)).toBe(true);
  });

  it.each([
    ['asOf', 'asOf=2026-02-30'],
    ['asOf', 'asOf=yesterday'],
    ['buckets', 'buckets=60,30'],
    ['buckets', 'buckets=0,30'],
    ['buckets', 'buckets=30,30'],
    ['buckets', 'buckets=1,2,3,4,5,6,7,8,9'],
    ['buckets', 'buckets=30,abc'],
    ['buckets', 'buckets='],
    ['groupBy', 'groupBy=buyer'],
    ['page', 'page=-1'],
    ['size', 'size=0'],
    ['size', 'size=501'],
  ])('400 VALIDATION_FAILED naming %s (%s)', async (field, query) => {
    const tenant = await newTenant();
    const res = await get(t, tenant, `/receivables/ageing?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it("never counts another tenant's demands", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await demand(a, 100, '2026-05-01');
    const theirs = await demand(b, 99999, '2026-05-01');
    const mine = await ageing(a, 'asOf=2026-06-30&groupBy=booking');
    expect(mine.total.outstanding.amount).toBe(100);
    expect(mine.groups.map((g) => g.key)).not.toContain(theirs.booking);
    const other = await ageing(b, 'asOf=2026-06-30&groupBy=booking');
    expect(other.total.outstanding.amount).toBe(99999);
    expect(other.groups.map((g) => g.key)).toEqual([theirs.booking]);
  });

  it('needs receipts:read (403 without it, 401 without a token)', async () => {
    const tenant = await newTenant();
    const denied = await request(t.server)
      .get('/receivables/ageing')
      .set(as(tenant, { scope: 'receipts:write' }));
    expect(denied.status).toBe(403);
    const allowed = await request(t.server)
      .get('/receivables/ageing')
      .set(as(tenant, { scope: 'receipts:read' }));
    expect(allowed.status).toBe(200);
    expect((await request(t.server).get('/receivables/ageing')).status).toBe(401);
  });
});
