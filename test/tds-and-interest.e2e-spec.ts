import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { EXPORT_COLUMNS } from '@/exports/receipt-export-rows';
import { binaryBody } from './support/binary-body';
import {
  createDemand,
  DemandView,
  post,
  receiptBody,
  recordReceipt,
  ReceiptView,
  searchReceipts,
  split,
} from './support/factories';
import { pdfText } from './support/pdf-text';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * paymentMode TDS (the 1 % the buyer deducts under section 194-IA and deposits with Form 26QB)
 * and demandType INTEREST (docs/api.md): accepted, searchable, totalled, exported and printed
 * like the other values; a TDS receipt needs its 26QB acknowledgement and never bounces.
 */
describe('TDS receipts and INTEREST demands', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let interest: DemandView;
  let manual: DemandView;
  let tds: ReceiptView;
  let neft: ReceiptView;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    other = await t.createTenant();
    interest = await createDemand(t, tenant.key, {
      demandType: 'INTEREST',
      splits: [split(1800.75)],
      remarks: 'Interest on late payment',
    });
    manual = await createDemand(t, tenant.key, { splits: [split(500000)] });
    tds = await recordReceipt(t, tenant.key, {
      demandSplit: manual.splits[0].id,
      amount: 5000,
      paymentMode: 'TDS',
      transactionRef: 'AB1234567',
      receivedDate: '2026-11-20',
    });
    neft = await recordReceipt(t, tenant.key, {
      demandSplit: manual.splits[0].id,
      amount: 495000,
      paymentMode: 'NEFT',
      receivedDate: '2026-11-20',
    });
    await recordReceipt(t, tenant.key, {
      demandSplit: interest.splits[0].id,
      amount: 1800.75,
      paymentMode: 'UPI',
    });
    // The other tenant has a TDS receipt on an INTEREST demand too: never counted here.
    const theirs = await createDemand(t, other.key, {
      demandType: 'INTEREST',
      splits: [split(700)],
    });
    await recordReceipt(t, other.key, {
      demandSplit: theirs.splits[0].id,
      amount: 7,
      paymentMode: 'TDS',
      transactionRef: 'ZZ9999999',
    });
  });
  afterAll(() => t?.close());

  it('raises an INTEREST demand and counts a TDS receipt like any payment', async () => {
    expect(interest.demandType).toBe('INTEREST');
    expect(interest.milestone).toBeNull();
    expect(tds).toMatchObject({
      paymentMode: 'TDS',
      transactionRef: 'AB1234567',
      status: 'ACTIVE',
      amount: { amount: 5000 },
    });
    const res = await request(t.server)
      .post('/demands/search')
      .set(as(tenant.key))
      .send([{ field: 'id', query: manual.id, type: 'EQUALS' }]);
    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(1);
    // 5000 by TDS + 495000 by NEFT settle the demand of 500000.
    expect(res.body.content[0]).toMatchObject({
      status: 'PAID',
      receivedAmount: { amount: 500000 },
      pendingAmount: { amount: 0 },
      splits: [{ paidAmount: { amount: 500000 } }],
    });
  });

  it('finds demands by demandType EQUALS INTEREST, in this tenant only', async () => {
    const res = await request(t.server)
      .post('/demands/search')
      .set(as(tenant.key))
      .send([{ field: 'demandType', query: 'INTEREST', type: 'EQUALS' }]);
    expect(res.status).toBe(200);
    expect((res.body.content as DemandView[]).map((d) => d.id)).toEqual([interest.id]);
  });

  it('finds receipts by paymentMode IN TDS and demandType EQUALS INTEREST', async () => {
    const byMode = await searchReceipts(t, tenant.key, [
      { field: 'paymentMode', query: 'TDS', type: 'IN' },
    ]);
    expect(byMode.map((r) => r.id)).toEqual([tds.id]);
    const twoModes = await searchReceipts(t, tenant.key, [
      { field: 'paymentMode', query: 'TDS,NEFT', type: 'IN' },
    ]);
    expect(twoModes.map((r) => r.id).sort()).toEqual([tds.id, neft.id].sort());
    const byType = await searchReceipts(t, tenant.key, [
      { field: 'demandType', query: 'INTEREST', type: 'EQUALS' },
    ]);
    expect(byType.map((r) => r.demandMeta.demandType)).toEqual(['INTEREST']);
    expect(byType[0].demandMeta.demandNumber).toBe(interest.demandNumber);
  });

  it('rejects a paymentMode or demandType that is not in the enumeration', async () => {
    const res = await request(t.server)
      .post('/receipts/search')
      .set(as(tenant.key))
      .send([{ field: 'paymentMode', query: 'TDS,GIFT', type: 'IN' }]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('SEARCH_INVALID_QUERY');
    const demand = await post(t, tenant.key, '/demands', {
      booking: interest.booking,
      milestone: null,
      demandType: 'PENALTY',
      totalAmount: 10,
      dueDate: '2026-12-01',
      remarks: 'x',
      splits: [split(10)],
    });
    expect(demand.status).toBe(400);
    expect(demand.body.errors.map((e: { field: string }) => e.field)).toEqual(['demandType']);
  });

  it('totals TDS and INTEREST in their own summary groups', async () => {
    const byMode = await request(t.server)
      .post('/receipts/summary?groupBy=paymentMode')
      .set(as(tenant.key))
      .send([]);
    expect(byMode.status).toBe(200);
    expect(byMode.body.count).toBe(3);
    expect(byMode.body.groups).toEqual([
      expect.objectContaining({
        key: 'NEFT',
        count: 1,
        amount: expect.objectContaining({ amount: 495000 }),
      }),
      expect.objectContaining({
        key: 'TDS',
        count: 1,
        amount: expect.objectContaining({ amount: 5000 }),
      }),
      expect.objectContaining({
        key: 'UPI',
        count: 1,
        amount: expect.objectContaining({ amount: 1800.75 }),
      }),
    ]);
    const byType = await request(t.server)
      .post('/receipts/summary?groupBy=demandType')
      .set(as(tenant.key))
      .send([]);
    expect(byType.status).toBe(200);
    expect(byType.body.groups.map((g: { key: string; count: number }) => [g.key, g.count])).toEqual(
      [
        ['INTEREST', 1],
        ['MANUAL', 2],
      ],
    );
    const onlyTds = await request(t.server)
      .post('/receipts/summary')
      .set(as(tenant.key))
      .send([{ field: 'paymentMode', query: 'TDS', type: 'IN' }]);
    expect(onlyTds.body).toMatchObject({ count: 1, amount: { amount: 5000 } });
  });

  it('exports TDS receipts and INTEREST demands in CSV and XLSX', async () => {
    const filters = [{ field: 'paymentMode', query: 'TDS,UPI', type: 'IN' }];
    const csv = await request(t.server)
      .post('/receipts/export?format=csv&sort=amount,desc')
      .set(as(tenant.key))
      .send(filters)
      .buffer(true)
      .parse(binaryBody);
    expect(csv.status).toBe(200);
    const records = parse<Record<string, string>>((csv.body as Buffer).toString('utf8'), {
      bom: true,
      columns: true,
    });
    expect(
      records.map((r) => [r.id, r.paymentMode, r.transactionRef, r.demandType, r.amount]),
    ).toEqual([
      [tds.id, 'TDS', 'AB1234567', 'MANUAL', '5000.00'],
      [expect.any(String), 'UPI', expect.any(String), 'INTEREST', '1800.75'],
    ]);

    const xlsx = await request(t.server)
      .post('/receipts/export?format=xlsx&sort=amount,desc')
      .set(as(tenant.key))
      .send(filters)
      .buffer(true)
      .parse(binaryBody);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    const sheet = workbook.worksheets[0];
    const col = (name: (typeof EXPORT_COLUMNS)[number]) => EXPORT_COLUMNS.indexOf(name) + 1;
    expect(sheet.rowCount).toBe(3);
    expect(
      [2, 3].map((n) => [
        sheet.getRow(n).getCell(col('paymentMode')).value,
        sheet.getRow(n).getCell(col('demandType')).value,
      ]),
    ).toEqual([
      ['TDS', 'MANUAL'],
      ['UPI', 'INTEREST'],
    ]);
  });

  it('prints a TDS receipt as "TDS deducted u/s 194-IA" with its 26QB acknowledgement', async () => {
    const res = await request(t.server)
      .get(`/receipts/${tds.id}/document`)
      .set(as(tenant.key))
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).toBe(200);
    const text = await pdfText(res.body as Buffer);
    expect(text).toContain('TDS deducted u/s 194-IA');
    expect(text).toContain('26QB acknowledgement AB1234567');
    expect(text).toContain('AB1234567');
    expect(text).toContain('Rupees Five Thousand Only');
    // Other modes keep their wording and label.
    const neftText = await pdfText(
      (
        await request(t.server)
          .get(`/receipts/${neft.id}/document`)
          .set(as(tenant.key))
          .buffer(true)
          .parse(binaryBody)
      ).body as Buffer,
    );
    expect(neftText).not.toContain('194-IA');
    expect(neftText).toContain('Transaction reference');
  });

  it.each<[string, Record<string, unknown>]>([
    ['empty', { transactionRef: '' }],
    ['blank', { transactionRef: '   ' }],
    ['missing', { transactionRef: undefined }],
    ['null', { transactionRef: null }],
  ])(
    'refuses a TDS receipt whose 26QB acknowledgement is %s (400 naming transactionRef)',
    async (_, overrides) => {
      const d = await createDemand(t, tenant.key);
      const body: Record<string, unknown> = {
        ...receiptBody(d.splits[0].id, { paymentMode: 'TDS', amount: 1000 }),
        ...overrides,
      };
      if (body.transactionRef === undefined) delete body.transactionRef;
      const res = await post(t, tenant.key, '/receipts', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(
        new Set(['transactionRef']),
      );
      // Nothing was written: the split is still unpaid.
      const found = await searchReceipts(t, tenant.key, [
        { field: 'demandSplit', query: d.splits[0].id, type: 'EQUALS' },
      ]);
      expect(found).toEqual([]);
    },
  );

  it('still lets other modes leave transactionRef empty', async () => {
    const cash = await recordReceipt(t, tenant.key, { paymentMode: 'CASH', transactionRef: '' });
    expect(cash.transactionRef).toBe('');
  });

  it('refuses to bounce a TDS receipt (409 RECEIPT_NOT_BOUNCEABLE) and changes nothing', async () => {
    const d = await createDemand(t, tenant.key, { splits: [split(100000)] });
    const receipt = await recordReceipt(t, tenant.key, {
      demandSplit: d.splits[0].id,
      amount: 1000,
      paymentMode: 'TDS',
      transactionRef: 'CD7654321',
      receivedDate: '2026-11-20',
    });
    const res = await post(t, tenant.key, `/receipts/${receipt.id}/bounce`, {
      reason: 'Not deposited',
      bouncedOn: '2026-11-22',
      charges: 500,
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('RECEIPT_NOT_BOUNCEABLE');
    expect(res.body.detail).toContain('TDS');
    const after = await request(t.server).get(`/receipts/${receipt.id}`).set(as(tenant.key));
    expect(after.body).toMatchObject({ status: 'ACTIVE', statusReason: null });
    const demands = await request(t.server)
      .post('/demands/search')
      .set(as(tenant.key))
      .send([{ field: 'booking', query: d.booking, type: 'EQUALS' }]);
    // No charges demand was raised; the split keeps the payment.
    expect(demands.body.content).toHaveLength(1);
    expect(demands.body.content[0].receivedAmount.amount).toBe(1000);
  });

  it("hides a tenant's TDS receipts from another tenant, who cannot bounce or print them", async () => {
    const theirs = await searchReceipts(t, other.key, [
      { field: 'paymentMode', query: 'TDS', type: 'IN' },
    ]);
    expect(theirs.map((r) => r.transactionRef)).toEqual(['ZZ9999999']);
    const bounce = await post(t, other.key, `/receipts/${tds.id}/bounce`, {
      reason: 'x',
      bouncedOn: '2026-11-22',
    });
    expect(bounce.status).toBe(404);
    expect(bounce.body.code).toBe('RECEIPT_NOT_FOUND');
    const doc = await request(t.server).get(`/receipts/${tds.id}/document`).set(as(other.key));
    expect(doc.status).toBe(404);
    const interestTheirs = await request(t.server)
      .post('/receipts/summary?groupBy=demandType')
      .set(as(other.key))
      .send([{ field: 'demandType', query: 'INTEREST', type: 'EQUALS' }]);
    expect(interestTheirs.body).toMatchObject({ count: 1, amount: { amount: 7 } });
  });

  it('needs receipts:write to record a TDS receipt', async () => {
    const res = await request(t.server)
      .post('/receipts')
      .set(as(tenant.key, { scope: 'receipts:read' }))
      .set('Idempotency-Key', 'tds-scope-check')
      .send(receiptBody(manual.splits[0].id, { paymentMode: 'TDS', transactionRef: 'EF1111111' }));
    expect(res.status).toBe(403);
  });
});
