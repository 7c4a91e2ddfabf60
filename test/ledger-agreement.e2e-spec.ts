import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import request from 'supertest';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { createBooking, get, post } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * "Owed as of a date" has one home, the ledger (docs/ledger.md), and every reader of it must say
 * the same thing: on random histories of one booking (demands over several payers, partial
 * payments, TDS, cancelled and bounced receipts, cancelled demands, an interest demand, a waiver)
 * and random business dates before, on and after today, the statement of account, the ageing,
 * the interest view and the demand letters agree to the paisa. The per-booking readers apply the
 * ledger's rules in TypeScript (as-of.ts) and the ageing in SQL (ledger.sql.ts), so a rule
 * changed in one place fails here. Seeded: a failure prints its seed and path to replay.
 */

interface Money {
  amount: number;
}
const dec = (m: Money) => new Decimal(String(m.amount));
const text = (m: Money) => dec(m).toFixed(2);

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const PAYER_TYPES = ['BUYER', 'CO_BUYER', 'BANK'] as const;

interface Plan {
  payers: number;
  demands: {
    offset: number;
    dueIn: number;
    type: 'MILESTONE' | 'MANUAL';
    /** Paise per payer (0: that payer has no split). */
    shares: number[];
  }[];
  receipts: {
    demand: number;
    payer: number;
    /** Share of what is pending, in percent. */
    percent: number;
    offset: number;
    mode: 'NEFT' | 'CHEQUE' | 'TDS';
    fate: 'KEEP' | 'CANCEL' | 'BOUNCE';
    bounceAfter: number;
  }[];
  cancels: number[];
  interest: {
    graceDays: number;
    rate: number;
    demandBack: number | null;
    waive: boolean;
  };
  asOfs: number[];
}

const BOOKED = 420;

const plan: fc.Arbitrary<Plan> = fc.record({
  payers: fc.integer({ min: 1, max: 3 }),
  demands: fc.array(
    fc.record({
      offset: fc.integer({ min: 0, max: 400 }),
      dueIn: fc.integer({ min: 0, max: 60 }),
      type: fc.constantFrom('MILESTONE' as const, 'MANUAL' as const),
      shares: fc.array(fc.integer({ min: 0, max: 50_000_000 }), { minLength: 3, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  receipts: fc.array(
    fc.record({
      demand: fc.nat(),
      payer: fc.nat(),
      percent: fc.integer({ min: 1, max: 100 }),
      offset: fc.integer({ min: 0, max: BOOKED }),
      mode: fc.constantFrom('NEFT' as const, 'CHEQUE' as const, 'TDS' as const),
      fate: fc.constantFrom('KEEP' as const, 'KEEP' as const, 'CANCEL' as const, 'BOUNCE' as const),
      bounceAfter: fc.integer({ min: 0, max: 60 }),
    }),
    { maxLength: 8 },
  ),
  cancels: fc.array(fc.nat(), { maxLength: 2 }),
  interest: fc.record({
    graceDays: fc.integer({ min: 0, max: 10 }),
    rate: fc.integer({ min: 500, max: 1800 }).map((r) => r / 100),
    demandBack: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
    waive: fc.boolean(),
  }),
  asOfs: fc.array(fc.integer({ min: -BOOKED, max: 60 }), { minLength: 1, maxLength: 3 }),
});

describe('the ledger: every reader of what is owed agrees', () => {
  let t: TestApp;
  const today = formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata'));

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const ok = async (res: request.Response | Promise<request.Response>, status: number) => {
    const r = await res;
    if (r.status !== status) {
      throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    }
    return r.body as Record<string, unknown>;
  };

  /** Builds the plan's history through the API; answers the booking, its payers and demands. */
  async function build(key: string, p: Plan) {
    const bookingDate = addDays(today, -BOOKED);
    const booking = await createBooking(t, key, { bookingDate });
    const payers = PAYER_TYPES.slice(0, p.payers).map((type) => ({ type, id: randomUUID() }));
    const demands: { id: string; dueDate: string; splits: { id: string; payer: number }[] }[] = [];
    const pending = new Map<string, bigint>();
    for (const d of p.demands) {
      const shares = payers
        .map((payer, i) => ({ payer, i, paise: BigInt(d.shares[i]) }))
        .filter((s) => s.paise > 0n);
      if (shares.length === 0) continue;
      const demandDate = addDays(bookingDate, Math.min(d.offset, BOOKED));
      const total = shares.reduce((a, s) => a + s.paise, 0n);
      const body = await ok(
        post(t, key, '/demands', {
          booking: booking.id,
          milestone: d.type === 'MILESTONE' ? randomUUID() : null,
          demandType: d.type,
          totalAmount: Number(total) / 100,
          dueDate: addDays(demandDate, d.dueIn),
          demandDate,
          remarks: 'Instalment',
          splits: shares.map((s) => ({
            payerType: s.payer.type,
            payerId: s.payer.id,
            amount: Number(s.paise) / 100,
          })),
        }),
        201,
      );
      const splits = (body.splits as { id: string; payerId: string }[]).map((s) => ({
        id: s.id,
        payer: payers.findIndex((x) => x.id === s.payerId),
      }));
      shares.forEach((s, i) => pending.set(splits[i].id, s.paise));
      demands.push({ id: body.id as string, dueDate: body.dueDate as string, splits });
    }
    const active = new Map<string, number>();
    for (const r of p.receipts) {
      if (demands.length === 0) break;
      const demand = demands[r.demand % demands.length];
      const split = demand.splits[r.payer % demand.splits.length];
      const left = pending.get(split.id) ?? 0n;
      const paise = (left * BigInt(r.percent)) / 100n;
      if (paise <= 0n) continue;
      const receivedDate = addDays(bookingDate, r.offset);
      const receipt = await ok(
        post(t, key, '/receipts', {
          demandSplit: split.id,
          amount: Number(paise) / 100,
          paymentMode: r.mode,
          transactionRef: `REF${randomUUID().slice(0, 8)}`,
          receivedDate,
        }),
        201,
      );
      pending.set(split.id, left - paise);
      active.set(demand.id, (active.get(demand.id) ?? 0) + 1);
      const undo = r.fate === 'BOUNCE' && r.mode === 'CHEQUE' ? 'BOUNCE' : r.fate;
      if (undo === 'KEEP' || (undo === 'BOUNCE' && r.mode !== 'CHEQUE')) continue;
      if (undo === 'CANCEL') {
        await ok(post(t, key, `/receipts/${String(receipt.id)}/cancel`, { reason: 'Wrong' }), 200);
      } else {
        const bouncedOn = addDays(receivedDate, r.bounceAfter);
        await ok(
          post(t, key, `/receipts/${String(receipt.id)}/bounce`, {
            reason: 'Insufficient funds',
            bouncedOn: bouncedOn > today ? today : bouncedOn,
          }),
          200,
        );
      }
      pending.set(split.id, left);
      active.set(demand.id, (active.get(demand.id) ?? 1) - 1);
    }
    for (const c of p.cancels) {
      if (demands.length === 0) break;
      const demand = demands[c % demands.length];
      if ((active.get(demand.id) ?? 0) > 0) continue;
      const res = await post(t, key, `/demands/${demand.id}/cancel`, { reason: 'Not due' });
      if (res.status !== 200 && res.body.code !== 'ALREADY_CANCELLED') await ok(res, 200);
    }
    await ok(
      request(t.server)
        .put('/tenant/interest-policy')
        .set(as(key))
        .send({
          enabled: true,
          graceDays: p.interest.graceDays,
          rates: [{ effectiveFrom: addDays(bookingDate, 30), annualRatePercent: p.interest.rate }],
          demandTypes: ['MILESTONE', 'MANUAL'],
          payerTypes: ['BUYER', 'CO_BUYER'],
        }),
      200,
    );
    if (p.interest.demandBack !== null) {
      const res = await post(t, key, `/bookings/${booking.id}/interest-demands`, {
        asOf: addDays(today, -p.interest.demandBack),
        dueDate: addDays(today, 15),
      });
      if (res.status !== 201 && res.body.code !== 'NO_INTEREST_DUE') await ok(res, 201);
    }
    if (p.interest.waive) {
      const now = await ok(get(t, key, `/bookings/${booking.id}/interest`), 200);
      const payer = (now.payers as { payerId: string; due: Money }[]).find((x) => dec(x.due).gt(0));
      if (payer) {
        const amount = dec(payer.due).div(2).toDecimalPlaces(2, Decimal.ROUND_DOWN);
        if (amount.gt(0)) {
          await ok(
            post(t, key, `/bookings/${booking.id}/interest-waivers`, {
              payerId: payer.payerId,
              amount: amount.toNumber(),
              reason: 'Goodwill',
            }),
            201,
          );
        }
      }
    }
    return { booking: booking.id, payers, demands };
  }

  /** Every reader at asOf, compared. */
  async function agree(key: string, built: Awaited<ReturnType<typeof build>>, asOf: string) {
    const statement = await ok(
      get(t, key, `/bookings/${built.booking}/statement?asOf=${asOf}`),
      200,
    );
    const totals = statement.totals as Record<string, Money>;
    const ageing = await ok(get(t, key, `/receivables/ageing?asOf=${asOf}`), 200);
    const ageingTotal = ageing.total as { outstanding: Money; byBucket: Record<string, Money> };
    const interest = await ok(get(t, key, `/bookings/${built.booking}/interest?asOf=${asOf}`), 200);
    const it = interest.totals as Record<string, Money>;
    const where = `asOf ${asOf}`;

    // The statement and the ageing: what is outstanding, and the part overdue.
    expect([where, text(totals.outstanding)]).toEqual([where, text(ageingTotal.outstanding)]);
    expect([where, text(totals.overdue)]).toEqual([
      where,
      dec(ageingTotal.outstanding).minus(dec(ageingTotal.byBucket.NOT_DUE)).toFixed(2),
    ]);
    // The statement and the interest view.
    expect([where, text(totals.interestAccrued)]).toEqual([where, text(it.accrued)]);
    expect([where, text(totals.interestDemanded)]).toEqual([where, text(it.demanded)]);
    expect([where, text(totals.interestWaived)]).toEqual([where, text(it.waived)]);

    // Per payer: the statement of that payer and the interest view's payer.
    const payers = interest.payers as { payerId: string; accrued: Money; due: Money }[];
    for (const payer of built.payers) {
      const own = await ok(
        get(t, key, `/bookings/${built.booking}/statement?asOf=${asOf}&payerId=${payer.id}`),
        200,
      );
      const ownTotals = own.totals as Record<string, Money>;
      const fromInterest = payers.find((x) => x.payerId === payer.id);
      expect([where, payer.type, text(ownTotals.interestAccrued)]).toEqual([
        where,
        payer.type,
        fromInterest ? text(fromInterest.accrued) : '0.00',
      ]);
    }

    // The demand letters: what is overdue, and the interest due.
    for (const demand of built.demands) {
      const res = await get(t, key, `/demands/${demand.id}/letter?asOf=${asOf}&format=json`);
      if (res.status === 409) continue; // cancelled, or nothing payable
      const letter = await ok(res, 200);
      const owed = dec(letter.thisDemand as Money).plus(dec(letter.previousDues as Money));
      const overdue = dec(totals.overdue);
      const why = `${where}, letter of ${demand.id} due ${demand.dueDate}`;
      if (demand.dueDate < asOf) expect([why, owed.toFixed(2)]).toEqual([why, overdue.toFixed(2)]);
      else expect([why, text(letter.previousDues as Money)]).toEqual([why, overdue.toFixed(2)]);
      expect([why, text(letter.interestDue as Money)]).toEqual([why, text(it.due)]);
      expect([why, text(letter.totalPayable as Money)]).toEqual([
        why,
        owed.plus(dec(letter.interestDue as Money)).toFixed(2),
      ]);
    }
  }

  it('statement, ageing, interest and letters agree on random histories at any date', async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        const key = (await t.createTenant()).key;
        const built = await build(key, p);
        const dates = new Set([today, ...p.asOfs.map((d) => addDays(today, d))]);
        for (const asOf of dates) await agree(key, built, asOf);
      }),
      { seed: 38, numRuns: 15, endOnFailure: true },
    );
  });

  it("another tenant's booking is not read: the readers answer 404", async () => {
    const owner = (await t.createTenant()).key;
    const other = (await t.createTenant()).key;
    const booking = await createBooking(t, owner, { bookingDate: addDays(today, -10) });
    for (const path of [`/bookings/${booking.id}/statement`, `/bookings/${booking.id}/interest`]) {
      const res = await get(t, other, path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
