import { randomBytes } from 'node:crypto';
import { TransactionHost } from '@nestjs-cls/transactional';
import { ClsService } from 'nestjs-cls';
import { seedDemoGst } from '@/seed/demo-gst';
import request from 'supertest';
import { get } from './support/factories';
import { as } from './support/tokens';
import { createTestApp, TestApp } from './support/test-app';

/** The GST demo tenant (docs/gst.md): what `npm start` seeds beside `demo` and `demo-b`. */
describe('the demo-gst tenant', () => {
  let t: TestApp;
  const key = `demo-gst-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    t = await createTestApp();
    const txHost = t.app.get<TransactionHost>(TransactionHost);
    await t.app.get(ClsService).run(() => txHost.withTransaction(() => seedDemoGst(t.app, key)));
  }, 60_000);
  afterAll(() => t?.close());

  interface Demand {
    id: string;
    chargeType: string;
    demandType: string;
    status: string;
    tax: { total: { amount: number } } | null;
    invoice: { number: string } | null;
    gstCreditTimeBarred: boolean;
  }

  it('has GST enabled, one booking of each class, taxed demands with invoices and a credit note', async () => {
    const gst = await get(t, key, '/tenant/gst');
    expect([gst.body.enabled, gst.body.stateCode]).toEqual([true, '27']);
    const bookings = await request(t.server).post('/bookings/search?size=50').set(as(key)).send([]);
    const classes = (bookings.body.content as { gstClass: string }[]).map((b) => b.gstClass).sort();
    expect(classes).toEqual(['AFFORDABLE', 'EXEMPT', 'STANDARD', 'STANDARD', 'STANDARD']);

    const res = await request(t.server).post('/demands/search?size=50').set(as(key)).send([]);
    const demands = res.body.content as Demand[];
    expect(demands.filter((d) => d.chargeType === 'OTHER_CHARGES' && d.tax)).toHaveLength(1);
    expect(demands.filter((d) => d.demandType === 'INTEREST' && d.tax)).toHaveLength(1);
    // The EXEMPT booking's construction demand is untaxed.
    expect(demands.filter((d) => d.tax === null)).toHaveLength(1);
    // The one raised in error, and the two of the bookings cancelled after payment.
    expect(demands.filter((d) => d.status === 'CANCELLED')).toHaveLength(3);
    for (const d of demands.filter((x) => x.tax)) {
      const invoice = await get(t, key, `/demands/${d.id}/invoice?format=json`);
      expect([invoice.status, invoice.body.number]).toEqual([200, d.invoice?.number]);
    }
    const notes = await get(t, key, '/credit-notes');
    expect(notes.body.totalElements).toBe(3);
  });

  it('has one refund due and one paid late, with interest', async () => {
    const due = await get(t, key, '/refunds?status=DUE');
    expect(due.body.content).toEqual([
      expect.objectContaining({ buyerName: 'Rohan Mehta', status: 'DUE', daysOverdue: 0 }),
    ]);
    const paid = await get(t, key, '/refunds?status=PAID');
    expect(paid.body.content).toEqual([
      expect.objectContaining({ buyerName: 'Kavya Reddy', status: 'PAID', daysOverdue: 35 }),
    ]);
    const [late] = paid.body.content as {
      cancellation: string;
      interestToday: { amount: number };
    }[];
    expect(late.interestToday.amount).toBeGreaterThan(0);
    const letter = await get(t, key, `/cancellations/${late.cancellation}/letter?format=json`);
    expect(letter.body.refundNote).toContain('with interest');
  });
});
