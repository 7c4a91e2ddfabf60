import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import {
  bookingBody,
  cancelReceipt,
  createBooking,
  createDemand,
  demandBody,
  get,
  post,
  receiptBody,
  recordReceipt,
  searchReceipts,
  split,
} from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('write side: bookings, demands, receipts', () => {
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

  const money = (amount: number, formatted: string) => ({
    amount,
    currency: 'INR',
    currencySymbol: '₹',
    formatted,
  });

  describe('POST /bookings', () => {
    it('creates a numbered ACTIVE booking and returns it', async () => {
      const body = bookingBody({ buyerName: 'Rohan Mehta', bookingDate: '2026-05-10' });
      const res = await request(t.server)
        .post('/bookings')
        .set(as(tenant, { preferredUsername: 'priya.sharma' }))
        .send(body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        agreementValue: null,
        bookingNumber: expect.stringMatching(/^BKG\/26-27\/\d{5}$/),
        unit: body.unit,
        unitName: null,
        buyerName: 'Rohan Mehta',
        buyerId: body.buyerId,
        bookingDate: '2026-05-10',
        status: 'ACTIVE',
        created: expect.stringMatching(ISO_MS),
        createdBy: 'priya.sharma',
        allotmentDate: '2026-05-10',
        buyerAddress: null,
        buyerGstin: null,
        carpetAreaSqm: null,
        gstClass: 'STANDARD',
        gstExempt: false,
        metroCity: false,
      });
      expect(Math.abs(Date.parse(res.body.created) - Date.now())).toBeLessThan(60_000);

      const read = await get(t, tenant, `/bookings/${res.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it('accepts a booking without buyerId (null) and numbers bookings consecutively', async () => {
      const a = await createBooking(t, tenant, { buyerId: undefined });
      const b = await createBooking(t, tenant, { buyerId: null });
      expect(a.buyerId).toBeNull();
      expect(b.buyerId).toBeNull();
      const seq = (n: string) => Number(n.split('/')[2]);
      expect(seq(b.bookingNumber)).toBe(seq(a.bookingNumber) + 1);
    });

    it.each([
      ['a unit that is not a UUID', { unit: 'unit-7' }, 'unit'],
      ['a blank buyer name', { buyerName: '   ' }, 'buyerName'],
      ['a buyer name over 200 characters', { buyerName: 'x'.repeat(201) }, 'buyerName'],
      ['a buyerId that is not a UUID', { buyerId: '42' }, 'buyerId'],
      ['an impossible date', { bookingDate: '2026-02-30' }, 'bookingDate'],
      ['a date-time', { bookingDate: '2026-02-03T00:00:00Z' }, 'bookingDate'],
      ['an unknown field', { status: 'CANCELLED' }, 'status'],
    ])('refuses %s with 400', async (_what, override, field) => {
      const res = await post(t, tenant, '/bookings', { ...bookingBody(), ...override });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses a missing buyer name', async () => {
      const { buyerName: _omit, ...body } = bookingBody();
      const res = await post(t, tenant, '/bookings', body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('buyerName');
    });

    it('needs receipts:write to create and receipts:read to read', async () => {
      const write = await request(t.server)
        .post('/bookings')
        .set(as(tenant, { scope: 'receipts:read' }))
        .send(bookingBody());
      expect(write.status).toBe(403);
      expect(write.body.code).toBe('INSUFFICIENT_SCOPE');
      const booking = await createBooking(t, tenant);
      const read = await request(t.server)
        .get(`/bookings/${booking.id}`)
        .set(as(tenant, { scope: 'receipts:write' }));
      expect(read.status).toBe(403);
    });

    it("answers 404 for an unknown id and for another tenant's booking, 400 for a bad id", async () => {
      const booking = await createBooking(t, tenant);
      const cross = await get(t, other, `/bookings/${booking.id}`);
      expect(cross.status).toBe(404);
      expect(cross.body.code).toBe('BOOKING_NOT_FOUND');
      const unknown = await get(t, tenant, `/bookings/${randomUUID()}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('BOOKING_NOT_FOUND');
      expect(cross.body.detail).toBe(`Booking ${booking.id} was not found.`);
      const bad = await get(t, tenant, '/bookings/not-a-uuid');
      expect(bad.status).toBe(400);
    });
  });

  describe('POST /demands', () => {
    it('creates a demand with numbered splits, copying unit and buyer name from the booking', async () => {
      const booking = await createBooking(t, tenant, { buyerName: 'Kavya Nair' });
      const milestone = randomUUID();
      const body = demandBody(booking.id, {
        milestone,
        demandType: 'MILESTONE',
        totalAmount: 250000.5,
        dueDate: '2026-12-15',
        demandDate: '2026-11-20',
        remarks: 'Plinth completion, tower B',
        splits: [split(50000.25, 'BUYER'), split(200000.25, 'BANK')],
      });
      const res = await post(t, tenant, '/demands', body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        booking: booking.id,
        unit: booking.unit,
        milestone,
        demandType: 'MILESTONE',
        demandNumber: expect.stringMatching(/^DMD\/26-27\/\d{5}$/),
        totalAmount: money(250000.5, '2,50,000.50'),
        dueDate: '2026-12-15',
        remarks: 'Plinth completion, tower B',
        status: 'PENDING',
        receivedAmount: money(0, '0.00'),
        pendingAmount: money(250000.5, '2,50,000.50'),
        buyerName: 'Kavya Nair',
        demandDate: '2026-11-20',
        interestThrough: null,
        chargeType: 'CONSTRUCTION',
        tax: null,
        grossAmount: money(250000.5, '2,50,000.50'),
        invoice: null,
        gstCreditTimeBarred: false,
        splits: [
          {
            id: expect.stringMatching(UUID),
            demand: res.body.id,
            payerType: 'BUYER',
            payerId: body.splits[0].payerId,
            payerName: null,
            demandSplitNumber: expect.stringMatching(/^DSP\/26-27\/\d{5}$/),
            amount: money(50000.25, '50,000.25'),
            paidAmount: money(0, '0.00'),
            pendingAmount: money(50000.25, '50,000.25'),
            taxAmount: money(0, '0.00'),
            grossAmount: money(50000.25, '50,000.25'),
            status: 'PENDING',
          },
          {
            id: expect.stringMatching(UUID),
            demand: res.body.id,
            payerType: 'BANK',
            payerId: body.splits[1].payerId,
            payerName: null,
            demandSplitNumber: expect.stringMatching(/^DSP\/26-27\/\d{5}$/),
            amount: money(200000.25, '2,00,000.25'),
            paidAmount: money(0, '0.00'),
            pendingAmount: money(200000.25, '2,00,000.25'),
            taxAmount: money(0, '0.00'),
            grossAmount: money(200000.25, '2,00,000.25'),
            status: 'PENDING',
          },
        ],
      });
      const seq = (n: string) => Number(n.split('/')[2]);
      expect(seq(res.body.splits[1].demandSplitNumber)).toBe(
        seq(res.body.splits[0].demandSplitNumber) + 1,
      );

      const read = await get(t, tenant, `/demands/${res.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it("defaults demandDate to today in the tenant's zone and remarks to empty", async () => {
      const booking = await createBooking(t, tenant);
      const { demandDate: _d, remarks: _r, ...body } = demandBody(booking.id);
      const res = await post(t, tenant, '/demands', body);
      expect(res.status).toBe(201);
      expect(res.body.demandDate).toBe(
        formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata')),
      );
      expect(res.body.remarks).toBe('');
      expect(res.body.milestone).toBeNull();
    });

    it('adds splits exactly (0.10 + 0.20 = 0.30)', async () => {
      const demand = await createDemand(t, tenant, {
        totalAmount: 0.3,
        splits: [split(0.1), split(0.2)],
      });
      expect(demand.totalAmount.formatted).toBe('0.30');
    });

    it('refuses splits that do not add up to totalAmount with 422', async () => {
      const booking = await createBooking(t, tenant);
      const res = await post(
        t,
        tenant,
        '/demands',
        demandBody(booking.id, { totalAmount: 1000, splits: [split(600), split(399.99)] }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('DEMAND_SPLITS_MISMATCH');
      expect(res.body.detail).toContain('999.99');
      const count = await db.query(`SELECT count(*)::int AS n FROM demands WHERE booking_id = $1`, [
        booking.id,
      ]);
      expect(count[0].n).toBe(0);
    });

    it("answers 404 for an unknown booking and for another tenant's booking", async () => {
      const foreign = await createBooking(t, other);
      const cross = await post(t, tenant, '/demands', demandBody(foreign.id));
      expect(cross.status).toBe(404);
      expect(cross.body.code).toBe('BOOKING_NOT_FOUND');
      const unknown = await post(t, tenant, '/demands', demandBody(randomUUID()));
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('BOOKING_NOT_FOUND');
      const rows = await db.query(`SELECT count(*)::int AS n FROM demands WHERE booking_id = $1`, [
        foreign.id,
      ]);
      expect(rows[0].n).toBe(0);
    });

    it("answers 404 for another tenant's demand and an unknown demand", async () => {
      const demand = await createDemand(t, tenant);
      for (const [key, id] of [
        [other, demand.id],
        [tenant, randomUUID()],
      ]) {
        const res = await get(t, key, `/demands/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('DEMAND_NOT_FOUND');
      }
    });

    it.each([
      ['no splits', { splits: [] }, 'splits'],
      [
        '21 splits',
        { splits: Array.from({ length: 21 }, () => split(1)), totalAmount: 21 },
        'splits',
      ],
      [
        'a split amount with 3 decimals',
        { splits: [split(10.123)], totalAmount: 10.123 },
        'splits.0.amount',
      ],
      [
        'a negative split amount',
        { splits: [split(-5), split(10)], totalAmount: 5 },
        'splits.0.amount',
      ],
      [
        'a bad payer type',
        { splits: [split(10, 'TENANT')], totalAmount: 10 },
        'splits.0.payerType',
      ],
      [
        'a bad payer id',
        { splits: [split(10, 'BUYER', 'x')], totalAmount: 10 },
        'splits.0.payerId',
      ],
      [
        'a totalAmount given as a string',
        { totalAmount: '100000' as unknown as number },
        'totalAmount',
      ],
      ['a zero totalAmount', { totalAmount: 0 }, 'totalAmount'],
      ['a bad demand type', { demandType: 'ADHOC' }, 'demandType'],
      [
        'a MILESTONE demand without milestone',
        { demandType: 'MILESTONE', milestone: null },
        'milestone',
      ],
      ['a milestone that is not a UUID', { milestone: 'm-1' }, 'milestone'],
      ['an impossible due date', { dueDate: '2026-13-01' }, 'dueDate'],
      ['remarks over 1000 characters', { remarks: 'x'.repeat(1001) }, 'remarks'],
    ])('refuses %s with 400', async (_what, override, field) => {
      const booking = await createBooking(t, tenant);
      const res = await post(t, tenant, '/demands', { ...demandBody(booking.id), ...override });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses an unknown field, also inside a split', async () => {
      const booking = await createBooking(t, tenant);
      const body = demandBody(booking.id);
      const res = await post(t, tenant, '/demands', {
        ...body,
        splits: [{ ...body.splits[0], paid: 5 }],
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({
        field: 'splits.0.paid',
        message: 'splits.0.paid is an unknown field',
      });
    });
  });

  describe('POST /receipts', () => {
    const demandState = async (id: string) => {
      const res = await get(t, tenant, `/demands/${id}`);
      expect(res.status).toBe(200);
      return {
        status: res.body.status,
        received: res.body.receivedAmount.amount,
        pending: res.body.pendingAmount.amount,
        splits: res.body.splits.map(
          (s: {
            status: string;
            paidAmount: { amount: number };
            pendingAmount: { amount: number };
          }) => ({
            status: s.status,
            paid: s.paidAmount.amount,
            pending: s.pendingAmount.amount,
          }),
        ),
      };
    };

    it('records a receipt in the shape search returns and updates split and demand', async () => {
      const demand = await createDemand(t, tenant, {
        splits: [split(600, 'BUYER'), split(400, 'BANK')],
      });
      const [a, b] = demand.splits;
      const body = receiptBody(a.id, {
        amount: 100.5,
        paymentMode: 'UPI',
        transactionRef: 'UPI-77',
        receivedDate: '2026-11-21',
      });
      const res = await post(t, tenant, '/receipts', body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: expect.stringMatching(UUID),
        demandSplit: a.id,
        demand: demand.id,
        booking: demand.booking,
        payerType: 'BUYER',
        receiptNumber: expect.stringMatching(/^RCT\/26-27\/\d{5}$/),
        amount: money(100.5, '100.50'),
        paymentMode: 'UPI',
        transactionRef: 'UPI-77',
        receivedDate: '2026-11-21',
        status: 'ACTIVE',
        demandSplitMeta: {
          id: a.id,
          demand: demand.id,
          payerType: 'BUYER',
          payerId: a.payerId,
          demandSplitNumber: a.demandSplitNumber,
          amount: money(600, '600.00'),
          paidAmount: money(100.5, '100.50'),
          pendingAmount: money(499.5, '499.50'),
          status: 'PARTIALLY_PAID',
        },
        demandMeta: {
          id: demand.id,
          demandNumber: demand.demandNumber,
          status: 'PARTIALLY_PAID',
          receivedAmount: money(100.5, '100.50'),
          pendingAmount: money(899.5, '899.50'),
          buyerName: demand.buyerName,
        },
      });
      const byId = await get(t, tenant, `/receipts/${res.body.id}`);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual(res.body);
      const found = await searchReceipts(t, tenant, [
        { field: 'id', query: res.body.id, type: 'EQUALS' },
      ]);
      expect(found).toEqual([res.body]);

      // the rest of split A: A is PAID, the demand still PARTIALLY_PAID
      await recordReceipt(t, tenant, { demandSplit: a.id, amount: 499.5 });
      expect(await demandState(demand.id)).toEqual({
        status: 'PARTIALLY_PAID',
        received: 600,
        pending: 400,
        splits: [
          { status: 'PAID', paid: 600, pending: 0 },
          { status: 'PENDING', paid: 0, pending: 400 },
        ],
      });
      // split B in full: everything PAID
      const last = await recordReceipt(t, tenant, { demandSplit: b.id, amount: 400 });
      expect(last.payerType).toBe('BANK');
      expect(await demandState(demand.id)).toEqual({
        status: 'PAID',
        received: 1000,
        pending: 0,
        splits: [
          { status: 'PAID', paid: 600, pending: 0 },
          { status: 'PAID', paid: 400, pending: 0 },
        ],
      });
      const rows = await db.query(
        `SELECT payer_type, created_by, demand_id, booking_id FROM receipts WHERE id = $1`,
        [last.id],
      );
      expect(rows[0]).toEqual({
        payer_type: 'BANK',
        created_by: 'tester',
        demand_id: demand.id,
        booking_id: demand.booking,
      });
    });

    it('refuses more than the pending amount with 422 naming it, and takes exactly the pending amount', async () => {
      const demand = await createDemand(t, tenant, { splits: [split(1000)] });
      const splitId = demand.splits[0].id;
      await recordReceipt(t, tenant, { demandSplit: splitId, amount: 700 });
      const over = await post(t, tenant, '/receipts', receiptBody(splitId, { amount: 300.01 }));
      expect(over.status).toBe(422);
      expect(over.body.code).toBe('RECEIPT_EXCEEDS_PENDING');
      expect(over.body.detail).toContain('300.00');
      expect(over.body.errors).toEqual([
        { field: 'amount', message: expect.stringContaining('300.00') },
      ]);
      await recordReceipt(t, tenant, { demandSplit: splitId, amount: 300 });
      const paid = await post(t, tenant, '/receipts', receiptBody(splitId, { amount: 0.01 }));
      expect(paid.status).toBe(422);
      expect(paid.body.code).toBe('RECEIPT_EXCEEDS_PENDING');
      expect((await demandState(demand.id)).received).toBe(1000);
    });

    it('refuses receipts on a cancelled split or a split of a cancelled demand with 409', async () => {
      const d1 = await createDemand(t, tenant);
      await db.query(`UPDATE demand_splits SET status = 'CANCELLED' WHERE id = $1`, [
        d1.splits[0].id,
      ]);
      const r1 = await post(t, tenant, '/receipts', receiptBody(d1.splits[0].id));
      expect(r1.status).toBe(409);
      expect(r1.body.code).toBe('DEMAND_SPLIT_CANCELLED');

      const d2 = await createDemand(t, tenant);
      await db.query(`UPDATE demands SET status = 'CANCELLED' WHERE id = $1`, [d2.id]);
      const r2 = await post(t, tenant, '/receipts', receiptBody(d2.splits[0].id));
      expect(r2.status).toBe(409);
      expect(r2.body.code).toBe('DEMAND_CANCELLED');
      const n = await db.query(
        `SELECT count(*)::int AS n FROM receipts WHERE demand_id = ANY($1::uuid[])`,
        [[d1.id, d2.id]],
      );
      expect(n[0].n).toBe(0);
    });

    it.each([
      ['a demandSplit that is not a UUID', { demandSplit: 'split-1' }, 'demandSplit'],
      ['an amount with 3 decimals', { amount: 10.123 }, 'amount'],
      ['an amount given as a string', { amount: '10' as unknown as number }, 'amount'],
      ['an unknown payment mode', { paymentMode: 'BITCOIN' }, 'paymentMode'],
      ['a lower-case payment mode', { paymentMode: 'neft' }, 'paymentMode'],
      [
        'a transactionRef over 100 characters',
        { transactionRef: 'x'.repeat(101) },
        'transactionRef',
      ],
      ['a null transactionRef', { transactionRef: null as unknown as string }, 'transactionRef'],
      ['an impossible date', { receivedDate: '2026-02-29' }, 'receivedDate'],
      ['an unknown field', { receiptNumber: 'RCT/1' }, 'receiptNumber'],
    ])('refuses %s with 400', async (_what, override, field) => {
      const res = await post(t, tenant, '/receipts', { ...receiptBody(randomUUID()), ...override });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it.each([0, -10])(
      'refuses an amount of %p with 422 (a business rule) and writes nothing',
      async (amount) => {
        const demand = await createDemand(t, tenant);
        const res = await post(
          t,
          tenant,
          '/receipts',
          receiptBody(demand.splits[0].id, { amount }),
        );
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('RECEIPT_AMOUNT_NOT_POSITIVE');
        expect(res.body.errors).toEqual([{ field: 'amount', message: 'must be greater than 0' }]);
        const [{ n }] = await db.query(
          `SELECT count(*)::int AS n FROM receipts WHERE demand_id = $1`,
          [demand.id],
        );
        expect(n).toBe(0);
      },
    );

    it('accepts an empty transactionRef', async () => {
      const receipt = await recordReceipt(t, tenant, { transactionRef: '' });
      expect(receipt.transactionRef).toBe('');
    });

    it('refuses malformed JSON with 400', async () => {
      const res = await request(t.server)
        .post('/receipts')
        .set(as(tenant))
        .set('content-type', 'application/json')
        .send('{"amount": 1,');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('MALFORMED_JSON');
    });

    it("answers 404 for an unknown split and for another tenant's split", async () => {
      const foreign = await createDemand(t, other);
      const cross = await post(t, tenant, '/receipts', receiptBody(foreign.splits[0].id));
      expect(cross.status).toBe(404);
      expect(cross.body.code).toBe('DEMAND_SPLIT_NOT_FOUND');
      const unknown = await post(t, tenant, '/receipts', receiptBody(randomUUID()));
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('DEMAND_SPLIT_NOT_FOUND');
      const rows = await db.query(
        `SELECT paid_amount::text AS paid FROM demand_splits WHERE id = $1`,
        [foreign.splits[0].id],
      );
      expect(rows[0].paid).toBe('0.00');
    });

    it("answers 404 for another tenant's receipt", async () => {
      const receipt = await recordReceipt(t, tenant);
      const res = await get(t, other, `/receipts/${receipt.id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('RECEIPT_NOT_FOUND');
    });
  });

  it('finds a receipt by its id written in upper case, to read and to cancel', async () => {
    const receipt = await recordReceipt(t, tenant);
    const upper = receipt.id.toUpperCase();
    const read = await get(t, tenant, `/receipts/${upper}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(receipt.id);
    const cancelled = await post(t, tenant, `/receipts/${upper}/cancel`, {
      reason: 'Duplicate entry',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
  });

  describe('POST /receipts/{id}/cancel', () => {
    it('cancels: keeps the number, stays searchable as CANCELLED, and reverses split and demand', async () => {
      const demand = await createDemand(t, tenant, { splits: [split(1000), split(500)] });
      const [a] = demand.splits;
      const first = await recordReceipt(t, tenant, { demandSplit: a.id, amount: 250 });
      const before = await get(t, tenant, `/demands/${demand.id}`);
      const second = await recordReceipt(t, tenant, { demandSplit: a.id, amount: 750 });
      expect(second.demandSplitMeta.status).toBe('PAID');

      const res = await request(t.server)
        .post(`/receipts/${second.id}/cancel`)
        .set(as(tenant, { preferredUsername: 'arjun.mehta' }))
        .send({ reason: 'Cheque bounced' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: second.id,
        receiptNumber: second.receiptNumber,
        status: 'CANCELLED',
        amount: money(750, '750.00'),
        demandSplitMeta: {
          status: 'PARTIALLY_PAID',
          paidAmount: money(250, '250.00'),
          pendingAmount: money(750, '750.00'),
        },
        demandMeta: { status: 'PARTIALLY_PAID', receivedAmount: money(250, '250.00') },
      });
      const after = await get(t, tenant, `/demands/${demand.id}`);
      expect(after.body).toEqual(before.body);

      const cancelled = await searchReceipts(t, tenant, [
        { field: 'status', query: 'CANCELLED', type: 'EQUALS' },
        { field: 'demand', query: demand.id, type: 'EQUALS' },
      ]);
      expect(cancelled.map((r) => [r.id, r.receiptNumber, r.status])).toEqual([
        [second.id, second.receiptNumber, 'CANCELLED'],
      ]);
      const active = await searchReceipts(t, tenant, [
        { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
        { field: 'demand', query: demand.id, type: 'EQUALS' },
      ]);
      expect(active.map((r) => r.id)).toEqual([first.id]);

      const rows = await db.query(
        `SELECT status, status_reason, status_changed_by, status_changed_at IS NOT NULL AS has_time FROM receipts WHERE id = $1`,
        [second.id],
      );
      expect(rows[0]).toEqual({
        status: 'CANCELLED',
        status_reason: 'Cheque bounced',
        status_changed_by: 'arjun.mehta',
        has_time: true,
      });

      // the freed amount can be received again
      const again = await recordReceipt(t, tenant, { demandSplit: a.id, amount: 750 });
      expect(again.receiptNumber).not.toBe(second.receiptNumber);
      expect(again.demandSplitMeta.status).toBe('PAID');

      // cancelling everything on the split returns it to PENDING
      await cancelReceipt(t, tenant, first.id);
      const last = await cancelReceipt(t, tenant, again.id);
      expect(last.demandSplitMeta).toMatchObject({
        status: 'PENDING',
        paidAmount: money(0, '0.00'),
      });
      expect(last.demandMeta).toMatchObject({
        status: 'PENDING',
        receivedAmount: money(0, '0.00'),
      });
    });

    it('refuses to cancel twice with 409', async () => {
      const receipt = await recordReceipt(t, tenant, { amount: 10 });
      await cancelReceipt(t, tenant, receipt.id);
      const res = await post(t, tenant, `/receipts/${receipt.id}/cancel`, { reason: 'again' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('RECEIPT_NOT_ACTIVE');
      const split = await db.query(
        `SELECT paid_amount::text AS paid FROM demand_splits WHERE id = $1`,
        [receipt.demandSplit],
      );
      expect(split[0].paid).toBe('0.00');
    });

    it("answers 404 for another tenant's receipt and leaves it active", async () => {
      const receipt = await recordReceipt(t, tenant);
      const cross = await post(t, other, `/receipts/${receipt.id}/cancel`, { reason: 'x' });
      expect(cross.status).toBe(404);
      expect(cross.body.code).toBe('RECEIPT_NOT_FOUND');
      const unknown = await post(t, tenant, `/receipts/${randomUUID()}/cancel`, { reason: 'x' });
      expect(unknown.status).toBe(404);
      expect((await get(t, tenant, `/receipts/${receipt.id}`)).body.status).toBe('ACTIVE');
    });

    it.each([
      ['no reason', {}],
      ['an empty reason', { reason: '' }],
      ['a blank reason', { reason: '  ' }],
      ['a reason over 500 characters', { reason: 'x'.repeat(501) }],
      ['an unknown field', { reason: 'x', force: true }],
    ])('refuses %s with 400', async (_what, body) => {
      const receipt = await recordReceipt(t, tenant, { amount: 1 });
      const res = await post(t, tenant, `/receipts/${receipt.id}/cancel`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });

    it('refuses a receipt id that is not a UUID with 400', async () => {
      const res = await post(t, tenant, '/receipts/nope/cancel', { reason: 'x' });
      expect(res.status).toBe(400);
    });
  });
});
