import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import {
  bookingBody,
  createBooking,
  createDemand,
  demandBody,
  post,
  receiptBody,
  split,
} from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Dates a person could not mean (a receipt from 2099, a booking from 1999, a demand due before
 * it was raised) are refused with 400 VALIDATION_FAILED naming the field, before anything is
 * numbered.
 */
describe('dates a person could not mean', () => {
  let t: TestApp;
  let tenant: string;
  let today: string;
  const daysFromToday = (days: number): string => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };

  beforeAll(async () => {
    t = await createTestApp();
    const created = await t.createTenant();
    tenant = created.key;
    today = formatLocalDate(localDateInZone(new Date(), created.timezone));
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectRefused = (res: { status: number; body: Record<string, unknown> }, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toEqual([expect.objectContaining({ field })]);
  };

  it('refuses a receipt received after today', async () => {
    const demand = await createDemand(t, tenant);
    const res = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { receivedDate: '2099-04-02' }),
    );
    expectRefused(res, 'receivedDate');
    const tomorrow = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { receivedDate: daysFromToday(1) }),
    );
    expectRefused(tomorrow, 'receivedDate');
    const ok = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { receivedDate: today }),
    );
    expect(ok.status).toBe(201);
  });

  it('refuses a receipt received before 2000-01-01', async () => {
    const demand = await createDemand(t, tenant);
    const res = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { receivedDate: '1999-12-31' }),
    );
    expectRefused(res, 'receivedDate');
  });

  it('refuses a payment received after today or before 2000-01-01', async () => {
    const booking = await createBooking(t, tenant);
    const payerId = (await createDemand(t, tenant, { booking: booking.id, splits: [split(1000)] }))
      .splits[0].payerId;
    for (const receivedDate of [daysFromToday(1), '1999-12-31']) {
      const res = await post(t, tenant, `/bookings/${booking.id}/payments`, {
        payerId,
        amount: 500,
        paymentMode: 'NEFT',
        transactionRef: 'UTR1',
        receivedDate,
        allocation: 'OLDEST_DUE_FIRST',
      });
      expectRefused(res, 'receivedDate');
    }
  });

  it('refuses a booking dated after today or before 2000-01-01', async () => {
    for (const bookingDate of ['2126-03-01', daysFromToday(1), '1999-12-31']) {
      const res = await post(t, tenant, '/bookings', bookingBody({ bookingDate }));
      expectRefused(res, 'bookingDate');
    }
    expect((await post(t, tenant, '/bookings', bookingBody({ bookingDate: today }))).status).toBe(
      201,
    );
  });

  it('refuses a demand due before its demandDate', async () => {
    const booking = await createBooking(t, tenant, { bookingDate: '2026-01-01' });
    const res = await post(
      t,
      tenant,
      '/demands',
      demandBody(booking.id, { demandDate: '2026-11-20', dueDate: '2026-01-01' }),
    );
    expectRefused(res, 'dueDate');
    const sameDay = await post(
      t,
      tenant,
      '/demands',
      demandBody(booking.id, { demandDate: '2026-11-20', dueDate: '2026-11-20' }),
    );
    expect(sameDay.status).toBe(201);
  });

  it("refuses a demand dated before its booking's bookingDate", async () => {
    const booking = await createBooking(t, tenant, { bookingDate: '2026-06-01' });
    const res = await post(
      t,
      tenant,
      '/demands',
      demandBody(booking.id, { demandDate: '2026-05-31', dueDate: '2026-12-01' }),
    );
    expectRefused(res, 'demandDate');
  });

  it('refuses an interest demand due before today', async () => {
    const booking = await createBooking(t, tenant, { bookingDate: '2026-01-01' });
    const res = await post(t, tenant, `/bookings/${booking.id}/interest-demands`, {
      asOf: today,
      dueDate: daysFromToday(-1),
    });
    expectRefused(res, 'dueDate');
  });
});
