import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request, { Response, Test } from 'supertest';
import { OpenApiContract } from './support/openapi-contract';
import {
  bookingBody,
  createBooking,
  createDemand,
  demandBody,
  receiptBody,
  split,
} from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Every route's live responses, success and error, against the committed openapi.json: the
 * status is documented for the operation, the content type is the documented one
 * (application/json or application/problem+json) and the body matches the schema.
 * (503 is exercised by database-outage.e2e-spec.ts, which stops a real PostgreSQL.)
 */
describe('live responses match the committed OpenAPI document', () => {
  const contract = new OpenApiContract();
  let t: TestApp;
  let tenant: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = (await t.createTenant()).key;
    other = (await t.createTenant()).key;
  });
  afterAll(() => t?.close());

  const call = async (operation: string, test: Test): Promise<Response> => {
    const res = await test;
    contract.check(operation, res);
    return res;
  };
  const http = () => request(t.server);

  it('health routes are public and documented', async () => {
    await call('GET /health/live', http().get('/health/live'));
    await call('GET /health/ready', http().get('/health/ready'));
    const unknown = await call('GET /health/ready', http().get('/health/ready?verbose=1'));
    expect(unknown.status).toBe(400);
    expect((await call('GET /health/live', http().get('/health/live?verbose=1'))).status).toBe(400);
    expect((await call('GET /metrics', http().get('/metrics'))).status).toBe(200);
    expect((await call('GET /metrics', http().get('/metrics?tenant=x'))).status).toBe(400);
  });

  it('bookings: 201, 200, 400, 401, 403, 404 (another tenant), 413, 415, 422', async () => {
    const created = await call(
      'POST /bookings',
      http().post('/bookings').set(as(tenant)).send(bookingBody()),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(
      (await call('GET /bookings/{id}', http().get(`/bookings/${id}`).set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (await call('GET /bookings/{id}', http().get(`/bookings/${id}`).set(as(other)))).status,
    ).toBe(404);
    expect(
      (await call('GET /bookings/{id}', http().get('/bookings/not-a-uuid').set(as(tenant)))).status,
    ).toBe(400);
    expect((await call('GET /bookings/{id}', http().get(`/bookings/${id}`))).status).toBe(401);
    const wrongTenant = http()
      .get(`/bookings/${id}`)
      .set({ ...as(other), 'x-tenant-id': tenant });
    expect((await call('GET /bookings/{id}', wrongTenant)).status).toBe(403);
    const invalid = http()
      .post('/bookings')
      .set(as(tenant))
      .send({ ...bookingBody(), unit: 'x' });
    expect((await call('POST /bookings', invalid)).status).toBe(400);
    const tooLarge = http()
      .post('/bookings')
      .set(as(tenant))
      .send({ ...bookingBody(), buyerName: 'x'.repeat(2_000_000) });
    expect((await call('POST /bookings', tooLarge)).status).toBe(413);
    const textBody = http()
      .post('/bookings')
      .set(as(tenant))
      .set('content-type', 'text/plain')
      .send('hello');
    expect((await call('POST /bookings', textBody)).status).toBe(415);
    const key = randomUUID();
    await http().post('/bookings').set(as(tenant)).set('Idempotency-Key', key).send(bookingBody());
    const reused = http()
      .post('/bookings')
      .set(as(tenant))
      .set('Idempotency-Key', key)
      .send(bookingBody({ buyerName: 'Someone Else' }));
    expect((await call('POST /bookings', reused)).status).toBe(422);
  });

  it('PATCH /bookings/{id}: 200, 400 (unknown field, GSTIN_INVALID), 404 (another tenant), 409', async () => {
    const booking = await createBooking(t, tenant);
    const patch = (key: string, id: string, body: object) =>
      http().patch(`/bookings/${id}`).set(as(key)).send(body);
    const changed = await call(
      'PATCH /bookings/{id}',
      patch(tenant, booking.id, {
        carpetAreaSqm: 58.5,
        metroCity: true,
        agreementValue: 4500000,
        buyerGstin: '27AAPFU0939F1ZV',
        buyerAddress: 'Flat 7, Sea Breeze, Mumbai 400050',
        allotmentDate: '2025-05-01',
      }),
    );
    expect(changed.status).toBe(200);
    expect((changed.body as { gstClass: string }).gstClass).toBe('AFFORDABLE');
    const cleared = await call(
      'PATCH /bookings/{id}',
      patch(tenant, booking.id, { carpetAreaSqm: null, buyerGstin: null, unitName: null }),
    );
    expect(cleared.status).toBe(200);
    expect(
      (await call('PATCH /bookings/{id}', patch(tenant, booking.id, { buyerName: 'X' }))).status,
    ).toBe(400);
    const gstin = await call(
      'PATCH /bookings/{id}',
      patch(tenant, booking.id, { buyerGstin: '27AAPFU0939F1ZW' }),
    );
    expect((gstin.body as { code: string }).code).toBe('GSTIN_INVALID');
    expect(
      (await call('PATCH /bookings/{id}', patch(other, booking.id, { metroCity: true }))).status,
    ).toBe(404);
    await http()
      .post(`/bookings/${booking.id}/cancel`)
      .set(as(tenant))
      .send({ reason: 'Withdrawn' });
    expect(
      (await call('PATCH /bookings/{id}', patch(tenant, booking.id, { metroCity: true }))).status,
    ).toBe(409);
  });

  it('GST settings: 200 with an ETag, 400 (GSTIN_INVALID, VALIDATION_FAILED), 412, 422, history', async () => {
    // A tenant of its own: GST enabled taxes every later demand of the tenant it is set on.
    const gst = (await t.createTenant()).key;
    const read = await call('GET /tenant/gst', http().get('/tenant/gst').set(as(gst)));
    expect(read.status).toBe(200);
    expect((await call('GET /tenant/gst', http().get('/tenant/gst'))).status).toBe(401);
    const settings = {
      enabled: true,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Skyline Developers Private Limited',
      address: 'Skyline House, Lower Parel, Mumbai 400013',
      lockedThrough: '2026-09',
      annualReturns: [{ financialYear: '2025-26', filedOn: '2026-11-15' }],
    };
    const put = (body: object, ifMatch = '*') =>
      http().put('/tenant/gst').set(as(gst)).set('If-Match', ifMatch).send(body);
    expect((await call('PUT /tenant/gst', put(settings, read.headers.etag))).status).toBe(200);
    expect((await call('PUT /tenant/gst', put(settings, read.headers.etag))).status).toBe(412);
    const invalid = await call('PUT /tenant/gst', put({ ...settings, gstin: '27AAPFU0939F1ZW' }));
    expect((invalid.body as { code: string }).code).toBe('GSTIN_INVALID');
    expect((await call('PUT /tenant/gst', put({ ...settings, otherChargesSac: '1' }))).status).toBe(
      400,
    );
    expect((await call('PUT /tenant/gst', put({ enabled: true }))).status).toBe(422);
    const history = await call(
      'GET /tenant/gst/history',
      http().get('/tenant/gst/history').set(as(gst)),
    );
    expect(history.status).toBe(200);
    expect((history.body as unknown[]).length).toBeGreaterThan(0);
    expect((await call('GET /tenant/gst/history', http().get('/tenant/gst/history'))).status).toBe(
      401,
    );
  });

  it('books: settings (200 with an ETag, 400, 412) and vouchers (CSV, Tally, masters, 400)', async () => {
    const books = (await t.createTenant()).key;
    const read = await call('GET /tenant/books', http().get('/tenant/books').set(as(books)));
    expect(read.status).toBe(200);
    expect((await call('GET /tenant/books', http().get('/tenant/books'))).status).toBe(401);
    const put = (body: object, ifMatch = '*') =>
      http().put('/tenant/books').set(as(books)).set('If-Match', ifMatch).send(body);
    const settings = { ledgers: { bank: 'HDFC Collection' } };
    expect((await call('PUT /tenant/books', put(settings, read.headers.etag))).status).toBe(200);
    expect((await call('PUT /tenant/books', put(settings, read.headers.etag))).status).toBe(412);
    expect((await call('PUT /tenant/books', put({ partyLedger: '{buyerName}' }))).status).toBe(400);
    const vouchers = (query: string) =>
      http().get(`/books/vouchers?${query}`).set(as(books)).buffer(true);
    for (const format of ['csv', 'tally', 'tally-masters']) {
      const res = await call(
        'GET /books/vouchers',
        vouchers(`from=2026-04-01&to=2027-03-31&format=${format}`),
      );
      expect(res.status).toBe(200);
    }
    expect((await call('GET /books/vouchers', vouchers('from=2026-04-01'))).status).toBe(400);
  });

  it('GST documents: an invoice, credit notes (200 JSON and PDF, 400, 404)', async () => {
    const gst = (await t.createTenant()).key;
    const settings = {
      enabled: true,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Skyline Developers Private Limited',
      address: 'Skyline House, Lower Parel, Mumbai 400013',
    };
    expect((await http().put('/tenant/gst').set(as(gst)).send(settings)).status).toBe(200);
    const demand = await createDemand(t, gst, { splits: [split(1000)] });
    const invoice = (path: string, who = gst) => http().get(path).set(as(who));
    const op = 'GET /demands/{id}/invoice';
    expect((await call(op, invoice(`/demands/${demand.id}/invoice?format=json`))).status).toBe(200);
    expect((await call(op, invoice(`/demands/${demand.id}/invoice`))).status).toBe(200);
    expect((await call(op, invoice(`/demands/${demand.id}/invoice?format=x`))).status).toBe(400);
    expect(
      (await call(op, invoice(`/demands/${demand.id}/invoice?format=json`, tenant))).status,
    ).toBe(404);
    const cancel = await http()
      .post(`/demands/${demand.id}/cancel`)
      .set(as(gst))
      .send({ reason: 'Raised in error' });
    expect(cancel.status).toBe(200);
    const list = await call('GET /credit-notes', invoice('/credit-notes'));
    expect(list.status).toBe(200);
    expect((await call('GET /credit-notes', invoice('/credit-notes?size=0'))).status).toBe(400);
    const id = (list.body as { content: { id: string }[] }).content[0].id;
    const one = 'GET /credit-notes/{id}';
    expect((await call(one, invoice(`/credit-notes/${id}?format=json`))).status).toBe(200);
    expect((await call(one, invoice(`/credit-notes/${id}`))).status).toBe(200);
    expect((await call(one, invoice(`/credit-notes/${id}?format=json`, tenant))).status).toBe(404);
    // GSTR-1 of this month: the invoice and its credit note.
    const gstr1 = 'GET /gst/gstr1';
    const period = `period=${(demand.invoice as { date: string }).date.slice(0, 7)}`;
    const json = await call(gstr1, invoice(`/gst/gstr1?${period}`));
    expect([json.status, (json.body as { doc_issue?: unknown }).doc_issue]).toEqual([
      200,
      expect.anything(),
    ]);
    const xlsx = invoice(`/gst/gstr1?${period}&format=xlsx`).buffer(true);
    expect((await call(gstr1, xlsx)).status).toBe(200);
    expect((await call(gstr1, invoice('/gst/gstr1?period=2026-13'))).status).toBe(400);
  });

  it('cancellations: policy, quote, cancel, refund, queue and letter (200/201, 400, 404, 409, 412, 422)', async () => {
    const desk = (await t.createTenant()).key;
    const policy = await call(
      'GET /tenant/cancellation-policy',
      http().get('/tenant/cancellation-policy').set(as(desk)),
    );
    expect(policy.status).toBe(200);
    expect(
      (await call('GET /tenant/cancellation-policy', http().get('/tenant/cancellation-policy')))
        .status,
    ).toBe(401);
    const putPolicy = (body: object, ifMatch?: string) => {
      const req = http().put('/tenant/cancellation-policy').set(as(desk));
      if (ifMatch) req.set('If-Match', ifMatch);
      return req.send(body);
    };
    expect(
      (
        await call(
          'PUT /tenant/cancellation-policy',
          putPolicy({ refundDays: 30 }, policy.headers.etag),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          'PUT /tenant/cancellation-policy',
          putPolicy({ refundDays: 45 }, policy.headers.etag),
        )
      ).status,
    ).toBe(412);
    expect((await call('PUT /tenant/cancellation-policy', putPolicy({ rule: 'X' }))).status).toBe(
      400,
    );
    const history = 'GET /tenant/cancellation-policy/history';
    expect((await call(history, http().get('/tenant/cancellation-policy/history'))).status).toBe(
      401,
    );
    expect(
      (await call(history, http().get('/tenant/cancellation-policy/history').set(as(desk)))).status,
    ).toBe(200);

    const booking = await createBooking(t, desk, { agreementValue: 8000000 });
    const noValue = await createBooking(t, desk);
    const demand = await createDemand(t, desk, { booking: booking.id, splits: [split(1000)] });
    await http()
      .post('/receipts')
      .set(as(desk))
      .send(receiptBody(demand.splits[0].id, { amount: 1000 }));
    const quote = 'GET /bookings/{id}/cancellation-quote';
    const q = (id: string, query = '') =>
      http().get(`/bookings/${id}/cancellation-quote${query}`).set(as(desk));
    expect((await call(quote, q(booking.id))).status).toBe(200);
    expect((await call(quote, q(booking.id, '?requestedOn=x'))).status).toBe(400);
    expect((await call(quote, q(noValue.id))).status).toBe(422);
    expect(
      (await call(quote, http().get(`/bookings/${booking.id}/cancellation-quote`).set(as(tenant))))
        .status,
    ).toBe(404);
    const of = 'GET /bookings/{id}/cancellation';
    expect(
      (await call(of, http().get(`/bookings/${booking.id}/cancellation`).set(as(desk)))).status,
    ).toBe(404);
    const post = 'POST /bookings/{id}/cancellations';
    const cancel = (id: string, initiatedBy = 'BUYER') =>
      http()
        .post(`/bookings/${id}/cancellations`)
        .set(as(desk))
        .send({ reason: 'Possession late', initiatedBy });
    const created = await call(post, cancel(booking.id, 'PROMOTER_DEFAULT'));
    expect(created.status).toBe(201);
    expect((await call(post, cancel(booking.id))).status).toBe(409);
    expect((await call(post, cancel(noValue.id))).status).toBe(422);
    const id = (created.body as { id: string }).id;
    expect(
      (await call(of, http().get(`/bookings/${booking.id}/cancellation`).set(as(desk)))).status,
    ).toBe(200);
    const one = 'GET /cancellations/{id}';
    expect((await call(one, http().get(`/cancellations/${id}`).set(as(desk)))).status).toBe(200);
    expect((await call(one, http().get(`/cancellations/${id}`).set(as(tenant)))).status).toBe(404);
    const letter = 'GET /cancellations/{id}/letter';
    expect(
      (await call(letter, http().get(`/cancellations/${id}/letter?format=json`).set(as(desk))))
        .status,
    ).toBe(200);
    expect(
      (await call(letter, http().get(`/cancellations/${id}/letter`).set(as(desk)).buffer(true)))
        .status,
    ).toBe(200);
    expect(
      (await call(letter, http().get(`/cancellations/${id}/letter?format=x`).set(as(desk)))).status,
    ).toBe(400);
    const queue = 'GET /refunds';
    expect((await call(queue, http().get('/refunds').set(as(desk)))).status).toBe(200);
    expect((await call(queue, http().get('/refunds?status=LATE').set(as(desk)))).status).toBe(400);
    const refund = 'POST /cancellations/{id}/refund';
    const pay = (mode: string) =>
      http()
        .post(`/cancellations/${id}/refund`)
        .set(as(desk))
        .send({ paidOn: created.body.cancelledOn, paymentMode: mode, transactionRef: 'UTR1' });
    expect((await call(refund, pay('TDS'))).status).toBe(400);
    expect((await call(refund, pay('NEFT'))).status).toBe(200);
    expect((await call(refund, pay('NEFT'))).status).toBe(409);
  });

  it('demands: 201, 200, 404 (unknown and another tenant), 422', async () => {
    const booking = await createBooking(t, tenant);
    const created = await call(
      'POST /demands',
      http()
        .post('/demands')
        .set(as(tenant))
        .send(demandBody(booking.id, { splits: [split(600), split(400, 'BANK')] })),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(
      (await call('GET /demands/{id}', http().get(`/demands/${id}`).set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (await call('GET /demands/{id}', http().get(`/demands/${id}`).set(as(other)))).status,
    ).toBe(404);
    const otherTenantsBooking = http().post('/demands').set(as(other)).send(demandBody(booking.id));
    expect((await call('POST /demands', otherTenantsBooking)).status).toBe(404);
    const mismatch = http()
      .post('/demands')
      .set(as(tenant))
      .send({ ...demandBody(booking.id), totalAmount: 1 });
    expect((await call('POST /demands', mismatch)).status).toBe(422);
  });

  it('receipts: 201, 200, 404, 409, 422, search 200 and 400', async () => {
    const demand = await createDemand(t, tenant, { splits: [split(5000)] });
    const splitId = demand.splits[0].id;
    const created = await call(
      'POST /receipts',
      http()
        .post('/receipts')
        .set(as(tenant))
        .send(receiptBody(splitId, { amount: 1500.5 })),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const tooMuch = http()
      .post('/receipts')
      .set(as(tenant))
      .send(receiptBody(splitId, { amount: 999999 }));
    expect((await call('POST /receipts', tooMuch)).status).toBe(422);
    const otherSplit = http().post('/receipts').set(as(other)).send(receiptBody(splitId));
    expect((await call('POST /receipts', otherSplit)).status).toBe(404);

    expect(
      (await call('GET /receipts/{id}', http().get(`/receipts/${id}`).set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (await call('GET /receipts/{id}', http().get(`/receipts/${id}`).set(as(other)))).status,
    ).toBe(404);

    const search = http()
      .post('/receipts/search?page=0&size=5&sort=amount,desc&sort=id')
      .set(as(tenant))
      .send([{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }]);
    const page = await call('POST /receipts/search', search);
    expect(page.status).toBe(200);
    expect((page.body as { totalElements: number }).totalElements).toBe(1);
    const otherSees = await call(
      'POST /receipts/search',
      http().post('/receipts/search').set(as(other)).send([]),
    );
    expect((otherSees.body as { totalElements: number }).totalElements).toBe(0);
    const badSort = http().post('/receipts/search?sort=nope,desc').set(as(tenant)).send([]);
    expect((await call('POST /receipts/search', badSort)).status).toBe(400);

    const summary = http()
      .post('/receipts/summary?groupBy=paymentMode')
      .set(as(tenant))
      .send([{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }]);
    expect((await call('POST /receipts/summary', summary)).status).toBe(200);
    const badGroup = http().post('/receipts/summary?groupBy=unit').set(as(tenant)).send([]);
    expect((await call('POST /receipts/summary', badGroup)).status).toBe(400);

    const pdf = http().get(`/receipts/${id}/document`).set(as(tenant));
    expect((await call('GET /receipts/{id}/document', pdf)).status).toBe(200);
    const theirPdf = http().get(`/receipts/${id}/document`).set(as(other));
    expect((await call('GET /receipts/{id}/document', theirPdf)).status).toBe(404);

    const csv = http().post('/receipts/export?format=csv').set(as(tenant)).send([]);
    expect((await call('POST /receipts/export', csv)).status).toBe(200);
    const xlsx = http().post('/receipts/export?format=xlsx').set(as(tenant)).send([]);
    expect((await call('POST /receipts/export', xlsx)).status).toBe(200);
    const badFormat = http().post('/receipts/export?format=pdf').set(as(tenant)).send([]);
    expect((await call('POST /receipts/export', badFormat)).status).toBe(400);

    const cancel = (tenantKey: string) =>
      http().post(`/receipts/${id}/cancel`).set(as(tenantKey)).send({ reason: 'Cheque bounced' });
    expect((await call('POST /receipts/{id}/cancel', cancel(other))).status).toBe(404);
    expect((await call('POST /receipts/{id}/cancel', cancel(tenant))).status).toBe(200);
    expect((await call('POST /receipts/{id}/cancel', cancel(tenant))).status).toBe(409);
  });

  it('bounce and cancels: 200, 404, 409, 422', async () => {
    const demand = await createDemand(t, tenant, { splits: [split(5000)] });
    const cheque = await http()
      .post('/receipts')
      .set(as(tenant))
      .send(receiptBody(demand.splits[0].id, { amount: 100, paymentMode: 'CHEQUE' }));
    const id = (cheque.body as { id: string }).id;
    const bounce = (key: string, body: object) =>
      http().post(`/receipts/${id}/bounce`).set(as(key)).send(body);
    const early = bounce(tenant, { reason: 'x', bouncedOn: '2020-01-01' });
    expect((await call('POST /receipts/{id}/bounce', early)).status).toBe(422);
    const theirs = bounce(other, { reason: 'x', bouncedOn: '2026-11-25' });
    expect((await call('POST /receipts/{id}/bounce', theirs)).status).toBe(404);
    const charged = bounce(tenant, { reason: 'x', bouncedOn: '2026-11-25', charges: 500 });
    expect((await call('POST /receipts/{id}/bounce', charged)).status).toBe(200);
    const again = bounce(tenant, { reason: 'x', bouncedOn: '2026-11-25' });
    expect((await call('POST /receipts/{id}/bounce', again)).status).toBe(409);

    const cancelDemand = (key: string) =>
      http().post(`/demands/${demand.id}/cancel`).set(as(key)).send({ reason: 'Re-issued' });
    expect((await call('POST /demands/{id}/cancel', cancelDemand(other))).status).toBe(404);
    expect((await call('POST /demands/{id}/cancel', cancelDemand(tenant))).status).toBe(200);
    expect((await call('POST /demands/{id}/cancel', cancelDemand(tenant))).status).toBe(409);

    const cancelBooking = (key: string) =>
      http().post(`/bookings/${demand.booking}/cancel`).set(as(key)).send({ reason: 'Withdrawn' });
    expect((await call('POST /bookings/{id}/cancel', cancelBooking(other))).status).toBe(404);
    expect((await call('POST /bookings/{id}/cancel', cancelBooking(tenant))).status).toBe(200);
    expect((await call('POST /bookings/{id}/cancel', cancelBooking(tenant))).status).toBe(409);
  });

  it('one payment over many dues: 201, 400, 404, 422', async () => {
    const payerId = randomUUID();
    const demand = await createDemand(t, tenant, { splits: [split(500.5, 'BUYER', payerId)] });
    const payment = (key: string, booking: string, body: object) =>
      http().post(`/bookings/${booking}/payments`).set(as(key)).send(body);
    const body = (amount: number, allocation: unknown = 'OLDEST_DUE_FIRST') => ({
      payerId,
      amount,
      paymentMode: 'NEFT',
      transactionRef: 'UTR1',
      receivedDate: '2026-11-22',
      allocation,
    });
    const op = 'POST /bookings/{id}/payments';
    expect((await call(op, payment(tenant, demand.booking, body(100)))).status).toBe(201);
    const listed = body(0.5, [{ demandSplit: demand.splits[0].id, amount: 0.5 }]);
    expect((await call(op, payment(tenant, demand.booking, listed))).status).toBe(201);
    expect((await call(op, payment(tenant, demand.booking, body(401)))).status).toBe(422);
    expect((await call(op, payment(tenant, demand.booking, body(1, 'x')))).status).toBe(400);
    expect((await call(op, payment(other, demand.booking, body(1)))).status).toBe(404);
  });

  it('demand and booking search: 200 and 400', async () => {
    for (const resource of ['demands', 'bookings']) {
      const operation = `POST /${resource}/search`;
      const ok = http().post(`/${resource}/search?size=5`).set(as(tenant)).send([]);
      expect((await call(operation, ok)).status).toBe(200);
      const bad = http().post(`/${resource}/search?sort=nope`).set(as(tenant)).send([]);
      expect((await call(operation, bad)).status).toBe(400);
    }
  });

  it('events: 200 and 400', async () => {
    const ok = http().get('/events?after=0&limit=5').set(as(tenant));
    expect((await call('GET /events', ok)).status).toBe(200);
    const bad = http().get('/events?limit=0').set(as(tenant));
    expect((await call('GET /events', bad)).status).toBe(400);
  });

  it('receivables ageing: 200 (grouped) and 400', async () => {
    await createDemand(t, tenant, { dueDate: '2026-01-31', demandDate: '2026-01-01' });
    const operation = 'GET /receivables/ageing';
    const ok = http().get('/receivables/ageing?groupBy=booking&size=5').set(as(tenant));
    const grouped = await call(operation, ok);
    expect(grouped.status).toBe(200);
    expect((grouped.body as { groups: unknown[] }).groups.length).toBeGreaterThan(0);
    const bad = http().get('/receivables/ageing?buckets=90,30').set(as(tenant));
    expect((await call(operation, bad)).status).toBe(400);
  });

  it('interest: policy 200, 400, 412, history; booking interest, demands and waivers 201, 400, 404, 422', async () => {
    const read = await call(
      'GET /tenant/interest-policy',
      http().get('/tenant/interest-policy').set(as(tenant)),
    );
    expect(read.status).toBe(200);
    expect(
      (await call('GET /tenant/interest-policy', http().get('/tenant/interest-policy'))).status,
    ).toBe(401);
    const policy = {
      enabled: true,
      graceDays: 0,
      rates: [
        { effectiveFrom: '2025-04-01', annualRatePercent: 10.85 },
        { effectiveFrom: '2025-11-01', annualRatePercent: 10.65 },
      ],
      demandTypes: ['MILESTONE', 'MANUAL'],
      payerTypes: ['BUYER', 'CO_BUYER'],
    };
    const put = (body: object, ifMatch: string) =>
      http().put('/tenant/interest-policy').set(as(tenant)).set('If-Match', ifMatch).send(body);
    expect((await call('PUT /tenant/interest-policy', put(policy, read.headers.etag))).status).toBe(
      200,
    );
    expect((await call('PUT /tenant/interest-policy', put(policy, read.headers.etag))).status).toBe(
      412,
    );
    expect(
      (await call('PUT /tenant/interest-policy', put({ ...policy, rates: [] }, '*'))).status,
    ).toBe(400);
    const history = http().get('/tenant/interest-policy/history');
    expect(
      (await call('GET /tenant/interest-policy/history', history.set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (
        await call(
          'GET /tenant/interest-policy/history',
          http().get('/tenant/interest-policy/history'),
        )
      ).status,
    ).toBe(401);

    const payerId = randomUUID();
    const demand = await createDemand(t, tenant, {
      dueDate: '2026-01-01',
      demandDate: '2025-12-01',
      splits: [split(100000, 'BUYER', payerId)],
    });
    const path = `/bookings/${demand.booking}`;
    const view = await call(
      'GET /bookings/{id}/interest',
      http().get(`${path}/interest?asOf=2026-03-31`).set(as(tenant)),
    );
    expect(view.status).toBe(200);
    expect((view.body as { splits: { periods: unknown[] }[] }).splits[0].periods).toHaveLength(1);
    expect(
      (
        await call(
          'GET /bookings/{id}/interest',
          http().get(`${path}/interest?asOf=x`).set(as(tenant)),
        )
      ).status,
    ).toBe(400);
    expect(
      (await call('GET /bookings/{id}/interest', http().get(`${path}/interest`).set(as(other))))
        .status,
    ).toBe(404);

    const raise = (key: string, body: object) =>
      http().post(`${path}/interest-demands`).set(as(key)).send(body);
    const body = { asOf: '2026-03-31', dueDate: '2026-12-15' };
    const op = 'POST /bookings/{id}/interest-demands';
    expect((await call(op, raise(tenant, body))).status).toBe(201);
    expect((await call(op, raise(tenant, body))).status).toBe(422);
    expect((await call(op, raise(tenant, { asOf: '2026-03-31' }))).status).toBe(400);
    expect((await call(op, raise(other, body))).status).toBe(404);

    const waive = (key: string, amount: number) =>
      http()
        .post(`${path}/interest-waivers`)
        .set(as(key))
        .send({ payerId, amount, reason: 'Goodwill' });
    const waiver = 'POST /bookings/{id}/interest-waivers';
    expect((await call(waiver, waive(tenant, 10))).status).toBe(201);
    expect((await call(waiver, waive(tenant, 99999999))).status).toBe(422);
    expect((await call(waiver, waive(tenant, 0))).status).toBe(400);
    expect((await call(waiver, waive(other, 1))).status).toBe(404);
  });

  it('statement of account: 200 as JSON, PDF and XLSX; 400; 404 (another tenant)', async () => {
    const demand = await createDemand(t, tenant, { demandDate: '2026-03-01' });
    const cheque = await http()
      .post('/receipts')
      .set(as(tenant))
      .send(
        receiptBody(demand.splits[0].id, { paymentMode: 'CHEQUE', receivedDate: '2026-03-05' }),
      );
    expect(cheque.status).toBe(201);
    const bounced = await http()
      .post(`/receipts/${(cheque.body as { id: string }).id}/bounce`)
      .set(as(tenant))
      .send({ reason: 'Insufficient funds', bouncedOn: '2026-03-10' });
    expect(bounced.status).toBe(200);
    const op = 'GET /bookings/{id}/statement';
    const path = `/bookings/${demand.booking}/statement`;
    const json = await call(op, http().get(`${path}?from=2026-03-02`).set(as(tenant)));
    expect(json.status).toBe(200);
    expect((json.body as { entries: unknown[] }).entries).toHaveLength(2);
    for (const format of ['pdf', 'xlsx']) {
      const file = http().get(`${path}?format=${format}`).set(as(tenant)).buffer(true);
      expect((await call(op, file)).status).toBe(200);
    }
    expect((await call(op, http().get(`${path}?to=2026-13-01`).set(as(tenant)))).status).toBe(400);
    expect((await call(op, http().get(path).set(as(other)))).status).toBe(404);
  });

  it('webhooks: 201, 200, 204, 400, 404 (another tenant)', async () => {
    const url = 'http://127.0.0.1:9/hooks';
    const created = await call(
      'POST /webhooks',
      http()
        .post('/webhooks')
        .set(as(tenant))
        .send({ url, events: ['receipt.recorded'] }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const bad = http()
      .post('/webhooks')
      .set(as(tenant))
      .send({ url: 'ftp://x', events: ['*'] });
    expect((await call('POST /webhooks', bad)).status).toBe(400);
    expect((await call('GET /webhooks', http().get('/webhooks').set(as(tenant)))).status).toBe(200);
    expect((await call('GET /webhooks', http().get('/webhooks?x=1').set(as(tenant)))).status).toBe(
      400,
    );
    const path = `/webhooks/${id}`;
    expect((await call('GET /webhooks/{id}', http().get(path).set(as(tenant)))).status).toBe(200);
    expect((await call('GET /webhooks/{id}', http().get(path).set(as(other)))).status).toBe(404);
    const patched = http().patch(path).set(as(tenant)).send({ enabled: false });
    expect((await call('PATCH /webhooks/{id}', patched)).status).toBe(200);
    const refused = http().patch(path).set(as(tenant)).send({ events: [] });
    expect((await call('PATCH /webhooks/{id}', refused)).status).toBe(400);
    const rotate = `${path}/rotate-secret`;
    expect(
      (await call('POST /webhooks/{id}/rotate-secret', http().post(rotate).set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (await call('POST /webhooks/{id}/rotate-secret', http().post(rotate).set(as(other)))).status,
    ).toBe(404);
    const log = `${path}/deliveries`;
    expect(
      (await call('GET /webhooks/{id}/deliveries', http().get(log).set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (await call('GET /webhooks/{id}/deliveries', http().get(`${log}?limit=0`).set(as(tenant))))
        .status,
    ).toBe(400);
    expect((await call('DELETE /webhooks/{id}', http().delete(path).set(as(other)))).status).toBe(
      404,
    );
    expect((await call('DELETE /webhooks/{id}', http().delete(path).set(as(tenant)))).status).toBe(
      204,
    );
  });

  it('bank: accounts, a statement (201, then 200), its lines, and their errors', async () => {
    const created = await call(
      'POST /bank-accounts',
      http().post('/bank-accounts').set(as(tenant)).send({
        name: 'HDFC',
        accountNumber: '50200012345678',
        ifsc: 'HDFC0001234',
        currency: 'INR',
      }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const again = http()
      .post('/bank-accounts')
      .set(as(tenant))
      .send({ name: 'HDFC', accountNumber: '50200012345678', currency: 'INR' });
    expect((await call('POST /bank-accounts', again)).status).toBe(409);
    const invalid = http().post('/bank-accounts').set(as(tenant)).send({ name: 'X' });
    expect((await call('POST /bank-accounts', invalid)).status).toBe(400);
    expect(
      (await call('GET /bank-accounts', http().get('/bank-accounts').set(as(tenant)))).status,
    ).toBe(200);
    expect((await call('GET /bank-accounts', http().get('/bank-accounts'))).status).toBe(401);
    const account = `/bank-accounts/${id}`;
    expect(
      (await call('GET /bank-accounts/{id}', http().get(account).set(as(tenant)))).status,
    ).toBe(200);
    expect((await call('GET /bank-accounts/{id}', http().get(account).set(as(other)))).status).toBe(
      404,
    );

    const file = readFileSync(join(__dirname, 'fixtures', 'bank', 'hdfc-2025-11.csv'));
    const upload = (key: string, body: Buffer, query = '') =>
      http()
        .post(`${account}/statements${query}`)
        .set(as(key))
        .set('content-type', 'text/csv')
        .send(body);
    const operation = 'POST /bank-accounts/{id}/statements';
    expect((await call(operation, upload(tenant, file))).status).toBe(201);
    expect((await call(operation, upload(tenant, file))).status).toBe(200);
    expect((await call(operation, upload(other, file))).status).toBe(404);
    expect((await call(operation, upload(tenant, file, '?format=ofx'))).status).toBe(400);
    const broken = Buffer.from(file.toString().replace('"1,25,000.50"', '"x"'));
    expect((await call(operation, upload(tenant, broken))).status).toBe(400);

    const lines = await call(
      'GET /bank-accounts/{id}/lines',
      http().get(`${account}/lines?limit=2`).set(as(tenant)),
    );
    expect(lines.status).toBe(200);
    expect(
      (
        await call(
          'GET /bank-accounts/{id}/lines',
          http().get(`${account}/lines?status=x`).set(as(tenant)),
        )
      ).status,
    ).toBe(400);
    expect(
      (await call('GET /bank-accounts/{id}/lines', http().get(`${account}/lines`).set(as(other))))
        .status,
    ).toBe(404);
    const line = `/bank-lines/${(lines.body as { lines: { id: string }[] }).lines[0].id}`;
    expect((await call('GET /bank-lines/{id}', http().get(line).set(as(tenant)))).status).toBe(200);
    expect((await call('GET /bank-lines/{id}', http().get(line).set(as(other)))).status).toBe(404);

    // Matching by hand: a receipt of the first credit line's amount, matched, unmatched; a
    // line ignored, then refused.
    const all = await http().get(`${account}/lines?limit=500`).set(as(tenant));
    const credits = (
      all.body as {
        lines: { id: string; direction: string; status: string; amount: { amount: number } }[];
      }
    ).lines.filter((l) => l.direction === 'CREDIT' && l.status !== 'MATCHED');
    const [credit, spare] = credits;
    const demand = await createDemand(t, tenant, { splits: [split(credit.amount.amount)] });
    const paid = await http()
      .post('/receipts')
      .set(as(tenant))
      .send(
        receiptBody(demand.splits[0].id, {
          amount: credit.amount.amount,
          transactionRef: 'not on the statement',
          receivedDate: '2025-11-01',
        }),
      );
    expect(paid.status).toBe(201);
    const receipt = (paid.body as { id: string }).id;
    const act = (lineId: string, action: string, body: object) =>
      http().post(`/bank-lines/${lineId}/${action}`).set(as(tenant)).send(body);
    const match = 'POST /bank-lines/{id}/match';
    expect((await call(match, act(credit.id, 'match', { receipts: [receipt] }))).status).toBe(200);
    expect((await call(match, act(credit.id, 'match', { receipts: [receipt] }))).status).toBe(409);
    expect((await call(match, act(spare.id, 'match', { receipts: [] }))).status).toBe(400);
    const unmatch = 'POST /bank-lines/{id}/unmatch';
    expect((await call(unmatch, act(credit.id, 'unmatch', { reason: 'wrong' }))).status).toBe(200);
    expect((await call(unmatch, act(credit.id, 'unmatch', { reason: 'again' }))).status).toBe(409);
    const ignore = 'POST /bank-lines/{id}/ignore';
    expect((await call(ignore, act(spare.id, 'ignore', { reason: 'interest' }))).status).toBe(200);
    expect((await call(ignore, act(spare.id, 'ignore', { reason: 'again' }))).status).toBe(409);
    const rematch = 'POST /bank-accounts/{id}/rematch';
    const rematchAs = (who: string) => http().post(`${account}/rematch`).set(as(who));
    expect((await call(rematch, rematchAs(tenant))).status).toBe(200);
    expect((await call(rematch, rematchAs(other))).status).toBe(404);
  });

  it('letters, reminders, holds and the collection account: successes and errors', async () => {
    const created = await http()
      .post('/bank-accounts')
      .set(as(tenant))
      .send({ name: 'Collections', accountNumber: '912010012345', currency: 'INR' });
    expect(created.status).toBe(201);
    const accountPath = `/bank-accounts/${(created.body as { id: string }).id}`;
    const patch = 'PATCH /bank-accounts/{id}';
    expect(
      (await call(patch, http().patch(accountPath).set(as(tenant)).send({ collection: true })))
        .status,
    ).toBe(200);
    expect((await call(patch, http().patch(accountPath).set(as(other)).send({}))).status).toBe(404);
    const demand = await createDemand(t, tenant, {
      demandDate: '2026-10-01',
      dueDate: '2026-11-01',
    });
    const letter = 'GET /demands/{id}/letter';
    const letterPath = `/demands/${demand.id}/letter`;
    expect(
      (await call(letter, http().get(`${letterPath}?format=json`).set(as(tenant)))).status,
    ).toBe(200);
    const pdf = http().get(letterPath).set(as(tenant)).buffer(true);
    expect((await call(letter, pdf)).status).toBe(200);
    expect((await call(letter, http().get(`${letterPath}?format=x`).set(as(tenant)))).status).toBe(
      400,
    );
    expect((await call(letter, http().get(letterPath).set(as(other)))).status).toBe(404);

    const policy = await call(
      'GET /tenant/reminder-policy',
      http().get('/tenant/reminder-policy').set(as(tenant)),
    );
    expect(policy.status).toBe(200);
    expect(
      (await call('GET /tenant/reminder-policy', http().get('/tenant/reminder-policy'))).status,
    ).toBe(401);
    const put = 'PUT /tenant/reminder-policy';
    expect(
      (await call(put, http().put('/tenant/reminder-policy').set(as(tenant)).send(policy.body)))
        .status,
    ).toBe(200);
    expect(
      (
        await call(
          put,
          http().put('/tenant/reminder-policy').set(as(tenant)).send({ enabled: true }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          put,
          http()
            .put('/tenant/reminder-policy')
            .set(as(tenant))
            .set('If-Match', '"x"')
            .send(policy.body),
        )
      ).status,
    ).toBe(412);

    const due = 'GET /reminders/due';
    expect((await call(due, http().get('/reminders/due').set(as(tenant)))).status).toBe(200);
    expect((await call(due, http().get('/reminders/due?size=0').set(as(tenant)))).status).toBe(400);
    const run = 'POST /reminders/run';
    expect((await call(run, http().post('/reminders/run').set(as(tenant)).send({}))).status).toBe(
      200,
    );
    expect(
      (await call(run, http().post('/reminders/run').set(as(tenant)).send({ asOf: '2999-01-01' })))
        .status,
    ).toBe(400);
    const sent = 'GET /demands/{id}/reminders';
    expect(
      (await call(sent, http().get(`/demands/${demand.id}/reminders`).set(as(tenant)))).status,
    ).toBe(200);
    expect(
      (await call(sent, http().get(`/demands/${demand.id}/reminders`).set(as(other)))).status,
    ).toBe(404);

    const holds = `/bookings/${demand.booking}/collection-holds`;
    const create = 'POST /bookings/{id}/collection-holds';
    const hold = await call(create, http().post(holds).set(as(tenant)).send({ reason: 'Dispute' }));
    expect(hold.status).toBe(201);
    expect(
      (await call(create, http().post(holds).set(as(tenant)).send({ reason: 'Again' }))).status,
    ).toBe(409);
    const end = 'DELETE /bookings/{id}/collection-holds/{holdId}';
    const holdPath = `${holds}/${(hold.body as { id: string }).id}`;
    expect((await call(end, http().delete(holdPath).set(as(tenant)))).status).toBe(200);
    expect((await call(end, http().delete(holdPath).set(as(tenant)))).status).toBe(409);
    const list = 'GET /bookings/{id}/collection-holds';
    expect((await call(list, http().get(holds).set(as(tenant)))).status).toBe(200);
    expect((await call(list, http().get(holds).set(as(other)))).status).toBe(404);
  });

  it('numbers: 201 for a snag, 400 for a type kept with its document', async () => {
    expect(
      (
        await call(
          'POST /numbers/{documentType}',
          http().post('/numbers/snag').set(as(tenant)).send({}),
        )
      ).status,
    ).toBe(201);
    const receipt = http().post('/numbers/receipt').set(as(tenant)).send({});
    expect((await call('POST /numbers/{documentType}', receipt)).status).toBe(400);
  });

  it('tenant configuration: 200, 412, history with typed changes, preview 200 and 400', async () => {
    const current = await call(
      'GET /tenant/configuration',
      http().get('/tenant/configuration').set(as(tenant)),
    );
    expect(current.status).toBe(200);
    const etag = current.headers.etag;
    const changed = {
      ...(current.body as Record<string, unknown>),
      receiptNumberPrefix: 'RC',
      receiptNumberStarting: 100,
      active: false,
    };
    const put = (ifMatch: string) =>
      http().put('/tenant/configuration').set(as(tenant)).set('If-Match', ifMatch).send(changed);
    expect((await call('PUT /tenant/configuration', put(etag))).status).toBe(200);
    expect((await call('PUT /tenant/configuration', put(etag))).status).toBe(412);
    const history = await call(
      'GET /tenant/configuration/history',
      http().get('/tenant/configuration/history').set(as(tenant)),
    );
    expect(
      (await call('GET /tenant/configuration/history', http().get('/tenant/configuration/history')))
        .status,
    ).toBe(401);
    const changes = (history.body as { changes: { from: unknown; to: unknown }[] }[])[0].changes;
    // text, a whole number and a flag: the document's typed values, validated above
    expect(new Set(changes.map((c) => typeof c.to))).toEqual(
      new Set(['string', 'number', 'boolean']),
    );
    const preview = (body: unknown) =>
      http()
        .post('/tenant/configuration/preview')
        .set(as(tenant))
        .send(body as object);
    expect((await call('POST /tenant/configuration/preview', preview(changed))).status).toBe(200);
    expect(
      (await call('POST /tenant/configuration/preview', preview({ ...changed, separator: 7 })))
        .status,
    ).toBe(400);
    const otherConfig = await call(
      'GET /tenant/configuration',
      http().get('/tenant/configuration').set(as(other)),
    );
    expect((otherConfig.body as { receiptNumberPrefix: string }).receiptNumberPrefix).toBe('RCT');
  });

  it('429 is documented and problem+json', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await request(limited.server).get('/tenant/configuration').set(as(tenant));
        contract.check('GET /tenant/configuration', res);
        statuses.push(res.status);
      }
      expect(statuses).toContain(429);
    } finally {
      await limited.close();
    }
  });

  it('every operation was seen answering a success and an error', () => {
    for (const operation of contract.operations()) {
      const seen = [...(contract.seen.get(operation) ?? [])];
      expect({ operation, success: seen.some((s) => s < 300) }).toEqual({
        operation,
        success: true,
      });
      expect({ operation, error: seen.some((s) => s >= 400) }).toEqual({ operation, error: true });
    }
  });

  it('every operation but the public ones declares x-tenant-id as a required header with an example', () => {
    // Portman (and openapi-to-postmanv2 with enableOptionalParameters off) leaves optional
    // headers out of the request: a collection generated from the document must still send it.
    const document = contract.document as unknown as {
      paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>>;
      components: { parameters: Record<string, Record<string, unknown>> };
    };
    const resolve = (p: { $ref?: string }): Record<string, unknown> =>
      p.$ref ? document.components.parameters[p.$ref.split('/').pop()!] : p;
    const declared: string[] = [];
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const tenant = (operation.parameters ?? [])
          .map(resolve)
          .find((p) => p.in === 'header' && p.name === 'x-tenant-id') as
          { required?: boolean; example?: unknown; schema?: { example?: unknown } } | undefined;
        const ok =
          tenant?.required === true &&
          (tenant.example ?? tenant.schema?.example) === '{{tenantId}}';
        (ok ? declared : missing).push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing.sort()).toEqual(['GET /health/live', 'GET /health/ready', 'GET /metrics']);
    expect(declared.length).toBeGreaterThan(50);
  });

  it('the live /docs-json is the committed document (served from its documented origin)', async () => {
    const live = await http().get('/docs-json').set('host', 'localhost:3000');
    expect(live.body).toEqual(contract.document);
    // The document describes the whole service, not its first two features.
    expect((live.body as { info: { title: string } }).info.title).toBe(
      'Finance service for property developers',
    );
  });
});
