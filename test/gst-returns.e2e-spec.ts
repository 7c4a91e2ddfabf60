import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '@/platform/clock/clock';
import { binaryBody } from './support/binary-body';
import { get, post, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * GSTR-1 (docs/returns-and-books.md) through the API: the worked month with its figures derived
 * from the tax rule of docs/gst.md (every one written here, nothing read from outside the repository),
 * the workbook and its reconciliation, tenants kept apart, the refusals, and a document tampered
 * with in the database refusing the file.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const GSTIN = '27AAPFU0939F1ZV';
const BUYER_GSTIN = '29AAGCB7383J1Z4';
/** The other tenant's own registration (a valid GSTIN of another state). */
const OTHER_GSTIN = BUYER_GSTIN;

/** Every document of the worked month is dated by 28 October 2026, the day the clock stands at. */
const NOW = new Date('2026-10-28T06:00:00Z');

interface Demand {
  id: string;
  invoice: { number: string; date: string } | null;
  grossAmount: { amount: number };
  tax: {
    taxableValue: { amount: number };
    cgst: { amount: number };
    total: { amount: number };
  } | null;
}

describe('GSTR-1: GET /gst/gstr1', () => {
  let t: TestApp;
  let owner: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
  });
  beforeEach(() => {
    jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(NOW);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await owner?.destroy();
    await t?.close();
  });

  const gstTenant = async (gstin = GSTIN) => {
    const key = (await t.createTenant()).key;
    const res = await request(t.server).put('/tenant/gst').set(as(key)).send({
      enabled: true,
      gstin,
      legalName: 'Skyline Developers Private Limited',
      address: 'Plot 7, Andheri East, Mumbai 400069',
    });
    expect(res.status).toBe(200);
    return key;
  };
  const booking = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await post(t, key, '/bookings', {
      unit: randomUUID(),
      unitName: 'Tower B - 1203',
      buyerName: 'Ananya Iyer',
      bookingDate: '2025-04-01',
      buyerAddress: '12 Marine Drive, Mumbai',
      ...overrides,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const demand = async (
    key: string,
    bookingId: string,
    amount: number,
    demandDate: string,
    overrides: Record<string, unknown> = {},
  ) => {
    const res = await post(t, key, '/demands', {
      booking: bookingId,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: amount,
      demandDate,
      dueDate: demandDate,
      remarks: 'Slab 4',
      splits: [split(amount)],
      ...overrides,
    });
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    return res.body as Demand;
  };
  const gstr1 = (key: string, query: string) =>
    request(t.server).get(`/gst/gstr1?${query}`).set(as(key));

  const item = (rt: number, txval: number, tax: number) => ({
    rt,
    txval,
    iamt: 0,
    camt: tax,
    samt: tax,
    csamt: 0,
  });
  const hsn = (num: number, rt: number, txval: number, tax: number) => ({
    num,
    hsn_sc: '995411',
    desc: 'Residential construction',
    uqc: 'NA',
    qty: 0,
    ...item(rt, txval, tax),
  });

  describe('the worked month: October 2026', () => {
    let key: string;
    let other: string;
    const numbers: Record<string, string> = {};

    beforeAll(async () => {
      jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(NOW);
      key = await gstTenant();
      // D: a STANDARD booking invoiced in September (6,00,000.00: land 2,00,000.00, taxable
      // 4,00,000.00, CGST 15,000.00 + SGST 15,000.00, gross 6,30,000.00) and cancelled unpaid in
      // October (POST /bookings/{id}/cancel): its credit note is dated the cancel day, 28 October.
      const cancelled = await booking(key);
      const september = await demand(key, cancelled.id, 600000, '2026-09-20');
      numbers.september = september.invoice!.number;
      // A: STANDARD 10,00,000.00 -> land 3,33,333.33, taxable 6,66,666.67, 25,000.00 + 25,000.00.
      const standard = await booking(key);
      const a = await demand(key, standard.id, 1000000, '2026-10-05');
      // B: AFFORDABLE 4,00,000.00 -> taxable 2,66,666.67, 2,000.00 + 2,000.00 (0.75 % each).
      const affordable = await booking(key, {
        carpetAreaSqm: 55,
        metroCity: true,
        agreementValue: 4000000,
      });
      const b = await demand(key, affordable.id, 400000, '2026-10-08');
      // C: to a buyer with a GSTIN, STANDARD 20,00,000.00 -> land 6,66,666.67, taxable
      // 13,33,333.33, CGST round(49,999.99987) = 50,000.00, SGST the same, gross 21,00,000.00.
      const registered = await booking(key, { buyerGstin: BUYER_GSTIN });
      const c = await demand(key, registered.id, 2000000, '2026-10-10');
      // I: interest of 8,917.81 on A's booking, AS_PRINCIPAL (as construction): land
      // round(2,972.603) = 2,972.60, taxable 5,945.21, CGST round(222.945375) = 222.95, SGST the
      // same, tax 445.90, gross 9,363.71.
      const i = await demand(key, standard.id, 8917.81, '2026-10-15', {
        demandType: 'INTEREST',
        remarks: 'Interest on late payment',
      });
      // E: an EXEMPT booking: 5,00,000.00 untaxed, a non-GST supply (Table 8).
      const exempt = await booking(key, { gstExempt: true });
      const e = await demand(key, exempt.id, 500000, '2026-10-12');
      expect(e.tax).toBeNull();

      expect(
        [a, b, c, i].map((d) => [
          d.tax?.taxableValue.amount,
          d.tax?.cgst.amount,
          d.tax?.total.amount,
          d.grossAmount.amount,
        ]),
      ).toEqual([
        [666666.67, 25000, 50000, 1050000],
        [266666.67, 2000, 4000, 404000],
        [1333333.33, 50000, 100000, 2100000],
        [5945.21, 222.95, 445.9, 9363.71],
      ]);
      Object.assign(numbers, {
        a: a.invoice!.number,
        b: b.invoice!.number,
        c: c.invoice!.number,
        i: i.invoice!.number,
      });

      const cancel = await post(t, key, `/bookings/${cancelled.id}/cancel`, {
        reason: 'Buyer withdrew',
      });
      expect(cancel.status).toBe(200);
      const notes = await get(t, key, `/credit-notes?booking=${cancelled.id}`);
      expect(notes.body.content).toHaveLength(1);
      numbers.note = notes.body.content[0].number;
      expect(notes.body.content[0].date).toBe('2026-10-28');

      // Another tenant's invoice in the same month, to a buyer with the same GSTIN: never ours.
      other = await gstTenant(OTHER_GSTIN);
      await demand(
        other,
        (await booking(other, { buyerGstin: BUYER_GSTIN })).id,
        100000,
        '2026-10-10',
      );
    });

    it('the series run in the order the documents were issued', () => {
      expect(numbers).toEqual({
        september: 'INV/26-27/00001',
        a: 'INV/26-27/00002',
        b: 'INV/26-27/00003',
        c: 'INV/26-27/00004',
        i: 'INV/26-27/00005',
        note: 'CRN/26-27/00001',
      });
    });

    it('JSON: every table of the month, figures from the tax rule, in the offline-tool layout', async () => {
      const res = await gstr1(key, 'period=2026-10');
      expect([res.status, res.body.code]).toEqual([200, undefined]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        gstin: GSTIN,
        fp: '102026',
        b2b: [
          {
            ctin: BUYER_GSTIN,
            inv: [
              {
                inum: 'INV/26-27/00004',
                idt: '10-10-2026',
                val: 2100000,
                pos: '27',
                rchrg: 'N',
                inv_typ: 'R',
                itms: [{ num: 1, itm_det: item(7.5, 1333333.33, 50000) }],
              },
            ],
          },
        ],
        b2cs: [
          { sply_ty: 'INTRA', pos: '27', typ: 'OE', ...item(1.5, 266666.67, 2000) },
          // A + I - the September invoice's credit note: 6,66,666.67 + 5,945.21 - 4,00,000.00
          // taxable; 25,000.00 + 222.95 - 15,000.00 a head.
          { sply_ty: 'INTRA', pos: '27', typ: 'OE', ...item(7.5, 272611.88, 10222.95) },
        ],
        nil: { inv: [{ sply_ty: 'INTRAB2C', expt_amt: 0, nil_amt: 0, ngsup_amt: 500000 }] },
        hsn: {
          hsn_b2b: [hsn(1, 7.5, 1333333.33, 50000)],
          hsn_b2c: [hsn(1, 1.5, 266666.67, 2000), hsn(2, 7.5, 272611.88, 10222.95)],
        },
        doc_issue: {
          doc_det: [
            {
              doc_num: 1,
              docs: [
                {
                  num: 1,
                  from: 'INV/26-27/00002',
                  to: 'INV/26-27/00005',
                  totnum: 4,
                  cancel: 0,
                  net_issue: 4,
                },
              ],
            },
            {
              doc_num: 5,
              docs: [
                {
                  num: 1,
                  from: 'CRN/26-27/00001',
                  to: 'CRN/26-27/00001',
                  totnum: 1,
                  cancel: 0,
                  net_issue: 1,
                },
              ],
            },
          ],
        },
      });
      // The tax the month owes: 62,222.95 CGST and as much SGST (1,54,445.90 invoiced less
      // 30,000.00 credited).
      const tax = (rows: { camt: number; samt: number }[]) =>
        rows.reduce((a, r) => a + Math.round(r.camt * 100) + Math.round(r.samt * 100), 0);
      expect(
        tax(res.body.b2b[0].inv[0].itms.map((x: { itm_det: never }) => x.itm_det)) +
          tax(res.body.b2cs),
      ).toBe(12444590);
    });

    it('September: the invoice the October credit note undoes, on its own', async () => {
      const res = await gstr1(key, 'period=2026-09');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        gstin: GSTIN,
        fp: '092026',
        b2cs: [{ sply_ty: 'INTRA', pos: '27', typ: 'OE', ...item(7.5, 400000, 15000) }],
        hsn: { hsn_b2c: [hsn(1, 7.5, 400000, 15000)] },
        doc_issue: {
          doc_det: [
            {
              doc_num: 1,
              docs: [
                {
                  num: 1,
                  from: 'INV/26-27/00001',
                  to: 'INV/26-27/00001',
                  totnum: 1,
                  cancel: 0,
                  net_issue: 1,
                },
              ],
            },
          ],
        },
      });
    });

    it('XLSX: the offline-tool sheets and a reconciliation that agrees', async () => {
      const res = await request(t.server)
        .get('/gst/gstr1?period=2026-10&format=xlsx')
        .set(as(key))
        .buffer(true)
        .parse(binaryBody);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="GSTR1-${GSTIN}-102026.xlsx"`,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(new Uint8Array(res.body as Buffer).buffer);
      expect(workbook.worksheets.map((s) => s.name)).toEqual([
        'b2b',
        'b2cs',
        'cdnr',
        'nil',
        'hsn_b2b',
        'hsn_b2c',
        'docs',
        'reconciliation',
      ]);
      const values = (name: string) =>
        (workbook.getWorksheet(name)!.getSheetValues() as unknown[][])
          .filter(Boolean)
          .map((row) => Array.from(row).slice(1));
      expect(values('b2b')).toEqual([
        [
          'GSTIN/UIN of Recipient',
          'Receiver Name',
          'Invoice Number',
          'Invoice date',
          'Invoice Value',
          'Place Of Supply',
          'Reverse Charge',
          'Applicable % of Tax Rate',
          'Invoice Type',
          'E-Commerce GSTIN',
          'Rate',
          'Taxable Value',
          'Cess Amount',
        ],
        [
          BUYER_GSTIN,
          'Ananya Iyer',
          'INV/26-27/00004',
          '10-Oct-2026',
          2100000,
          '27-Maharashtra',
          'N',
          undefined,
          'Regular B2B',
          undefined,
          7.5,
          1333333.33,
          0,
        ],
      ]);
      expect(values('b2cs').slice(1)).toEqual([
        ['OE', '27-Maharashtra', 1.5, undefined, 266666.67, 0],
        ['OE', '27-Maharashtra', 7.5, undefined, 272611.88, 0],
      ]);
      expect(values('cdnr')).toHaveLength(1);
      expect(values('nil')[4]).toEqual([
        'Intra-State supplies to unregistered persons',
        0,
        0,
        500000,
      ]);
      expect(values('docs').slice(1)).toEqual([
        ['Invoices for outward supply', 'INV/26-27/00002', 'INV/26-27/00005', 4, 0],
        ['Credit Note', 'CRN/26-27/00001', 'CRN/26-27/00001', 1, 0],
      ]);
      const reconciliation = values('reconciliation');
      const heading = reconciliation.findIndex((row) => row[0] === 'Table');
      const rows = reconciliation.slice(heading + 1);
      expect(rows.map((r) => [r[0], r[11]])).toEqual([
        ['b2b', 'Yes'],
        ['b2cs', 'Yes'],
        ['cdnr', 'Yes'],
        ['nil', 'Yes'],
        ['hsn_b2b', 'Yes'],
        ['hsn_b2c', 'Yes'],
        ['docs', 'Yes'],
        ['b2b + b2cs - cdnr', 'Yes'],
      ]);
      // The month in total: taxable 18,72,611.88, CGST 62,222.95, SGST 62,222.95.
      expect(rows[7].slice(3, 6)).toEqual([1872611.88, 62222.95, 62222.95]);
      expect(rows[7].slice(7, 10)).toEqual([1872611.88, 62222.95, 62222.95]);
    });

    it('another tenant sees only its own documents; a tenant without any gets an empty return', async () => {
      const theirs = await gstr1(other, 'period=2026-10');
      expect(theirs.status).toBe(200);
      expect(theirs.body.gstin).toBe(OTHER_GSTIN);
      expect(theirs.body.b2b).toEqual([
        {
          ctin: BUYER_GSTIN,
          inv: [expect.objectContaining({ inum: 'INV/26-27/00001', val: 105000 })],
        },
      ]);
      expect(JSON.stringify(theirs.body)).not.toContain('INV/26-27/00004');
      expect(theirs.body.cdnr ?? theirs.body.b2cs ?? theirs.body.nil).toBeUndefined();

      const empty = await gstTenant(OTHER_GSTIN);
      expect((await gstr1(empty, 'period=2026-10')).body).toEqual({
        gstin: OTHER_GSTIN,
        fp: '102026',
      });
      const unregistered = (await t.createTenant()).key;
      expect((await gstr1(unregistered, 'period=2026-10')).body).toEqual({
        gstin: null,
        fp: '102026',
      });
    });
  });

  describe('refusals', () => {
    let key: string;
    beforeAll(async () => {
      key = (await t.createTenant()).key;
    });

    it.each([
      ['no period', '', 'period'],
      ['a malformed period', 'period=2026-13', 'period'],
      ['a period of one digit', 'period=2026-1', 'period'],
      ['a date, not a month', 'period=2026-10-01', 'period'],
      ['a period after the current month', 'period=2026-11', 'period'],
      ['another format', 'period=2026-10&format=pdf', 'format'],
    ])('%s is 400 problem+json', async (_what, query, field) => {
      const res = await gstr1(key, query);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    });

    it('an unknown parameter is 400; the current month is allowed', async () => {
      const res = await gstr1(key, 'period=2026-10&month=10');
      expect([res.status, res.body.code]).toEqual([400, 'UNKNOWN_PARAMETER']);
      expect((await gstr1(key, 'period=2026-10')).status).toBe(200);
    });

    it('needs receipts:read', async () => {
      const denied = await request(t.server)
        .get('/gst/gstr1?period=2026-10')
        .set(as(key, { scope: 'tenant-config:read' }));
      expect(denied.status).toBe(403);
      const allowed = await request(t.server)
        .get('/gst/gstr1?period=2026-10')
        .set(as(key, { scope: 'receipts:read' }));
      expect(allowed.status).toBe(200);
    });

    it('the Accept header chooses the workbook when format= is not given', async () => {
      const res = await request(t.server)
        .get('/gst/gstr1?period=2026-10')
        .set({ ...as(key), accept: XLSX })
        .buffer(true)
        .parse(binaryBody);
      expect(res.headers['content-type']).toBe(XLSX);
    });
  });

  describe('a document that disagrees with its rate refuses the file', () => {
    it('422 GSTR1_INCONSISTENT naming the invoice, JSON and XLSX alike', async () => {
      const key = await gstTenant();
      const d = await demand(key, (await booking(key)).id, 1000000, '2026-10-05');
      const number = d.invoice!.number;
      expect((await gstr1(key, 'period=2026-10')).status).toBe(200);
      // Issued documents are never changed by the application (no UPDATE grant): only the
      // schema owner can, which is what this test plays at.
      await owner.query(
        `UPDATE tax_invoices
            SET document = jsonb_set(document, '{lines,0,cgst}', '"25000.05"')
          WHERE demand_id = $1`,
        [d.id],
      );
      for (const format of ['json', 'xlsx']) {
        const res = await gstr1(key, `period=2026-10&format=${format}`);
        expect(res.status).toBe(422);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 422, code: 'GSTR1_INCONSISTENT' });
        expect(res.body.detail).toContain(number);
        expect(res.body.errors).toEqual(
          expect.arrayContaining([
            {
              field: number,
              message: 'line 1: CGST 25000.05 is not 3.75 % of 666666.67 (25000.00)',
            },
            { field: number, message: expect.stringContaining('differ from its totals') },
          ]),
        );
      }
    });
  });
});
