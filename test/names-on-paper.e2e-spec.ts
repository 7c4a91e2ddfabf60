import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { binaryBody } from './support/binary-body';
import {
  bookingBody,
  createBooking,
  createDemand,
  demandBody,
  get,
  post,
  recordReceipt,
  split,
} from './support/factories';
import { pdfText } from './support/pdf-text';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Names on paper: a booking's unitName and a split's payerName are kept and shown, and every
 * printed document and letter prints names (the unit's id only when it has no name; a payer
 * without a name as the buyer, or its type's label) instead of ids.
 */
describe('names on paper', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  const UNIT_NAME = 'Tower B – 1203';

  const fileOf = (key: string, path: string) =>
    request(t.server).get(path).set(as(key)).buffer(true).parse(binaryBody);
  const pdfOf = async (key: string, path: string): Promise<string> => {
    const res = await fileOf(key, path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    // Lines may wrap: compare on single spaces.
    return (await pdfText(res.body as Buffer)).replace(/\s+/g, ' ');
  };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    other = await t.createTenant();
  });
  afterAll(() => t?.close());

  /** A named unit, a buyer split and a named bank split, both partly paid. */
  async function namedBooking() {
    const booking = await createBooking(t, tenant.key, {
      unitName: UNIT_NAME,
      buyerName: 'Kavya Menon',
      bookingDate: '2026-04-01',
    });
    const bankId = randomUUID();
    const demand = await createDemand(t, tenant.key, {
      booking: booking.id,
      demandDate: '2026-05-01',
      dueDate: '2026-06-01',
      splits: [
        split(200000),
        { ...split(300000, 'BANK', bankId), payerName: 'HDFC Bank, Andheri' } as never,
      ],
    });
    return { booking, demand, bankId };
  }

  describe('unitName and payerName are kept', () => {
    it('a booking takes an optional unitName of at most 100 characters, shown and searchable', async () => {
      const { booking } = await namedBooking();
      expect(booking).toMatchObject({ unitName: UNIT_NAME });
      expect((await get(t, tenant.key, `/bookings/${booking.id}`)).body.unitName).toBe(UNIT_NAME);
      const unnamed = await createBooking(t, tenant.key);
      expect(unnamed.unitName).toBeNull();

      const found = await post(t, tenant.key, '/bookings/search', [
        { field: 'unitName', query: UNIT_NAME, type: 'EQUALS' },
      ]);
      expect(found.status).toBe(200);
      expect(found.body.content.map((b: { id: string }) => b.id)).toContain(booking.id);
      // Another tenant's bookings are not found by their unit's name.
      const elsewhere = await post(t, other.key, '/bookings/search', [
        { field: 'unitName', query: UNIT_NAME, type: 'EQUALS' },
      ]);
      expect(elsewhere.body.content).toEqual([]);

      const long = await post(t, tenant.key, '/bookings', {
        ...bookingBody(),
        unitName: 'x'.repeat(101),
      });
      expect(long.status).toBe(400);
      expect(long.body.code).toBe('VALIDATION_FAILED');
      expect(long.body.errors).toEqual([expect.objectContaining({ field: 'unitName' })]);
    });

    it('a split takes an optional payerName of at most 200 characters, shown in demand views', async () => {
      const { demand } = await namedBooking();
      expect(demand.splits.map((s) => (s as unknown as { payerName: unknown }).payerName)).toEqual([
        null,
        'HDFC Bank, Andheri',
      ]);
      const again = await get(t, tenant.key, `/demands/${demand.id}`);
      expect(again.body.splits[1].payerName).toBe('HDFC Bank, Andheri');

      const booking = await createBooking(t, tenant.key);
      const long = await post(t, tenant.key, '/demands', {
        ...demandBody(booking.id),
        splits: [{ ...split(100), payerName: 'x'.repeat(201) }],
        totalAmount: 100,
      });
      expect(long.status).toBe(400);
      expect(long.body.errors).toEqual([expect.objectContaining({ field: 'splits.0.payerName' })]);
    });
  });

  describe('printed documents and letters print names, not ids', () => {
    it("the receipt PDF prints the unit's name and the payer's name", async () => {
      const { booking, demand } = await namedBooking();
      const bank = await recordReceipt(t, tenant.key, {
        demandSplit: demand.splits[1].id,
        amount: 1000,
        receivedDate: '2026-06-02',
      });
      const text = await pdfOf(tenant.key, `/receipts/${bank.id}/document`);
      expect(text).toContain(UNIT_NAME);
      expect(text).toContain('HDFC Bank, Andheri');
      expect(text).not.toContain(booking.unit);
      expect(text).not.toContain(demand.splits[1].payerId);
    });

    it("a payer without a name prints as the buyer or its type's label; a unit without one as its id", async () => {
      const booking = await createBooking(t, tenant.key, { bookingDate: '2026-04-01' });
      const demand = await createDemand(t, tenant.key, {
        booking: booking.id,
        splits: [split(1000, 'CO_BUYER'), split(1000, 'BANK')],
      });
      const coBuyer = await recordReceipt(t, tenant.key, {
        demandSplit: demand.splits[0].id,
        amount: 10,
      });
      const bank = await recordReceipt(t, tenant.key, {
        demandSplit: demand.splits[1].id,
        amount: 10,
      });
      const coBuyerText = await pdfOf(tenant.key, `/receipts/${coBuyer.id}/document`);
      expect(coBuyerText).toContain('Co-buyer');
      expect(coBuyerText).toContain(booking.unit);
      const bankText = await pdfOf(tenant.key, `/receipts/${bank.id}/document`);
      expect(bankText).toContain('Home-loan bank');
      expect(bankText).not.toContain(demand.splits[1].payerId);
    });

    it("the statement PDF prints the unit's name and, for one payer, the payer's name", async () => {
      const { booking, bankId } = await namedBooking();
      const all = await pdfOf(
        tenant.key,
        `/bookings/${booking.id}/statement?asOf=2026-06-30&format=pdf`,
      );
      expect(all).toContain(UNIT_NAME);
      expect(all).not.toContain(booking.unit);
      const bank = await pdfOf(
        tenant.key,
        `/bookings/${booking.id}/statement?asOf=2026-06-30&payerId=${bankId}&format=pdf`,
      );
      expect(bank).toContain('HDFC Bank, Andheri');
      expect(bank).not.toContain(bankId);
    });

    it("the demand letter (PDF and JSON) shows the unit's name and the payer's name", async () => {
      const { booking, demand, bankId } = await namedBooking();
      const path = `/demands/${demand.id}/letter?asOf=2026-06-30&payerId=${bankId}`;
      const json = await get(t, tenant.key, `${path}&format=json`);
      expect(json.status).toBe(200);
      expect(json.body.booking).toMatchObject({ unit: booking.unit, unitName: UNIT_NAME });
      expect(json.body.payer).toEqual({
        payerId: bankId,
        payerType: 'BANK',
        payerName: 'HDFC Bank, Andheri',
      });
      const text = await pdfOf(tenant.key, `${path}&format=pdf`);
      expect(text).toContain(UNIT_NAME);
      expect(text).toContain('HDFC Bank, Andheri');
      expect(text).not.toContain(booking.unit);
      expect(text).not.toContain(bankId);

      const buyer = await get(
        t,
        tenant.key,
        `/demands/${demand.id}/letter?asOf=2026-06-30&payerId=${demand.splits[0].payerId}&format=json`,
      );
      expect(buyer.body.payer.payerName).toBe('Kavya Menon');
    });
  });
});
