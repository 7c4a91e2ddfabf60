import request from 'supertest';
import { createDemand, post, recordReceipt, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

describe('document numbering through the write endpoints', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const newTenant = async () => (await t.createTenant()).key;

  /** GET the configuration, change some fields, PUT it back. */
  const configure = async (tenant: string, changes: Record<string, unknown>) => {
    const current = await request(t.server).get('/tenant/configuration').set(as(tenant));
    expect(current.status).toBe(200);
    const res = await request(t.server)
      .put('/tenant/configuration')
      .set(as(tenant))
      .send({ ...current.body, ...changes });
    expect(res.status).toBe(200);
    return res.body;
  };

  /** A receipt on a fresh split (a new demand is created unless `splitId` is given). */
  const receiptNumber = async (tenant: string, receivedDate: string, splitId?: string) =>
    (
      await recordReceipt(t, tenant, {
        receivedDate,
        amount: 1,
        ...(splitId ? { demandSplit: splitId } : {}),
      })
    ).receiptNumber;

  const CUSTOM = {
    receiptNumberPrefix: 'RC',
    separator: '-',
    receiptNumberPattern: '{PREFIX}{SEP}{YYYY}{SEP}{SEQ:4}',
    receiptNumberStarting: 100,
  };

  it('issues default numbers like RCT/26-27/00001, per tenant', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const demand = await createDemand(t, a, { splits: [split(1000)] });
    expect(await receiptNumber(a, '2026-11-22', demand.splits[0].id)).toBe('RCT/26-27/00001');
    expect(await receiptNumber(a, '2026-11-23', demand.splits[0].id)).toBe('RCT/26-27/00002');
    expect(await receiptNumber(b, '2026-11-22')).toBe('RCT/26-27/00001');
    expect(demand.demandNumber).toBe('DMD/26-27/00001');
    expect(demand.splits[0].demandSplitNumber).toBe('DSP/26-27/00001');
  });

  it('uses a custom configuration: RC-<year>-0100, then 0101; a new year restarts at Starting', async () => {
    const tenant = await newTenant();
    await configure(tenant, CUSTOM);
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const s = demand.splits[0].id;
    expect(await receiptNumber(tenant, '2025-06-01', s)).toBe('RC-2025-0100');
    expect(await receiptNumber(tenant, '2025-12-31', s)).toBe('RC-2025-0101');
    expect(await receiptNumber(tenant, '2026-01-01', s)).toBe('RC-2026-0100');
    expect(await receiptNumber(tenant, '2025-07-15', s)).toBe('RC-2025-0102');
    expect(await receiptNumber(tenant, '2026-01-02', s)).toBe('RC-2026-0101');
  });

  it('moves a counter forward when Starting is raised and never rewinds when it is lowered', async () => {
    const tenant = await newTenant();
    await configure(tenant, CUSTOM);
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const s = demand.splits[0].id;
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0100');
    await configure(tenant, { ...CUSTOM, receiptNumberStarting: 500 });
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0500');
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0501');
    await configure(tenant, { ...CUSTOM, receiptNumberStarting: 10 });
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0502');
    // a counter that does not exist yet starts at the (lowered) Starting
    expect(await receiptNumber(tenant, '2024-06-01', s)).toBe('RC-2024-0010');
  });

  it('numbers splits per demand with {PARENT}, and demands per booking', async () => {
    const tenant = await newTenant();
    await configure(tenant, {
      demandNumberPattern: '{PARENT}{SEP}D{SEQ:2}',
      demandSplitNumberPattern: '{PARENT}{SEP}{SEQ:2}',
    });
    const first = await createDemand(t, tenant, { splits: [split(10), split(20), split(30)] });
    expect(first.demandNumber).toMatch(/^BKG\/25-26\/00001\/D01$/);
    expect(first.splits.map((s) => s.demandSplitNumber)).toEqual([
      `${first.demandNumber}/01`,
      `${first.demandNumber}/02`,
      `${first.demandNumber}/03`,
    ]);
    const second = await createDemand(t, tenant, {
      booking: first.booking,
      splits: [split(5), split(6)],
    });
    expect(second.demandNumber).toBe('BKG/25-26/00001/D02');
    expect(second.splits.map((s) => s.demandSplitNumber)).toEqual([
      `${second.demandNumber}/01`,
      `${second.demandNumber}/02`,
    ]);
    const otherBooking = await createDemand(t, tenant, { splits: [split(1)] });
    expect(otherBooking.demandNumber).toBe('BKG/25-26/00002/D01');
    expect(otherBooking.splits[0].demandSplitNumber).toBe('BKG/25-26/00002/D01/01');
  });

  it.each(['booking', 'demand', 'demand-split', 'receipt'])(
    'refuses a bare %s number (400 NUMBER_ISSUED_WITH_DOCUMENT) and consumes nothing',
    async (documentType) => {
      const tenant = await newTenant();
      const res = await post(t, tenant, `/numbers/${documentType}`, {});
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('NUMBER_ISSUED_WITH_DOCUMENT');
      // the series was not touched: the first documents still get 00001
      const demand = await createDemand(t, tenant, { splits: [split(1000)] });
      expect(demand.demandNumber).toBe('DMD/26-27/00001');
      expect(demand.splits[0].demandSplitNumber).toBe('DSP/26-27/00001');
      expect(await receiptNumber(tenant, '2026-11-22', demand.splits[0].id)).toBe(
        'RCT/26-27/00001',
      );
    },
  );

  it('leaves no receipt number without its receipt: the series is 1..n, each on a receipt', async () => {
    const { key: tenant, id: tenantId } = await t.createTenant();
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const s = demand.splits[0].id;
    const issued: string[] = [];
    for (let i = 0; i < 5; i++) {
      issued.push(await receiptNumber(tenant, '2026-11-22', s));
      // interleaved attempts to take a bare receipt number, and snags, must not leave a gap
      expect((await post(t, tenant, '/numbers/receipt', {})).status).toBe(400);
      expect((await post(t, tenant, '/numbers/snag', {})).status).toBe(201);
    }
    expect(issued).toEqual([1, 2, 3, 4, 5].map((n) => `RCT/26-27/0000${n}`));
    const owner = await ownerDataSource(t.ownerUrl);
    try {
      const stored: { receipt_number: string }[] = await owner.query(
        'SELECT receipt_number FROM receipts WHERE tenant_id = $1 ORDER BY receipt_number',
        [tenantId],
      );
      expect(stored.map((r) => r.receipt_number)).toEqual(issued);
    } finally {
      await owner.destroy();
    }
  });

  it('keeps a raised Starting even if it is lowered again before any number was issued', async () => {
    const tenant = await newTenant();
    await configure(tenant, CUSTOM);
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const s = demand.splits[0].id;
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0100');
    await configure(tenant, { ...CUSTOM, receiptNumberStarting: 700 });
    await configure(tenant, { ...CUSTOM, receiptNumberStarting: 1 });
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0700');
  });

  it('falls back to the default scheme while the configuration is inactive', async () => {
    const tenant = await newTenant();
    await configure(tenant, CUSTOM);
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const s = demand.splits[0].id;
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0100');
    await configure(tenant, { ...CUSTOM, active: false });
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RCT/26-27/00001');
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RCT/26-27/00002');
    await configure(tenant, { ...CUSTOM, active: true });
    expect(await receiptNumber(tenant, '2026-06-01', s)).toBe('RC-2026-0101');
  });

  it('issues consecutive snag numbers through POST /numbers/snag', async () => {
    const tenant = await newTenant();
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(t, tenant, '/numbers/snag', {});
      expect(res.status).toBe(201);
      expect(res.body.documentType).toBe('snag');
      numbers.push(res.body.number);
    }
    const fy = numbers[0].split('/')[1];
    expect(numbers).toEqual([`SNG/${fy}/00001`, `SNG/${fy}/00002`, `SNG/${fy}/00003`]);
    const dated = await post(t, tenant, '/numbers/snag', { date: '2025-05-01' });
    expect(dated.body.number).toBe('SNG/25-26/00001');
    // no body at all is fine too (the date defaults to today)
    const bare = await request(t.server).post('/numbers/snag').set(as(tenant));
    expect(bare.status).toBe(201);
    expect(bare.body.number).toBe(`SNG/${fy}/00004`);
  });

  it('dates receipts by receivedDate: 2026-03-31 is FY 25-26, 2026-04-01 is FY 26-27', async () => {
    const tenant = await newTenant();
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const s = demand.splits[0].id;
    expect(await receiptNumber(tenant, '2026-03-31', s)).toBe('RCT/25-26/00001');
    expect(await receiptNumber(tenant, '2026-04-01', s)).toBe('RCT/26-27/00001');
    expect(await receiptNumber(tenant, '2026-03-30', s)).toBe('RCT/25-26/00002');
  });

  it('dates bookings by bookingDate and demands by demandDate', async () => {
    const tenant = await newTenant();
    const res = await post(t, tenant, '/bookings', {
      unit: '11111111-1111-4111-8111-111111111111',
      buyerName: 'Old Booking',
      bookingDate: '2025-04-01',
    });
    expect(res.body.bookingNumber).toBe('BKG/25-26/00001');
    const demand = await createDemand(t, tenant, {
      booking: res.body.id,
      demandDate: '2026-03-31',
    });
    expect(demand.demandNumber).toBe('DMD/25-26/00001');
    expect(demand.splits[0].demandSplitNumber).toBe('DSP/25-26/00001');
  });
});
