import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  cancelReceipt,
  createBooking,
  createDemand,
  DemandView,
  get,
  post,
  receiptBody,
  recordReceipt,
  ReceiptView,
  searchReceipts,
  split,
} from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

/** Bounced cheques and cancelling demands and bookings (docs/api.md, the finance desk). */
describe('bounced cheques and cancelled demands and bookings', () => {
  let t: TestApp;
  let db: DataSource;
  let tenant: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = await ownerDataSource(t.ownerUrl);
    tenant = (await t.createTenant()).key;
    other = (await t.createTenant()).key;
  });
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  const amounts = async (demandId: string) => {
    const [d] = await db.query<{ received: string; status: string }[]>(
      `SELECT received_amount::text AS received, status FROM demands WHERE id = $1`,
      [demandId],
    );
    const splits = await db.query<{ paid: string; status: string }[]>(
      `SELECT paid_amount::text AS paid, status FROM demand_splits WHERE demand_id = $1 ORDER BY id`,
      [demandId],
    );
    return { demand: d, splits };
  };
  const demandsOf = async (bookingId: string) =>
    Number(
      (
        await db.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM demands WHERE booking_id = $1`,
          [bookingId],
        )
      )[0].n,
    );
  const cheque = async (key = tenant, amount = 40000, demand?: DemandView) => {
    const d = demand ?? (await createDemand(t, key, { splits: [split(100000, 'CO_BUYER')] }));
    const receipt = await recordReceipt(t, key, {
      demandSplit: d.splits[0].id,
      amount,
      paymentMode: 'CHEQUE',
      transactionRef: 'CHQ 004512',
      receivedDate: '2026-11-20',
    });
    return { demand: d, receipt };
  };
  const bounce = (key: string, id: string, body: object) =>
    request(t.server)
      .post(`/receipts/${id}/bounce`)
      .set(as(key, { preferredUsername: 'kavya.rao' }))
      .send(body);

  describe('POST /receipts/{id}/bounce', () => {
    it('bounces a cheque, takes its amount back and raises the charges as a demand', async () => {
      const { demand, receipt } = await cheque();
      const res = await bounce(tenant, receipt.id, {
        reason: 'Insufficient funds',
        bouncedOn: '2026-11-25',
        charges: 590.5,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: receipt.id,
        receiptNumber: receipt.receiptNumber,
        status: 'BOUNCED',
        statusReason: 'Insufficient funds',
        statusChangedOn: '2026-11-25',
        statusChangedBy: 'kavya.rao',
        demandSplitMeta: { paidAmount: { amount: 0 }, status: 'PENDING' },
        demandMeta: { receivedAmount: { amount: 0 }, status: 'PENDING' },
      });
      const charges = res.body.chargesDemand as DemandView;
      expect(charges).toMatchObject({
        booking: demand.booking,
        demandType: 'MANUAL',
        milestone: null,
        totalAmount: { amount: 590.5 },
        dueDate: '2026-11-25',
        status: 'PENDING',
      });
      expect(charges.demandNumber).not.toBe(demand.demandNumber);
      expect(charges.splits).toHaveLength(1);
      expect(charges.splits[0]).toMatchObject({
        payerType: 'CO_BUYER',
        payerId: demand.splits[0].payerId,
        amount: { amount: 590.5 },
      });
      expect(await amounts(demand.id)).toEqual({
        demand: { received: '0.00', status: 'PENDING' },
        splits: [{ paid: '0.00', status: 'PENDING' }],
      });
      // Every receipt view carries the change: GET and search.
      const got = await get(t, tenant, `/receipts/${receipt.id}`);
      expect(got.body).toMatchObject({ status: 'BOUNCED', statusReason: 'Insufficient funds' });
      expect(got.body).not.toHaveProperty('chargesDemand');
      const found = await searchReceipts(t, tenant, [
        { field: 'status', query: 'BOUNCED', type: 'EQUALS' },
        { field: 'id', query: receipt.id, type: 'EQUALS' },
      ]);
      expect(found.map((r) => r.statusChangedOn)).toEqual(['2026-11-25']);
    });

    it('raises no demand without charges, and an ACTIVE receipt says so with nulls', async () => {
      const { demand, receipt } = await cheque();
      expect(receipt).toMatchObject({
        statusReason: null,
        statusChangedOn: null,
        statusChangedBy: null,
      });
      const res = await bounce(tenant, receipt.id, {
        reason: 'Signature mismatch',
        bouncedOn: '2026-11-20',
      });
      expect(res.status).toBe(200);
      expect(res.body.chargesDemand).toBeNull();
      expect(await demandsOf(demand.booking)).toBe(1);
    });

    it('bounces demand drafts but not other modes, and only ACTIVE receipts', async () => {
      const d = await createDemand(t, tenant);
      const draft = await recordReceipt(t, tenant, {
        demandSplit: d.splits[0].id,
        paymentMode: 'DEMAND_DRAFT',
      });
      expect(
        (await bounce(tenant, draft.id, { reason: 'Stale', bouncedOn: '2026-11-23' })).status,
      ).toBe(200);
      const again = await bounce(tenant, draft.id, { reason: 'Stale', bouncedOn: '2026-11-23' });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('RECEIPT_NOT_ACTIVE');
      const cancelBounced = await post(t, tenant, `/receipts/${draft.id}/cancel`, { reason: 'x' });
      expect(cancelBounced.status).toBe(409);
      expect(cancelBounced.body.code).toBe('RECEIPT_NOT_ACTIVE');

      const neft = await recordReceipt(t, tenant, {
        demandSplit: d.splits[0].id,
        paymentMode: 'NEFT',
      });
      const res = await bounce(tenant, neft.id, { reason: 'x', bouncedOn: '2026-11-23' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('RECEIPT_NOT_BOUNCEABLE');

      const { receipt } = await cheque();
      await cancelReceipt(t, tenant, receipt.id);
      const cancelled = await bounce(tenant, receipt.id, { reason: 'x', bouncedOn: '2026-11-23' });
      expect(cancelled.status).toBe(409);
      expect(cancelled.body.code).toBe('RECEIPT_NOT_ACTIVE');
    });

    it('changes nothing when refused: before the receipt date, bad input, another tenant', async () => {
      const { demand, receipt } = await cheque();
      const before = await amounts(demand.id);
      const early = await bounce(tenant, receipt.id, {
        reason: 'x',
        bouncedOn: '2026-11-19',
        charges: 500,
      });
      expect(early.status).toBe(422);
      expect(early.body.code).toBe('BOUNCE_BEFORE_RECEIPT');
      expect(early.body.errors[0].field).toBe('bouncedOn');
      for (const [body, field] of [
        [{ reason: 'x', bouncedOn: '2026-11-25', charges: 0 }, 'charges'],
        [{ reason: 'x', bouncedOn: '2026-11-25', charges: 10.001 }, 'charges'],
        [{ reason: 'x', bouncedOn: '2026-11-25', charges: '500' }, 'charges'],
        [{ reason: 'x', bouncedOn: '2026-02-30' }, 'bouncedOn'],
        [{ reason: ' ', bouncedOn: '2026-11-25' }, 'reason'],
        [{ bouncedOn: '2026-11-25' }, 'reason'],
      ] as const) {
        const res = await bounce(tenant, receipt.id, body);
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      const theirs = await bounce(other, receipt.id, {
        reason: 'x',
        bouncedOn: '2026-11-25',
        charges: 500,
      });
      expect(theirs.status).toBe(404);
      expect(theirs.body.code).toBe('RECEIPT_NOT_FOUND');
      expect(await amounts(demand.id)).toEqual(before);
      expect(await demandsOf(demand.booking)).toBe(1);
      expect((await get(t, tenant, `/receipts/${receipt.id}`)).body.status).toBe('ACTIVE');
    });

    it('a bounce racing a cancel of the same receipt: exactly one applies, amounts stay whole', async () => {
      for (let round = 0; round < 12; round++) {
        const { demand, receipt } = await cheque(tenant, 25000);
        const [b, c] = await Promise.all([
          bounce(tenant, receipt.id, { reason: 'race', bouncedOn: '2026-11-21', charges: 100 }),
          post(t, tenant, `/receipts/${receipt.id}/cancel`, { reason: 'race' }),
        ]);
        expect([b.status, c.status].sort()).toEqual([200, 409]);
        const loser = b.status === 409 ? b : c;
        expect(loser.body.code).toBe('RECEIPT_NOT_ACTIVE');
        const [row] = await db.query<{ status: string }[]>(
          `SELECT status FROM receipts WHERE id = $1`,
          [receipt.id],
        );
        expect(row.status).toBe(b.status === 200 ? 'BOUNCED' : 'CANCELLED');
        expect(await amounts(demand.id)).toEqual({
          demand: { received: '0.00', status: 'PENDING' },
          splits: [{ paid: '0.00', status: 'PENDING' }],
        });
        expect(await demandsOf(demand.booking)).toBe(b.status === 200 ? 2 : 1);
      }
    });
  });

  describe('POST /demands/{id}/cancel', () => {
    it('refuses while a receipt is ACTIVE, then cancels the demand and its splits', async () => {
      const demand = await createDemand(t, tenant, { splits: [split(600), split(400, 'BANK')] });
      const bounced = await cheque(tenant, 100, demand);
      await bounce(tenant, bounced.receipt.id, { reason: 'x', bouncedOn: '2026-11-22' });
      const active = await recordReceipt(t, tenant, {
        demandSplit: demand.splits[1].id,
        amount: 50,
      });
      const refused = await post(t, tenant, `/demands/${demand.id}/cancel`, {
        reason: 'Re-issued',
      });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('DEMAND_HAS_RECEIPTS');
      expect((await amounts(demand.id)).demand.status).toBe('PARTIALLY_PAID');

      await cancelReceipt(t, tenant, active.id);
      const res = await post(t, tenant, `/demands/${demand.id}/cancel`, { reason: 'Re-issued' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: demand.id,
        demandNumber: demand.demandNumber,
        status: 'CANCELLED',
        splits: [{ status: 'CANCELLED' }, { status: 'CANCELLED' }],
      });
      expect((await get(t, tenant, `/demands/${demand.id}`)).body.status).toBe('CANCELLED');
      const twice = await post(t, tenant, `/demands/${demand.id}/cancel`, { reason: 'again' });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('ALREADY_CANCELLED');
      const receipt = await post(t, tenant, '/receipts', receiptBody(demand.splits[0].id));
      expect(receipt.status).toBe(409);
      expect(receipt.body.code).toBe('DEMAND_CANCELLED');
    });

    it('keeps tenants apart and refuses bad input', async () => {
      const demand = await createDemand(t, tenant);
      const theirs = await post(t, other, `/demands/${demand.id}/cancel`, { reason: 'x' });
      expect(theirs.status).toBe(404);
      expect(theirs.body.code).toBe('DEMAND_NOT_FOUND');
      const blank = await post(t, tenant, `/demands/${demand.id}/cancel`, { reason: '' });
      expect(blank.status).toBe(400);
      expect(blank.body.errors[0].field).toBe('reason');
      expect((await get(t, tenant, `/demands/${demand.id}`)).body.status).toBe('PENDING');
    });

    it('search totals on demand status see the cancel at once', async () => {
      const filter = [{ field: 'demandMeta.status', query: 'CANCELLED', type: 'EQUALS' }];
      const total = async () =>
        (await request(t.server).post('/receipts/search?size=1').set(as(tenant)).send(filter)).body
          .totalElements as number;
      const demand = await createDemand(t, tenant);
      const r = await recordReceipt(t, tenant, { demandSplit: demand.splits[0].id });
      const before = await total();
      expect(await total()).toBe(before); // cached
      await cancelReceipt(t, tenant, r.id);
      await post(t, tenant, `/demands/${demand.id}/cancel`, { reason: 'x' });
      expect(await total()).toBe(before + 1);
    });

    it('a receipt racing a demand cancel never leaves an ACTIVE receipt under a cancelled demand', async () => {
      for (let round = 0; round < 12; round++) {
        const demand = await createDemand(t, tenant);
        const [r, c] = await Promise.all([
          post(t, tenant, '/receipts', receiptBody(demand.splits[0].id, { amount: 10 })),
          post(t, tenant, `/demands/${demand.id}/cancel`, { reason: 'race' }),
        ]);
        if (c.status === 200) expect(r.body.code).toBe('DEMAND_CANCELLED');
        else expect([r.status, c.body.code]).toEqual([201, 'DEMAND_HAS_RECEIPTS']);
        // This demand's only: a booking's cancellation (other suites) leaves ACTIVE receipts
        // under the demands it cancels, on purpose.
        const [bad] = await db.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM receipts r JOIN demands d ON d.id = r.demand_id
            WHERE d.id = $1 AND d.status = 'CANCELLED' AND r.status = 'ACTIVE'`,
          [demand.id],
        );
        expect(bad.n).toBe(0);
      }
    });
  });

  describe('POST /bookings/{id}/cancel', () => {
    it('cascades to demands and splits, and the booking takes no new demands', async () => {
      const booking = await createBooking(t, tenant);
      const d1 = await createDemand(t, tenant, { booking: booking.id });
      const d2 = await createDemand(t, tenant, {
        booking: booking.id,
        splits: [split(10), split(20)],
      });
      const r = await recordReceipt(t, tenant, { demandSplit: d2.splits[1].id, amount: 5 });
      const refused = await post(t, tenant, `/bookings/${booking.id}/cancel`, {
        reason: 'Withdrawn',
      });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('BOOKING_HAS_RECEIPTS');
      expect((await amounts(d1.id)).demand.status).toBe('PENDING');

      await cancelReceipt(t, tenant, r.id);
      const res = await post(t, tenant, `/bookings/${booking.id}/cancel`, { reason: 'Withdrawn' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: booking.id,
        bookingNumber: booking.bookingNumber,
        status: 'CANCELLED',
      });
      for (const d of [d1, d2]) {
        const state = await amounts(d.id);
        expect(state.demand.status).toBe('CANCELLED');
        expect(state.splits.every((s) => s.status === 'CANCELLED')).toBe(true);
      }
      const newDemand = await post(t, tenant, '/demands', {
        booking: booking.id,
        milestone: null,
        demandType: 'MANUAL',
        totalAmount: 10,
        dueDate: '2026-12-01',
        remarks: '',
        splits: [split(10)],
      });
      expect(newDemand.status).toBe(409);
      expect(newDemand.body.code).toBe('BOOKING_CANCELLED');
      const twice = await post(t, tenant, `/bookings/${booking.id}/cancel`, { reason: 'again' });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('ALREADY_CANCELLED');
    });

    it("refuses another tenant's booking and changes nothing", async () => {
      const booking = await createBooking(t, tenant);
      const res = await post(t, other, `/bookings/${booking.id}/cancel`, { reason: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BOOKING_NOT_FOUND');
      expect((await get(t, tenant, `/bookings/${booking.id}`)).body.status).toBe('ACTIVE');
    });
  });

  it('needs receipts:write for every change', async () => {
    const { receipt } = await cheque();
    const reader = as(tenant, { scope: 'receipts:read' });
    for (const path of [
      `/receipts/${receipt.id}/bounce`,
      `/demands/${receipt.demand}/cancel`,
      `/bookings/${receipt.booking}/cancel`,
    ]) {
      const res = await request(t.server)
        .post(path)
        .set(reader)
        .send({ reason: 'x', bouncedOn: '2026-11-25' });
      expect(res.status).toBe(403);
    }
    expect(((await get(t, tenant, `/receipts/${receipt.id}`)).body as ReceiptView).status).toBe(
      'ACTIVE',
    );
  });
});
