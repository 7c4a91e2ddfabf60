import { randomUUID } from 'node:crypto';
import request from 'supertest';
import Decimal from 'decimal.js';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import {
  cancelReceipt,
  createBooking,
  createDemand,
  DemandView,
  get,
  post,
  recordReceipt,
  split,
} from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface Money {
  amount: number;
  formatted: string;
}
interface Period {
  from: string;
  to: string;
  days: number;
  unpaid: Money;
  annualRatePercent: number;
  interest: Money;
}
interface Waiver {
  id: string;
  booking: string;
  payerId: string;
  amount: Money;
  reason: string;
  waivedOn: string;
  waivedBy: string;
}
interface Interest {
  booking: { id: string; bookingNumber: string; unit: string; buyerName: string };
  asOf: string;
  enabled: boolean;
  splits: {
    demandSplit: string;
    demand: string;
    demandNumber: string;
    payerType: string;
    payerId: string;
    dueDate: string;
    periods: Period[];
    accrued: Money;
  }[];
  payers: { payerId: string; accrued: Money; demanded: Money; waived: Money; due: Money }[];
  waivers: Waiver[];
  totals: { accrued: Money; demanded: Money; waived: Money; due: Money };
}
interface Policy {
  enabled: boolean;
  graceDays: number;
  rates: { effectiveFrom: string; annualRatePercent: number }[];
  demandTypes: string[];
  payerTypes: string[];
}

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
/** amount x days x rate / 100 / 365, rounded half-up to paisa, as a number. */
const simple = (amount: number, days: number, rate: number) =>
  new Decimal(amount).times(days).times(rate).div(36500).toDecimalPlaces(2).toNumber();

/** Interest on late payment (docs/interest.md): the policy, the rule, demands and waivers. */
describe('interest on late payment', () => {
  let t: TestApp;
  let other: string;
  const today = formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata'));

  beforeAll(async () => {
    t = await createTestApp();
    other = (await t.createTenant()).key;
  });
  afterAll(() => t?.close());

  const newTenant = async () => (await t.createTenant()).key;

  const policy = (overrides: Partial<Policy> = {}): Policy => ({
    enabled: true,
    graceDays: 0,
    rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: 11.1 }],
    demandTypes: ['MILESTONE', 'MANUAL'],
    payerTypes: ['BUYER', 'CO_BUYER'],
    ...overrides,
  });
  const putPolicy = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    request(t.server)
      .put('/tenant/interest-policy')
      .set(as(key, { preferredUsername: 'arjun.mehta' }))
      .set(headers)
      .send(body as object);
  const setPolicy = async (key: string, body: Policy) => {
    const res = await putPolicy(key, body);
    if (res.status !== 200)
      throw new Error(`PUT policy: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const interest = async (key: string, booking: string, asOf?: string): Promise<Interest> => {
    const res = await get(t, key, `/bookings/${booking}/interest${asOf ? `?asOf=${asOf}` : ''}`);
    if (res.status !== 200) throw new Error(`interest: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Interest;
  };
  const raise = (key: string, booking: string, asOf: string, idempotencyKey?: string) =>
    post(
      t,
      key,
      `/bookings/${booking}/interest-demands`,
      { asOf, dueDate: addDays(today, 15) },
      { idempotencyKey },
    );
  const waive = (key: string, booking: string, payerId: string, amount: number) =>
    post(t, key, `/bookings/${booking}/interest-waivers`, { payerId, amount, reason: 'Goodwill' });
  const events = async (key: string, type: string) => {
    const res = await get(t, key, `/events?after=0&limit=500&type=${type}`);
    return res.body.events as { type: string; actor: string; data: Record<string, unknown> }[];
  };

  /** One split of `amount` for `payer`, due `dueDate`, on `booking` (or a new one). */
  const due = async (
    key: string,
    amount: number,
    dueDate: string,
    more: {
      booking?: string;
      payerType?: string;
      payerId?: string;
      demandType?: string;
      demandDate?: string;
    } = {},
  ): Promise<DemandView> =>
    createDemand(t, key, {
      ...(more.booking ? { booking: more.booking } : {}),
      demandType: more.demandType ?? 'MANUAL',
      ...(more.demandType === 'MILESTONE' ? { milestone: randomUUID() } : {}),
      dueDate,
      demandDate: more.demandDate ?? addDays(dueDate, -30),
      splits: [split(amount, more.payerType ?? 'BUYER', more.payerId ?? randomUUID())],
    });
  const pay = (
    key: string,
    splitId: string,
    amount: number,
    receivedDate: string,
    paymentMode = 'NEFT',
  ) => recordReceipt(t, key, { demandSplit: splitId, amount, receivedDate, paymentMode });

  /** The worked example: 10,00,000 due 2026-01-01, 6,00,000 paid 2026-01-31, 4,00,000 2026-03-02. */
  const workedExample = async (key: string) => {
    const demand = await due(key, 1_000_000, '2026-01-01', { demandType: 'MILESTONE' });
    await pay(key, demand.splits[0].id, 600_000, '2026-01-31');
    await pay(key, demand.splits[0].id, 400_000, '2026-03-02');
    return demand;
  };

  describe('the policy: GET / PUT /tenant/interest-policy and its history', () => {
    it('starts disabled with no rates; PUT stores it with an ETag; the history keeps who and when', async () => {
      const key = await newTenant();
      const first = await get(t, key, '/tenant/interest-policy');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        enabled: false,
        graceDays: 0,
        rates: [],
        demandTypes: ['MILESTONE', 'MANUAL'],
        payerTypes: ['BUYER', 'CO_BUYER'],
      });
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      expect((await get(t, key, '/tenant/interest-policy/history')).body).toEqual([]);

      const body = policy({
        graceDays: 7,
        rates: [
          { effectiveFrom: '2025-11-01', annualRatePercent: 10.65 },
          { effectiveFrom: '2025-04-01', annualRatePercent: 10.8525 },
        ],
      });
      const put = await putPolicy(key, body, { 'If-Match': first.headers.etag });
      expect(put.status).toBe(200);
      // Rates are kept oldest first.
      expect(put.body).toEqual({ ...body, rates: [body.rates[1], body.rates[0]] });
      expect(put.headers.etag).not.toBe(first.headers.etag);
      const again = await get(t, key, '/tenant/interest-policy');
      expect(again.body).toEqual(put.body);
      expect(again.headers.etag).toBe(put.headers.etag);

      // The stale ETag is 412; the same content again stores nothing.
      const stale = await putPolicy(key, policy(), { 'If-Match': first.headers.etag });
      expect(stale.status).toBe(412);
      expect(stale.body.code).toBe('INTEREST_POLICY_CHANGED');
      expect((await putPolicy(key, body, { 'If-Match': put.headers.etag })).status).toBe(200);
      const off = await putPolicy(key, policy({ enabled: false, rates: [] }), { 'If-Match': '*' });
      expect(off.status).toBe(200);

      const history = (await get(t, key, '/tenant/interest-policy/history')).body as {
        version: number;
        changedAt: string;
        changedBy: string;
        policy: Policy;
      }[];
      expect(history.map((v) => [v.version, v.changedBy, v.policy.enabled])).toEqual([
        [2, 'arjun.mehta', false],
        [1, 'arjun.mehta', true],
      ]);
      expect(history[1].policy).toEqual(put.body);
      expect(history[0].changedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

      // interest-policy.updated, data: the policy, once per change.
      const updates = await events(key, 'interest-policy.updated');
      expect(updates.map((e) => [e.actor, e.data])).toEqual([
        ['arjun.mehta', put.body],
        ['arjun.mehta', off.body],
      ]);
      // Another tenant's policy is its own.
      expect((await get(t, other, '/tenant/interest-policy')).body.enabled).toBe(false);
      expect((await get(t, other, '/tenant/interest-policy/history')).body).toEqual([]);
    });

    it.each([
      ['enabled without rates', { rates: [] }, 'rates'],
      [
        'two rates with one effectiveFrom',
        {
          rates: [
            { effectiveFrom: '2025-04-01', annualRatePercent: 10 },
            { effectiveFrom: '2025-04-01', annualRatePercent: 11 },
          ],
        },
        'rates',
      ],
      ['INTEREST in demandTypes', { demandTypes: ['MANUAL', 'INTEREST'] }, 'demandTypes'],
      ['graceDays above 90', { graceDays: 91 }, 'graceDays'],
      ['graceDays not whole', { graceDays: 1.5 }, 'graceDays'],
      [
        'a rate above 36',
        { rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: 36.0001 }] },
        'rates.0.annualRatePercent',
      ],
      [
        'a rate below 0',
        { rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: -1 }] },
        'rates.0.annualRatePercent',
      ],
      [
        'a rate with 5 decimals',
        { rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: 10.12345 }] },
        'rates.0.annualRatePercent',
      ],
      [
        'a bad effectiveFrom',
        { rates: [{ effectiveFrom: '2025-02-30', annualRatePercent: 10 }] },
        'rates.0.effectiveFrom',
      ],
      ['an unknown payer type', { payerTypes: ['BUYER', 'TENANT'] }, 'payerTypes'],
      ['a repeated payer type', { payerTypes: ['BUYER', 'BUYER'] }, 'payerTypes'],
      ['an unknown field', { compounding: true }, 'compounding'],
      ['a missing field', { enabled: undefined }, 'enabled'],
    ])('400 VALIDATION_FAILED for %s', async (_, change, field) => {
      const key = await newTenant();
      const res = await putPolicy(key, { ...policy(), ...change });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await get(t, key, '/tenant/interest-policy/history')).body).toEqual([]);
    });

    it('needs tenant-config:read to read and tenant-config:write to change', async () => {
      const key = await newTenant();
      const reader = as(key, { scope: 'receipts:read receipts:write' });
      expect((await request(t.server).get('/tenant/interest-policy').set(reader)).status).toBe(403);
      expect(
        (await request(t.server).get('/tenant/interest-policy/history').set(reader)).status,
      ).toBe(403);
      const put = await request(t.server)
        .put('/tenant/interest-policy')
        .set(as(key, { scope: 'tenant-config:read' }))
        .send(policy());
      expect(put.status).toBe(403);
      expect(put.body.code).toBe('INSUFFICIENT_SCOPE');
    });
  });

  describe('GET /bookings/{id}/interest', () => {
    it('the worked example: 12,772.60; with 9 % from 2026-02-01 too: 12,082.19 (retroactive)', async () => {
      const key = await newTenant();
      await setPolicy(key, policy());
      const demand = await workedExample(key);
      const body = await interest(key, demand.booking, '2026-06-30');
      const payer = demand.splits[0].payerId;
      expect(body.booking.id).toBe(demand.booking);
      expect(body.asOf).toBe('2026-06-30');
      expect(body.enabled).toBe(true);
      expect(body.splits).toHaveLength(1);
      expect(body.splits[0]).toMatchObject({
        demandSplit: demand.splits[0].id,
        demand: demand.id,
        demandNumber: demand.demandNumber,
        payerType: 'BUYER',
        payerId: payer,
        dueDate: '2026-01-01',
      });
      expect(
        body.splits[0].periods.map((p) => [
          p.from,
          p.to,
          p.days,
          p.unpaid.amount,
          p.annualRatePercent,
          p.interest.amount,
        ]),
      ).toEqual([
        ['2026-01-02', '2026-01-31', 30, 1_000_000, 11.1, 9123.29],
        ['2026-02-01', '2026-03-02', 30, 400_000, 11.1, 3649.32],
      ]);
      expect(body.splits[0].accrued).toMatchObject({ amount: 12772.6, formatted: '12,772.60' });
      expect(body.payers).toEqual([
        {
          payerId: payer,
          accrued: body.splits[0].accrued,
          demanded: expect.objectContaining({ amount: 0 }),
          waived: expect.objectContaining({ amount: 0 }),
          due: body.splits[0].accrued,
        },
      ]);
      expect(body.totals.accrued.amount).toBe(12772.6);
      expect(body.totals.due.amount).toBe(12772.6);

      await setPolicy(
        key,
        policy({
          rates: [
            { effectiveFrom: '2025-04-01', annualRatePercent: 11.1 },
            { effectiveFrom: '2026-02-01', annualRatePercent: 9 },
          ],
        }),
      );
      const changed = await interest(key, demand.booking, '2026-06-30');
      expect(
        changed.splits[0].periods.map((p) => [
          p.from,
          p.to,
          p.annualRatePercent,
          p.interest.amount,
        ]),
      ).toEqual([
        ['2026-01-02', '2026-01-31', 11.1, 9123.29],
        ['2026-02-01', '2026-03-02', 9, 2958.9],
      ]);
      expect(changed.totals.accrued.amount).toBe(12082.19);
    });

    it('works on business dates: later receipts have not paid, later demands do not exist yet', async () => {
      const key = await newTenant();
      await setPolicy(key, policy());
      const demand = await workedExample(key);
      await due(key, 5000, '2026-03-01', { booking: demand.booking, demandDate: '2026-02-20' });
      const feb = await interest(key, demand.booking, '2026-02-15');
      expect(feb.splits).toHaveLength(1);
      expect(feb.splits[0].periods.map((p) => [p.from, p.to, p.unpaid.amount])).toEqual([
        ['2026-01-02', '2026-01-31', 1_000_000],
        ['2026-02-01', '2026-02-15', 400_000],
      ]);
      expect(feb.totals.accrued.amount).toBe(new Decimal(9123.29).plus(1824.66).toNumber());
      // The day after dueDate + graceDays is the first charged; with a grace of 10 days...
      await setPolicy(key, policy({ graceDays: 10 }));
      const grace = await interest(key, demand.booking, '2026-03-01');
      expect(grace.splits.map((s) => s.periods[0]?.from)).toEqual(['2026-01-12', undefined]);
      expect(grace.splits[1].accrued.amount).toBe(0);
    });

    it("covers only the policy's demand and payer types; interest never bears interest; cancelled demands bear none", async () => {
      const key = await newTenant();
      await setPolicy(key, policy({ demandTypes: ['MILESTONE'], payerTypes: ['BUYER'] }));
      const booking = (await createBooking(t, key)).id;
      const buyer = randomUUID();
      const covered = await due(key, 36500, '2026-01-01', {
        booking,
        payerId: buyer,
        demandType: 'MILESTONE',
      });
      await due(key, 36500, '2026-01-01', { booking, payerId: buyer, demandType: 'MANUAL' });
      await due(key, 36500, '2026-01-01', { booking, payerType: 'BANK', demandType: 'MILESTONE' });
      await due(key, 36500, '2026-01-01', {
        booking,
        payerType: 'CO_BUYER',
        demandType: 'MILESTONE',
      });
      const body = await interest(key, booking, '2026-01-11');
      expect(body.splits.map((s) => s.demandSplit)).toEqual([covered.splits[0].id]);
      // 36,500 x 10 days x 11.10 % / 365
      expect(body.totals.accrued.amount).toBe(111);

      // An interest demand, unpaid and late, bears nothing.
      expect((await raise(key, booking, '2026-01-11')).status).toBe(201);
      await setPolicy(key, policy({ demandTypes: ['MILESTONE', 'MANUAL'], payerTypes: ['BUYER'] }));
      const later = await interest(key, booking, addDays(today, 30));
      expect(later.splits.map((s) => s.payerType + ' ' + s.dueDate)).toEqual([
        'BUYER 2026-01-01',
        'BUYER 2026-01-01',
      ]);

      // A demand cancelled today bears none from today; the day before it still did.
      const cancelled = await due(key, 1000, '2026-01-01', { booking, payerId: buyer });
      expect(
        (await post(t, key, `/demands/${cancelled.id}/cancel`, { reason: 'Re-issued' })).status,
      ).toBe(200);
      const ids = async (asOf: string) =>
        (await interest(key, booking, asOf)).splits.map((s) => s.demandSplit);
      expect(await ids(today)).not.toContain(cancelled.splits[0].id);
      expect(await ids(addDays(today, -1))).toContain(cancelled.splits[0].id);
    });

    it("a receipt's cancel or bounce charges interest from the original due date at any later asOf", async () => {
      const key = await newTenant();
      await setPolicy(
        key,
        policy({ rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 12 }] }),
      );
      // Cancelled today: before today it paid (10 days late); from today on it never did.
      const cancelled = await due(key, 100_000, '2026-01-01');
      const receipt = await pay(key, cancelled.splits[0].id, 100_000, '2026-01-11');
      const paid = simple(100_000, 10, 12);
      expect((await interest(key, cancelled.booking, '2026-06-30')).totals.accrued.amount).toBe(
        paid,
      );
      await cancelReceipt(t, key, receipt.id, 'Entered against the wrong unit');
      expect(
        (await interest(key, cancelled.booking, addDays(today, -1))).totals.accrued.amount,
      ).toBe(paid);
      for (const asOf of [today, addDays(today, 45)]) {
        const body = await interest(key, cancelled.booking, asOf);
        expect(body.splits[0].periods.map((p) => [p.from, p.to, p.unpaid.amount])).toEqual([
          ['2026-01-02', asOf, 100_000],
        ]);
        expect(body.totals.accrued.amount).toBe(
          simple(100_000, daysBetween('2026-01-01', asOf), 12),
        );
      }

      // A cheque received 2026-01-11, bounced on 2026-02-10.
      const bounced = await due(key, 100_000, '2026-01-01');
      const cheque = await pay(key, bounced.splits[0].id, 100_000, '2026-01-11', 'CHEQUE');
      const res = await post(t, key, `/receipts/${cheque.id}/bounce`, {
        reason: 'Insufficient funds',
        bouncedOn: '2026-02-10',
      });
      expect(res.status).toBe(200);
      expect((await interest(key, bounced.booking, '2026-02-09')).totals.accrued.amount).toBe(paid);
      for (const asOf of ['2026-02-10', '2026-06-30', today]) {
        const body = await interest(key, bounced.booking, asOf);
        expect(body.splits[0].periods[0]).toMatchObject({ from: '2026-01-02', to: asOf });
        expect(body.totals.accrued.amount).toBe(
          simple(100_000, daysBetween('2026-01-01', asOf), 12),
        );
      }
    });

    it("400 for a bad asOf, 404 for an unknown or another tenant's booking, 403 without receipts:read", async () => {
      const key = await newTenant();
      const demand = await due(key, 100, '2026-01-01');
      for (const asOf of ['2026-02-30', '30-01-2026', '']) {
        const res = await get(t, key, `/bookings/${demand.booking}/interest?asOf=${asOf}`);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([{ field: 'asOf', message: expect.any(String) }]);
      }
      expect(
        (await get(t, key, `/bookings/${demand.booking}/interest?from=2026-01-01`)).status,
      ).toBe(400);
      expect((await get(t, other, `/bookings/${demand.booking}/interest`)).status).toBe(404);
      expect((await get(t, key, `/bookings/${randomUUID()}/interest`)).body.code).toBe(
        'BOOKING_NOT_FOUND',
      );
      const res = await request(t.server)
        .get(`/bookings/${demand.booking}/interest`)
        .set(as(key, { scope: 'tenant-config:read' }));
      expect(res.status).toBe(403);
      // Disabled (the default): nothing accrues.
      const body = await interest(key, demand.booking, today);
      expect(body.enabled).toBe(false);
      expect(body.splits).toEqual([]);
      expect(body.totals.accrued.amount).toBe(0);
    });
  });

  describe('POST /bookings/{id}/interest-demands', () => {
    it('raises one INTEREST demand per payer due, through asOf, never billing the same days twice', async () => {
      const key = await newTenant();
      await setPolicy(
        key,
        policy({ rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 12 }] }),
      );
      const booking = (await createBooking(t, key)).id;
      const buyer = randomUUID();
      const coBuyer = randomUUID();
      const milestone = await createDemand(t, key, {
        booking,
        demandType: 'MANUAL',
        dueDate: '2026-01-01',
        demandDate: '2025-12-01',
        splits: [
          split(100_000, 'BUYER', buyer),
          split(50_000, 'CO_BUYER', coBuyer),
          split(10_000, 'BANK'),
        ],
      });
      expect(milestone.interestThrough).toBeNull();

      const march = await raise(key, booking, '2026-03-31', 'interest-1');
      expect(march.status).toBe(201);
      const first = march.body as DemandView;
      // 89 days: 2026-01-02 .. 2026-03-31
      expect(first).toMatchObject({
        booking,
        demandType: 'INTEREST',
        milestone: null,
        interestThrough: '2026-03-31',
        demandDate: today,
        dueDate: addDays(today, 15),
        status: 'PENDING',
        remarks: 'Interest on late payment, 2026-01-02 to 2026-03-31',
      });
      expect(first.splits.map((s) => [s.payerType, s.payerId, s.amount.amount])).toEqual([
        ['BUYER', buyer, simple(100_000, 89, 12)],
        ['CO_BUYER', coBuyer, simple(50_000, 89, 12)],
      ]);
      expect(first.totalAmount.amount).toBe(
        new Decimal(simple(100_000, 89, 12)).plus(simple(50_000, 89, 12)).toNumber(),
      );
      expect(first.demandNumber).toMatch(/^DMD\//);
      // The same key and body: the same demand, nothing new.
      const replay = await raise(key, booking, '2026-03-31', 'interest-1');
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first);
      expect((await get(t, key, `/demands/${first.id}`)).body).toEqual(first);

      // At today, the demand counts; the days it billed are never billed again.
      const now = await interest(key, booking);
      expect(now.payers.find((p) => p.payerId === buyer)?.demanded.amount).toBe(
        simple(100_000, 89, 12),
      );
      for (const asOf of ['2026-03-31', '2026-03-01']) {
        const again = await raise(key, booking, asOf);
        expect(again.status).toBe(422);
        expect(again.body.code).toBe('INTEREST_ALREADY_DEMANDED');
      }
      // Backdated after the first was raised (dated today): still only the new days.
      const june = await raise(key, booking, '2026-06-30');
      expect(june.status).toBe(201);
      expect((june.body as DemandView).splits.map((s) => s.amount.amount)).toEqual([
        new Decimal(simple(100_000, 180, 12)).minus(simple(100_000, 89, 12)).toNumber(),
        new Decimal(simple(50_000, 180, 12)).minus(simple(50_000, 89, 12)).toNumber(),
      ]);
      expect((june.body as DemandView).remarks).toBe(
        'Interest on late payment, 2026-04-01 to 2026-06-30',
      );

      // GET at asOf counts demands dated on or before asOf whose interestThrough <= asOf.
      expect((await interest(key, booking, '2026-06-30')).totals.demanded.amount).toBe(0);
      const atToday = await interest(key, booking, today);
      expect(atToday.totals.demanded.amount).toBe(
        new Decimal(first.totalAmount.amount)
          .plus((june.body as DemandView).totalAmount.amount)
          .toNumber(),
      );

      // Cancelling an interest demand makes its amount due again (and its days billable).
      expect(
        (
          await post(t, key, `/demands/${(june.body as DemandView).id}/cancel`, {
            reason: 'Re-issued',
          })
        ).status,
      ).toBe(200);
      const reissued = await raise(key, booking, '2026-06-30');
      expect(reissued.status).toBe(201);
      expect((reissued.body as DemandView).totalAmount).toEqual(
        (june.body as DemandView).totalAmount,
      );

      // demand.created carries interestThrough; so does demand search.
      const created = await events(key, 'demand.created');
      const ours = created.find((e) => e.data.id === first.id);
      expect(ours?.data).toEqual(first);
      expect(created.find((e) => e.data.id === milestone.id)?.data.interestThrough).toBeNull();
      const search = await post(t, key, '/demands/search', [
        { field: 'demandType', query: 'INTEREST', type: 'EQUALS' },
        { field: 'booking', query: booking, type: 'EQUALS' },
      ]);
      expect(search.body.content.map((d: DemandView) => d.interestThrough).sort()).toEqual([
        '2026-03-31',
        '2026-06-30',
        '2026-06-30',
      ]);
    });

    it('two demands or waivers at once on one booking: the second sees the first', async () => {
      const key = await newTenant();
      await setPolicy(
        key,
        policy({ rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 12 }] }),
      );
      const demand = await due(key, 36500, '2026-01-01');
      await pay(key, demand.splits[0].id, 36500, '2026-01-11');
      const raised = await Promise.all(
        [1, 2, 3].map(() => raise(key, demand.booking, '2026-03-31')),
      );
      expect(raised.map((r) => r.status).sort()).toEqual([201, 422, 422]);
      expect(raised.filter((r) => r.status === 422).map((r) => r.body.code)).toEqual([
        'INTEREST_ALREADY_DEMANDED',
        'INTEREST_ALREADY_DEMANDED',
      ]);
      // 120.00 accrued, all demanded: cancel it, then waive 80 twice at once: one is refused.
      const created = raised.find((r) => r.status === 201)!.body as DemandView;
      expect(created.totalAmount.amount).toBe(120);
      await post(t, key, `/demands/${created.id}/cancel`, { reason: 'Waived instead' });
      const payer = demand.splits[0].payerId;
      const waived = await Promise.all([1, 2].map(() => waive(key, demand.booking, payer, 80)));
      expect(waived.map((r) => r.status).sort()).toEqual([201, 422]);
      expect((await interest(key, demand.booking)).totals.due.amount).toBe(40);
    });

    it('refuses: asOf after today (400), disabled (422), nothing due (422), cancelled booking (409), another tenant (404), no receipts:write (403)', async () => {
      const key = await newTenant();
      const demand = await due(key, 100_000, '2026-01-01');
      const disabled = await raise(key, demand.booking, '2026-03-31');
      expect(disabled.status).toBe(422);
      expect(disabled.body.code).toBe('INTEREST_DISABLED');

      await setPolicy(key, policy());
      const future = await raise(key, demand.booking, addDays(today, 1));
      expect(future.status).toBe(400);
      expect(future.body.errors).toEqual([
        { field: 'asOf', message: expect.stringContaining(today) },
      ]);
      const bad = await post(t, key, `/bookings/${demand.booking}/interest-demands`, {
        asOf: '2026-03-31',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['dueDate']);

      // Paid on time: nothing due.
      const onTime = await due(key, 1000, '2026-01-01');
      await pay(key, onTime.splits[0].id, 1000, '2026-01-01');
      const nothing = await raise(key, onTime.booking, '2026-03-31');
      expect(nothing.status).toBe(422);
      expect(nothing.body.code).toBe('NO_INTEREST_DUE');
      // Before the due date: nothing yet.
      expect((await raise(key, demand.booking, '2025-12-31')).body.code).toBe('NO_INTEREST_DUE');

      expect((await raise(other, demand.booking, '2026-03-31')).status).toBe(404);
      const writer = await request(t.server)
        .post(`/bookings/${demand.booking}/interest-demands`)
        .set(as(key, { scope: 'receipts:read' }))
        .send({ asOf: '2026-03-31', dueDate: today });
      expect(writer.status).toBe(403);

      const withdrawn = await due(key, 1000, '2026-01-01');
      expect(
        (await post(t, key, `/bookings/${withdrawn.booking}/cancel`, { reason: 'Withdrawn' }))
          .status,
      ).toBe(200);
      const cancelled = await raise(key, withdrawn.booking, '2026-03-31');
      expect(cancelled.status).toBe(409);
      expect(cancelled.body.code).toBe('BOOKING_CANCELLED');
    });
  });

  describe('POST /bookings/{id}/interest-waivers', () => {
    it("waives up to the payer's interest due today; shown in the view; interest.waived", async () => {
      const key = await newTenant();
      await setPolicy(
        key,
        policy({ rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 12 }] }),
      );
      const demand = await due(key, 36500, '2026-01-01');
      await pay(key, demand.splits[0].id, 36500, '2026-01-11');
      const payer = demand.splits[0].payerId;
      // 36,500 x 10 days x 12 % / 365 = 120.00
      expect((await interest(key, demand.booking)).totals.due.amount).toBe(120);

      const res = await request(t.server)
        .post(`/bookings/${demand.booking}/interest-waivers`)
        .set(as(key, { preferredUsername: 'meera.k' }))
        .send({ payerId: payer, amount: 20.5, reason: 'Possession delayed' });
      expect(res.status).toBe(201);
      const waiver = res.body as Waiver;
      expect(waiver).toEqual({
        id: expect.any(String),
        booking: demand.booking,
        payerId: payer,
        amount: expect.objectContaining({ amount: 20.5, formatted: '20.50' }),
        reason: 'Possession delayed',
        waivedOn: today,
        waivedBy: 'meera.k',
      });
      const view = await interest(key, demand.booking);
      expect(view.waivers).toEqual([waiver]);
      expect(view.payers[0]).toMatchObject({
        accrued: { amount: 120 },
        waived: { amount: 20.5 },
        due: { amount: 99.5 },
      });
      // Dated today: not at an earlier asOf.
      expect((await interest(key, demand.booking, addDays(today, -1))).waivers).toEqual([]);

      const tooMuch = await waive(key, demand.booking, payer, 99.51);
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.body.code).toBe('WAIVER_EXCEEDS_DUE');
      expect(tooMuch.body.errors[0].field).toBe('amount');
      expect((await waive(key, demand.booking, randomUUID(), 0.01)).body.code).toBe(
        'WAIVER_EXCEEDS_DUE',
      );
      expect((await waive(key, demand.booking, payer, 99.5)).status).toBe(201);
      expect((await interest(key, demand.booking)).totals.due.amount).toBe(0);

      const waived = await events(key, 'interest.waived');
      expect(waived.map((e) => [e.actor, e.data])).toEqual([
        ['meera.k', waiver],
        ['tester', expect.objectContaining({ amount: expect.objectContaining({ amount: 99.5 }) })],
      ]);

      // A disabled policy: accrued and due 0; demanded and waived as recorded.
      await setPolicy(key, policy({ enabled: false, rates: [] }));
      const off = await interest(key, demand.booking);
      expect(off.enabled).toBe(false);
      expect(off.splits).toEqual([]);
      expect(off.payers).toEqual([
        expect.objectContaining({
          payerId: payer,
          accrued: expect.objectContaining({ amount: 0 }),
          waived: expect.objectContaining({ amount: 120 }),
          due: expect.objectContaining({ amount: 0 }),
        }),
      ]);
    });

    it("400 for a bad body, 404 for another tenant's booking, 403 without receipts:write", async () => {
      const key = await newTenant();
      const demand = await due(key, 100, '2026-01-01');
      const payer = demand.splits[0].payerId;
      for (const [body, field] of [
        [{ payerId: payer, amount: 0, reason: 'x' }, 'amount'],
        [{ payerId: payer, amount: 1.001, reason: 'x' }, 'amount'],
        [{ payerId: 'x', amount: 1, reason: 'x' }, 'payerId'],
        [{ payerId: payer, amount: 1, reason: ' ' }, 'reason'],
        [{ payerId: payer, amount: 1, reason: 'x', extra: 1 }, 'extra'],
      ] as const) {
        const res = await post(t, key, `/bookings/${demand.booking}/interest-waivers`, body);
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect((await waive(other, demand.booking, payer, 1)).status).toBe(404);
      const res = await request(t.server)
        .post(`/bookings/${demand.booking}/interest-waivers`)
        .set(as(key, { scope: 'receipts:read' }))
        .send({ payerId: payer, amount: 1, reason: 'x' });
      expect(res.status).toBe(403);
    });
  });
});
