import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { cancelReceipt, createDemand, recordReceipt, split } from './support/factories';
import { pdfText } from './support/pdf-text';
import { binaryBody } from './support/binary-body';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

const textOf = pdfText;

/** GET /receipts/{id}/document (docs/api.md): the printed receipt as a PDF with real text. */
describe('GET /receipts/{id}/document', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;

  const documentOf = (key: string, path: string, headers: Record<string, string> = {}) =>
    request(t.server).get(path).set(as(key)).set(headers).buffer(true).parse(binaryBody);

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    other = await t.createTenant();
  });
  afterAll(() => t?.close());

  it('prints the receipt: number, payer, figures with ₹ and words, on A4', async () => {
    const demand = await createDemand(t, tenant.key, {
      splits: [split(200000), split(100000, 'BANK')],
    });
    const receipt = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[0].id,
      amount: 150000.5,
      paymentMode: 'NEFT',
      transactionRef: 'UTR20261122001234',
    });
    const res = await documentOf(tenant.key, `/receipts/${receipt.id}/document`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="receipt-${receipt.receiptNumber.replace(/\//g, '-')}.pdf"`,
    );
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    const text = await textOf(pdf);
    expect(text).toContain('RECEIPT');
    expect(text).toContain(receipt.receiptNumber);
    expect(text).toContain('Ananya Iyer');
    expect(text).toContain(demand.demandNumber);
    expect(text).toContain('UTR20261122001234');
    expect(text).toContain('₹ 1,50,000.50');
    expect(text).toContain('Rupees One Lakh Fifty Thousand and Fifty Paise Only');
    expect(text).not.toMatch(/CANCELLED|BOUNCED/);

    const bank = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[1].id,
      amount: 12500,
      paymentMode: 'RTGS',
    });
    const bankText = await textOf(
      (await documentOf(tenant.key, `/receipts/${bank.id}/document`)).body as Buffer,
    );
    expect(bankText).toContain('on behalf of Ananya Iyer');
    expect(bankText).toContain('Rupees Twelve Thousand Five Hundred Only');
  });

  it('prints the booking number', async () => {
    const receipt = await recordReceipt(t, tenant.key, { amount: 750 });
    const booking = await request(t.server).get(`/bookings/${receipt.booking}`).set(as(tenant.key));
    expect(booking.status).toBe(200);
    const text = await textOf(
      (await documentOf(tenant.key, `/receipts/${receipt.id}/document`)).body as Buffer,
    );
    expect(text).toContain(booking.body.bookingNumber);
  });

  it('says CANCELLED or BOUNCED prominently, with the reason, and the ETag changes', async () => {
    const cheque = await recordReceipt(t, tenant.key, { paymentMode: 'CHEQUE', amount: 500 });
    const before = await documentOf(tenant.key, `/receipts/${cheque.id}/document`);
    const bounced = await request(t.server)
      .post(`/receipts/${cheque.id}/bounce`)
      .set(as(tenant.key))
      .send({ reason: 'Insufficient funds', bouncedOn: '2026-11-25' });
    expect(bounced.status).toBe(200);
    const after = await documentOf(tenant.key, `/receipts/${cheque.id}/document`);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const text = await textOf(after.body as Buffer);
    expect(text).toContain('BOUNCED');
    expect(text).toContain('Insufficient funds');

    const cash = await recordReceipt(t, tenant.key, { paymentMode: 'CASH', amount: 19 });
    await cancelReceipt(t, tenant.key, cash.id, 'Entered twice');
    const cancelled = await textOf(
      (await documentOf(tenant.key, `/receipts/${cash.id}/document`)).body as Buffer,
    );
    expect(cancelled).toContain('CANCELLED');
    expect(cancelled).toContain('Entered twice');
    expect(cancelled).toContain('Rupees Nineteen Only');
  });

  it('answers 304 to a matching If-None-Match and downloads with download=1', async () => {
    const receipt = await recordReceipt(t, tenant.key);
    const first = await documentOf(tenant.key, `/receipts/${receipt.id}/document`);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await documentOf(tenant.key, `/receipts/${receipt.id}/document`);
    expect(again.headers.etag).toBe(etag);
    // The same bytes each time: the file's dates are the receipt's creation time.
    expect((again.body as Buffer).equals(first.body as Buffer)).toBe(true);
    const notModified = await documentOf(tenant.key, `/receipts/${receipt.id}/document`, {
      'If-None-Match': `W/"other", ${etag}`,
    });
    expect(notModified.status).toBe(304);
    const download = await documentOf(tenant.key, `/receipts/${receipt.id}/document?download=1`);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="receipt-.+\.pdf"$/,
    );
    for (const [value, disposition] of [
      ['true', 'attachment'],
      ['0', 'inline'],
      ['false', 'inline'],
    ]) {
      const res = await documentOf(
        tenant.key,
        `/receipts/${receipt.id}/document?download=${value}`,
      );
      expect([value, res.headers['content-disposition']?.split(';')[0]]).toEqual([
        value,
        disposition,
      ]);
    }
    // Names of Object.prototype's members are not values either.
    for (const value of ['yes', 'constructor', '__proto__', 'toString', '1&download=0']) {
      const bad = await request(t.server)
        .get(`/receipts/${receipt.id}/document?download=${value}`)
        .set(as(tenant.key));
      expect([value, bad.status, bad.body.errors?.[0]?.field]).toEqual([value, 400, 'download']);
    }
  });

  it("refuses another tenant's receipt, no token and no read scope", async () => {
    const receipt = await recordReceipt(t, tenant.key);
    const theirs = await request(t.server)
      .get(`/receipts/${receipt.id}/document`)
      .set(as(other.key));
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('RECEIPT_NOT_FOUND');
    expect((await request(t.server).get(`/receipts/${receipt.id}/document`)).status).toBe(401);
    const writer = await request(t.server)
      .get(`/receipts/${receipt.id}/document`)
      .set(as(tenant.key, { scope: 'receipts:write' }));
    expect(writer.status).toBe(403);
  });
});
