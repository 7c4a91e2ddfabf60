import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Clock } from '@/platform/clock/clock';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { get, post, split } from './support/factories';
import { pdfText } from './support/pdf-text';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Tax on every demand (docs/gst.md): the worked examples of the rule through the API, the tax
 * invoice (JSON and PDF) numbered with its demand, what is owed at gross, the refusals, and the
 * credit notes of cancels inside and past the section 34 window. Cross-tenant cases included.
 */
interface Money {
  amount: number;
  formatted: string;
}
interface Demand {
  id: string;
  totalAmount: Money;
  pendingAmount: Money;
  grossAmount: Money;
  chargeType: string;
  status: string;
  tax: null | {
    landDeduction: Money;
    taxableValue: Money;
    cgstRate: number;
    cgst: Money;
    sgstRate: number;
    sgst: Money;
    total: Money;
  };
  invoice: null | { id: string; number: string; date: string };
  gstCreditTimeBarred: boolean;
  splits: {
    id: string;
    amount: Money;
    taxAmount: Money;
    grossAmount: Money;
    pendingAmount: Money;
  }[];
}

const GSTIN = '27AAPFU0939F1ZV';
const BUYER_GSTIN = '29AAGCB7383J1Z4';

describe('GST: tax invoices and credit notes', () => {
  let t: TestApp;
  let clock: Clock;
  const today = formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata'));

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.app.get(Clock);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t?.close());

  const gstTenant = async (settings: Record<string, unknown> = {}) => {
    const key = (await t.createTenant()).key;
    const res = await request(t.server)
      .put('/tenant/gst')
      .set(as(key))
      .send({
        enabled: true,
        gstin: GSTIN,
        legalName: 'Skyline Developers Private Limited',
        address: 'Plot 7, Andheri East, Mumbai 400069',
        ...settings,
      });
    expect(res.status).toBe(200);
    return key;
  };
  const booking = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await post(t, key, '/bookings', {
      unit: randomUUID(),
      unitName: 'Tower B - 1203',
      buyerName: 'Ananya Iyer',
      bookingDate: '2025-01-01',
      buyerAddress: '12 Marine Drive, Mumbai',
      ...overrides,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const demand = (key: string, bookingId: string, overrides: Record<string, unknown> = {}) => {
    const splits = (overrides.splits as ReturnType<typeof split>[]) ?? [split(1000000)];
    const total = splits.reduce((a, s) => a + Math.round(s.amount * 100), 0) / 100;
    return post(t, key, '/demands', {
      booking: bookingId,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: total,
      dueDate: today,
      demandDate: today,
      remarks: 'Slab 4',
      ...overrides,
      splits,
    });
  };
  const taxed = async (key: string, bookingId: string, overrides: Record<string, unknown> = {}) => {
    const res = await demand(key, bookingId, overrides);
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    return res.body as Demand;
  };
  const amounts = (d: Demand) =>
    d.tax && {
      land: d.tax.landDeduction.amount,
      taxable: d.tax.taxableValue.amount,
      cgst: d.tax.cgst.amount,
      sgst: d.tax.sgst.amount,
      tax: d.tax.total.amount,
      gross: d.grossAmount.amount,
      rates: [d.tax.cgstRate, d.tax.sgstRate],
    };

  describe('the worked examples', () => {
    let key: string;
    let standard: string;
    beforeAll(async () => {
      key = await gstTenant();
      standard = (await booking(key)).id;
    });

    it('STANDARD 10,00,000.00: land a third, 3.75 % + 3.75 %, invoiced with its own number', async () => {
      const d = await taxed(key, standard);
      expect(amounts(d)).toEqual({
        land: 333333.33,
        taxable: 666666.67,
        cgst: 25000,
        sgst: 25000,
        tax: 50000,
        gross: 1050000,
        rates: [3.75, 3.75],
      });
      expect(d.totalAmount.amount).toBe(1000000);
      expect(d.pendingAmount.amount).toBe(1050000);
      expect(d.chargeType).toBe('CONSTRUCTION');
      expect(d.invoice?.number).toMatch(/^INV\/\d{2}-\d{2}\/\d{5}$/);
      expect(d.invoice?.date).toBe(today);
    });

    it.each([
      [
        1000001,
        { land: 333333.67, taxable: 666667.33, cgst: 25000.02, tax: 50000.04, gross: 1050001.04 },
      ],
      [777777, { land: 259259, taxable: 518518, cgst: 19444.43, tax: 38888.86, gross: 816665.86 }],
    ])('STANDARD %d: each head rounded on its own', async (c, expected) => {
      const d = await taxed(key, standard, { splits: [split(c)] });
      expect(amounts(d)).toMatchObject(expected);
    });

    it('OTHER_CHARGES 2,50,000.00: 9 % + 9 % on the whole', async () => {
      const d = await taxed(key, standard, {
        chargeType: 'OTHER_CHARGES',
        splits: [split(250000)],
      });
      expect(amounts(d)).toMatchObject({
        land: 0,
        taxable: 250000,
        cgst: 22500,
        gross: 295000,
        rates: [9, 9],
      });
    });

    it('AFFORDABLE 4,00,000.00: 0.75 % + 0.75 %', async () => {
      const b = await booking(key, { carpetAreaSqm: 55, metroCity: true, agreementValue: 4000000 });
      const d = await taxed(key, b.id, { splits: [split(400000)] });
      expect(amounts(d)).toMatchObject({
        taxable: 266666.67,
        cgst: 2000,
        sgst: 2000,
        gross: 404000,
      });
    });

    it('shares the tax over the splits by largest remainder', async () => {
      const d = await taxed(key, standard, {
        splits: [split(333333.33), split(333333.33, 'CO_BUYER'), split(333333.34, 'BANK')],
      });
      expect(d.splits.map((s) => s.taxAmount.amount)).toEqual([16666.67, 16666.66, 16666.67]);
      expect(d.splits.map((s) => s.grossAmount.amount)).toEqual([350000, 349999.99, 350000.01]);
    });

    it('an EXEMPT booking: construction untaxed, other charges taxed', async () => {
      const b = await booking(key, { gstExempt: true });
      const c = await taxed(key, b.id, { splits: [split(100000)] });
      expect([c.tax, c.invoice, c.grossAmount.amount]).toEqual([null, null, 100000]);
      const o = await taxed(key, b.id, { chargeType: 'OTHER_CHARGES', splits: [split(10000)] });
      expect(amounts(o)).toMatchObject({ cgst: 900, gross: 11800 });
    });
  });

  describe('what is owed is the gross', () => {
    it('receipts pay up to the gross and no more; statuses and the ageing follow it', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id);
      const splitId = d.splits[0].id;
      const pay = (amount: number) =>
        post(t, key, '/receipts', {
          demandSplit: splitId,
          amount,
          paymentMode: 'NEFT',
          transactionRef: 'UTR1',
          receivedDate: today,
        });
      expect((await pay(1000000)).status).toBe(201);
      const after = (await get(t, key, `/demands/${d.id}`)).body as Demand;
      expect([after.status, after.pendingAmount.amount]).toEqual(['PARTIALLY_PAID', 50000]);
      const ageing = await get(t, key, `/receivables/ageing?asOf=${today}`);
      expect(ageing.body.total.outstanding.amount).toBe(50000);
      const over = await pay(50000.01);
      expect([over.status, over.body.code]).toEqual([422, 'RECEIPT_EXCEEDS_PENDING']);
      expect((await pay(50000)).status).toBe(201);
      const paid = (await get(t, key, `/demands/${d.id}`)).body as Demand;
      expect(paid.status).toBe('PAID');
      const statement = await get(t, key, `/bookings/${b.id}/statement?asOf=${today}`);
      expect(statement.body.totals.demanded.amount).toBe(1050000);
      expect(statement.body.entries[0].particulars).toContain(d.invoice?.number);
    });

    it('a receipt dated before its invoice is refused; a payment skips such a split', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id);
      const early = await post(t, key, '/receipts', {
        demandSplit: d.splits[0].id,
        amount: 100,
        paymentMode: 'NEFT',
        transactionRef: 'UTR2',
        receivedDate: '2025-06-01',
      });
      expect([early.status, early.body.code]).toEqual([422, 'RECEIPT_BEFORE_INVOICE']);
      const listed = await post(t, key, `/bookings/${b.id}/payments`, {
        payerId: (await get(t, key, `/demands/${d.id}`)).body.splits[0].payerId,
        amount: 100,
        paymentMode: 'NEFT',
        transactionRef: 'UTR3',
        receivedDate: '2025-06-01',
        allocation: [{ demandSplit: d.splits[0].id, amount: 100 }],
      });
      expect([listed.status, listed.body.code]).toEqual([422, 'RECEIPT_BEFORE_INVOICE']);
    });
  });

  describe('refusals', () => {
    it('INVOICE_DATE_INVALID: after today, or in or before the filed month', async () => {
      const key = await gstTenant({ lockedThrough: '2025-12' });
      const b = await booking(key);
      const filed = await demand(key, b.id, { demandDate: '2025-12-31', dueDate: '2026-01-15' });
      expect([filed.status, filed.body.code]).toEqual([422, 'INVOICE_DATE_INVALID']);
      const ok = await demand(key, b.id, { demandDate: '2026-01-01', dueDate: '2026-01-15' });
      expect(ok.status).toBe(201);
    });

    it('BUYER_ADDRESS_REQUIRED from a taxable 50,000.00 without an address or GSTIN', async () => {
      const key = await gstTenant();
      const noAddress = await booking(key, { buyerAddress: undefined });
      const big = await demand(key, noAddress.id, { splits: [split(75000)] });
      expect([big.status, big.body.code]).toEqual([422, 'BUYER_ADDRESS_REQUIRED']);
      const small = await demand(key, noAddress.id, { splits: [split(74999.98)] });
      expect(small.status).toBe(201);
      const b2b = await booking(key, { buyerAddress: undefined, buyerGstin: BUYER_GSTIN });
      expect((await demand(key, b2b.id, { splits: [split(75000)] })).status).toBe(201);
    });

    it('chargeType INTEREST only with an INTEREST demand', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const res = await demand(key, b.id, { chargeType: 'INTEREST' });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    });

    it('GST disabled: demands are untaxed exactly as before', async () => {
      const key = (await t.createTenant()).key;
      const b = await booking(key);
      const d = (await demand(key, b.id)).body as Demand;
      expect([d.tax, d.invoice, d.grossAmount.amount, d.pendingAmount.amount]).toEqual([
        null,
        null,
        1000000,
        1000000,
      ]);
      const inv = await get(t, key, `/demands/${d.id}/invoice?format=json`);
      expect([inv.status, inv.body.code]).toEqual([404, 'INVOICE_NOT_FOUND']);
    });
  });

  describe('the tax invoice', () => {
    it('JSON and PDF as issued; frozen after a booking PATCH; 404 for another tenant', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id);
      const patch = await request(t.server)
        .patch(`/bookings/${b.id}`)
        .set(as(key))
        .send({ buyerAddress: 'Somewhere else entirely' });
      expect(patch.status).toBe(200);
      const json = await get(t, key, `/demands/${d.id}/invoice?format=json`);
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({
        number: d.invoice?.number,
        date: today,
        supplier: { gstin: GSTIN, stateCode: '27' },
        recipient: { name: 'Ananya Iyer', address: '12 Marine Drive, Mumbai', gstin: null },
        placeOfSupply: { stateCode: '27', stateName: 'Maharashtra' },
        totals: { grossAmount: { amount: 1050000 }, tax: { amount: 50000 } },
        reverseCharge: false,
      });
      expect(json.body.lines[0].description).toContain('value of land deemed one third');
      expect(json.body.amountInWords).toBe('Rupees Ten Lakh Fifty Thousand Only');
      const pdf = await get(t, key, `/demands/${d.id}/invoice`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(pdf.body as Buffer);
      for (const s of ['TAX INVOICE', 'ORIGINAL FOR RECIPIENT', d.invoice?.number ?? '', GSTIN]) {
        expect(text).toContain(s);
      }
      const other = (await t.createTenant()).key;
      expect((await get(t, other, `/demands/${d.id}/invoice?format=json`)).status).toBe(404);
    });
  });

  describe('letters', () => {
    it("a taxed demand's letter asks for the gross and names the invoice and its GST", async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id);
      const json = await get(t, key, `/demands/${d.id}/letter?format=json&asOf=${today}`);
      expect(json.status).toBe(200);
      expect(json.body.thisDemand.amount).toBe(1050000);
      expect(json.body.gst).toEqual({
        invoiceNumber: d.invoice?.number,
        tax: expect.objectContaining({ amount: 50000 }),
      });
      const pdf = await get(t, key, `/demands/${d.id}/letter?asOf=${today}`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(await pdfText(pdf.body as Buffer)).toContain(`of tax invoice ${d.invoice?.number}`);
      const plain = (await t.createTenant()).key;
      const u = (await demand(plain, (await booking(plain)).id)).body as Demand;
      const untaxed = await get(t, plain, `/demands/${u.id}/letter?format=json&asOf=${today}`);
      expect(untaxed.body.gst).toBeNull();
    });
  });

  describe('finding taxed demands', () => {
    it('demand search filters by invoiceNumber, chargeType and grossAmount', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id);
      await taxed(key, b.id, { chargeType: 'OTHER_CHARGES', splits: [split(1000)] });
      const search = (filters: unknown[]) =>
        request(t.server).post('/demands/search').set(as(key)).send(filters);
      const byNumber = await search([
        { field: 'invoiceNumber', query: d.invoice?.number, type: 'EQUALS' },
      ]);
      expect(byNumber.body.content.map((x: Demand) => x.id)).toEqual([d.id]);
      const other = await search([{ field: 'chargeType', query: 'OTHER_CHARGES', type: 'EQUALS' }]);
      expect(other.body.totalElements).toBe(1);
      const gross = await search([{ field: 'grossAmount', query: '1050000', type: 'EQUALS' }]);
      expect(gross.body.content.map((x: Demand) => x.id)).toEqual([d.id]);
    });
  });

  describe('credit notes', () => {
    it('cancelling a taxed demand issues a credit note for its tax', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id);
      const cancel = await post(t, key, `/demands/${d.id}/cancel`, { reason: 'Raised in error' });
      expect(cancel.status).toBe(200);
      expect(cancel.body.gstCreditTimeBarred).toBe(false);
      const list = await get(t, key, `/credit-notes?booking=${b.id}`);
      expect(list.status).toBe(200);
      expect(list.body.totalElements).toBe(1);
      const note = list.body.content[0];
      expect(note).toMatchObject({
        number: expect.stringMatching(/^CRN\/\d{2}-\d{2}\/\d{5}$/),
        date: today,
        reason: 'Raised in error',
        invoices: [{ number: d.invoice?.number, date: today }],
        totals: { cgst: { amount: 25000 }, sgst: { amount: 25000 }, value: { amount: 1050000 } },
      });
      const one = await get(t, key, `/credit-notes/${note.id}?format=json`);
      expect(one.body.number).toBe(note.number);
      const events = await get(t, key, '/events?after=0&limit=500&type=credit-note.issued');
      expect(events.body.events.map((e: { data: { number: string } }) => e.data.number)).toEqual([
        note.number,
      ]);
      const other = (await t.createTenant()).key;
      expect((await get(t, other, `/credit-notes/${note.id}?format=json`)).status).toBe(404);
      expect((await get(t, other, `/credit-notes?booking=${b.id}`)).body.totalElements).toBe(0);
    });

    it.each([
      ['on 30 November, the last day of the window', '2026-11-30T06:00:00Z', false],
      ['on 1 December, past it', '2026-12-01T06:00:00Z', true],
    ])('an invoice of 2025-26 cancelled %s', async (_when, instant, barred) => {
      const key = await gstTenant();
      const b = await booking(key);
      const d = await taxed(key, b.id, { demandDate: '2026-03-15', dueDate: '2026-03-31' });
      jest.spyOn(clock, 'now').mockReturnValue(new Date(instant));
      const cancel = await post(t, key, `/demands/${d.id}/cancel`, { reason: 'Withdrawn' });
      expect(cancel.status).toBe(200);
      expect(cancel.body.gstCreditTimeBarred).toBe(barred);
      const list = await get(t, key, `/credit-notes?booking=${b.id}`);
      expect(list.body.totalElements).toBe(barred ? 0 : 1);
    });

    it('a booking cancel issues one note per financial year of its invoices', async () => {
      const key = await gstTenant();
      const b = await booking(key);
      await taxed(key, b.id, { demandDate: '2026-03-15', dueDate: '2026-03-31' });
      await taxed(key, b.id, { demandDate: '2026-04-15', dueDate: '2026-04-30' });
      await taxed(key, b.id, { demandDate: '2026-05-15', dueDate: '2026-05-30' });
      const res = await post(t, key, `/bookings/${b.id}/cancel`, { reason: 'Buyer withdrew' });
      expect(res.status).toBe(200);
      const list = await get(t, key, `/credit-notes?booking=${b.id}`);
      expect(list.body.content.map((n: { invoices: unknown[] }) => n.invoices.length)).toEqual([
        1, 2,
      ]);
    });
  });
});
