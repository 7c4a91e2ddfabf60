import request from 'supertest';
import { ClsService } from 'nestjs-cls';
import { TransactionHost } from '@nestjs-cls/transactional';
import { DataSource } from 'typeorm';
import { parseLocalDate } from '@/common/dates/local-date';
import { TenantContext } from '@/common/tenant-context';
import { bindTenant } from '@/http/tenancy/bind-tenant';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { DocumentType } from '@/numbering/number-pattern';
import { NumberingService } from '@/numbering/numbering.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { post } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Numbers of the GST documents (tax invoice, credit note, refund): issued by NumberingService in
 * the transaction that writes the document (no route issues them yet), configured through the
 * tenant configuration.
 */
describe('GST document numbering', () => {
  let t: TestApp;
  let owner: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
  });
  afterAll(async () => {
    await owner?.destroy();
    await t?.close();
  });

  const context = (tenant: Tenant): TenantContext => ({
    tenantId: tenant.id,
    tenantKey: tenant.key,
    currency: tenant.currency,
    locale: tenant.locale,
    timezone: tenant.timezone,
    fyStartMonth: tenant.fyStartMonth,
    actor: 'test',
  });

  /**
   * Issues a number in a tenant transaction as a document write would; `fail` rolls the
   * transaction back after the number was taken (a document that failed to save).
   */
  const issue = (tenant: Tenant, type: DocumentType, date: string, fail = false) => {
    const txHost = t.app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
    const numbering = t.app.get(NumberingService);
    return t.app.get(ClsService).run(() =>
      txHost.withTransaction(async () => {
        await bindTenant(txHost.tx, tenant.id);
        const number = await numbering.allocate(context(tenant), type, {
          date: parseLocalDate(date),
        });
        if (fail) throw new Error(`rolled back after ${number}`);
        return number;
      }),
    );
  };

  const get = (tenant: Tenant) =>
    request(t.server).get('/tenant/configuration').set(as(tenant.key));

  /** PUT the current configuration with `changes`; the GST fields are left out unless changed. */
  const put = async (tenant: Tenant, changes: Record<string, unknown>) => {
    const current = (await get(tenant)).body as Record<string, unknown>;
    for (const key of Object.keys(current)) {
      if (/^(taxInvoice|creditNote|refund)Number/.test(key)) delete current[key];
    }
    return request(t.server)
      .put('/tenant/configuration')
      .set(as(tenant.key))
      .send({ ...current, ...changes });
  };

  const counters = async (tenant: Tenant, type: DocumentType) =>
    (
      await owner.query<{ counter_key: string; next_value: string }[]>(
        `SELECT counter_key, next_value FROM number_counters
          WHERE tenant_id = $1 AND document_type = $2 ORDER BY counter_key`,
        [tenant.id, type],
      )
    ).map((r) => `${r.counter_key}=${r.next_value}`);

  const issued = async (tenant: Tenant, type: DocumentType) =>
    (
      await owner.query<{ number: string }[]>(
        `SELECT number FROM issued_numbers WHERE tenant_id = $1 AND document_type = $2
          ORDER BY number`,
        [tenant.id, type],
      )
    ).map((r) => r.number);

  describe('configuration', () => {
    it('every tenant has the default series; the migration gives existing rows the same', async () => {
      const tenant = await t.createTenant();
      const res = await get(tenant);
      expect(res.body).toMatchObject({
        taxInvoiceNumberPrefix: 'INV',
        taxInvoiceNumberStarting: 1,
        taxInvoiceNumberPattern: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
        creditNoteNumberPrefix: 'CRN',
        creditNoteNumberStarting: 1,
        creditNoteNumberPattern: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
        refundNumberPrefix: 'RFD',
        refundNumberStarting: 1,
        refundNumberPattern: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
      });
      const defaults = await owner.query<{ column_name: string; column_default: string }[]>(
        `SELECT column_name, column_default FROM information_schema.columns
          WHERE table_name = 'tenant_configurations'
            AND column_name ~ '^(tax_invoice|credit_note|refund)_number_'
          ORDER BY column_name`,
      );
      expect(defaults.map((d) => `${d.column_name} ${d.column_default}`)).toEqual([
        "credit_note_number_pattern '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}'::text",
        "credit_note_number_prefix 'CRN'::text",
        'credit_note_number_starting 1',
        "refund_number_pattern '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}'::text",
        "refund_number_prefix 'RFD'::text",
        'refund_number_starting 1',
        "tax_invoice_number_pattern '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}'::text",
        "tax_invoice_number_prefix 'INV'::text",
        'tax_invoice_number_starting 1',
      ]);
    });

    it('PUT stores the fields sent, keeps those left out, and records them in the history', async () => {
      const tenant = await t.createTenant();
      const first = await put(tenant, {
        taxInvoiceNumberPrefix: 'TI',
        taxInvoiceNumberPattern: '{PREFIX}{SEP}{FYYYY}{SEP}{SEQ:4}',
        refundNumberStarting: 7,
      });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        taxInvoiceNumberPrefix: 'TI',
        taxInvoiceNumberPattern: '{PREFIX}{SEP}{FYYYY}{SEP}{SEQ:4}',
        refundNumberStarting: 7,
        creditNoteNumberPrefix: 'CRN',
      });
      // Left out: kept, not reset to the defaults.
      const second = await put(tenant, { receiptNumberPrefix: 'RC' });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        taxInvoiceNumberPrefix: 'TI',
        refundNumberStarting: 7,
        receiptNumberPrefix: 'RC',
      });
      expect((await get(tenant)).body).toEqual(second.body);
      const history = await request(t.server)
        .get('/tenant/configuration/history')
        .set(as(tenant.key));
      expect(history.body[1].changes).toEqual(
        expect.arrayContaining([
          { field: 'taxInvoiceNumberPrefix', from: 'INV', to: 'TI' },
          { field: 'refundNumberStarting', from: 1, to: 7 },
        ]),
      );
      expect(history.body[0].changes).toEqual([
        { field: 'receiptNumberPrefix', from: 'RCT', to: 'RC' },
      ]);
      expect(history.body[0].configuration.taxInvoiceNumberPrefix).toBe('TI');
    });

    it('the preview shows the three series, with the current values for fields left out', async () => {
      const tenant = await t.createTenant({ fyStartMonth: 1 });
      await put(tenant, { creditNoteNumberPrefix: 'CN' });
      const current = (await get(tenant)).body as Record<string, unknown>;
      delete current.creditNoteNumberPrefix;
      const res = await request(t.server)
        .post('/tenant/configuration/preview')
        .set(as(tenant.key))
        .send({ ...current, refundNumberPrefix: 'RF' });
      expect(res.status).toBe(200);
      const next = Object.fromEntries(
        (res.body.documents as { documentType: string; next: string }[]).map((d) => [
          d.documentType,
          d.next,
        ]),
      );
      const year = Number(res.body.date.slice(0, 4));
      const month = Number(res.body.date.slice(5, 7));
      const start = month >= 4 ? year : year - 1;
      const fy = `${String(start % 100).padStart(2, '0')}-${String((start + 1) % 100).padStart(2, '0')}`;
      // The tenant's own financial year is the calendar year; the GST documents' runs from April.
      expect(next.receipt).toBe(`RCT/${String(year % 100).padStart(2, '0')}/00001`);
      expect(next['tax-invoice']).toBe(`INV/${fy}/00001`);
      expect(next['credit-note']).toBe(`CN/${fy}/00001`);
      expect(next.refund).toBe(`RF/${fy}/00001`);
      expect(Object.keys(next)).toEqual([
        'booking',
        'demand',
        'demand-split',
        'receipt',
        'snag',
        'tax-invoice',
        'credit-note',
        'refund',
      ]);
      expect((await get(tenant)).body.refundNumberPrefix).toBe('RFD'); // stored nothing
    });

    describe('a pattern that breaks the GST rules is 400 VALIDATION_FAILED and stores nothing', () => {
      const cases: [string, Record<string, unknown>, string, RegExp][] = [
        [
          'more than 16 characters at the padded width',
          { taxInvoiceNumberPrefix: 'INVCE' },
          'taxInvoiceNumberPattern',
          /INVCE\/\d\d-\d\d\/99999 is 17 characters/,
        ],
        [
          'a counter padded past 16 characters',
          { creditNoteNumberPattern: '{PREFIX}{SEP}{FYYYY}{SEP}{SEQ:7}' },
          'creditNoteNumberPattern',
          /CRN\/\d{4}-\d\d\/9999999 is 19 characters/,
        ],
        [
          'a character other than letters, digits, - and /',
          { creditNoteNumberPattern: '{PREFIX}_{FY}_{SEQ:4}' },
          'creditNoteNumberPattern',
          /"_"; GST rules allow only letters, digits, - and \//,
        ],
        [
          'a separator the series use that is not allowed',
          { separator: '.' },
          'taxInvoiceNumberPattern',
          /"\."/,
        ],
        [
          'a separator that makes the series too long',
          { separator: '--' },
          'refundNumberPattern',
          /RFD--\d\d-\d\d--99999 is 17 characters/,
        ],
        [
          'no {FY} or {FYYYY}',
          { refundNumberPattern: '{PREFIX}{SEP}{YYYY}{SEP}{SEQ:5}' },
          'refundNumberPattern',
          /\{FY\} or \{FYYYY\}/,
        ],
        ['the legacy form', { refundNumberPattern: '00000' }, 'refundNumberPattern', /\{FY\}/],
        [
          '{PARENT}',
          { taxInvoiceNumberPattern: '{PARENT}{SEP}{FY}{SEQ:3}' },
          'taxInvoiceNumberPattern',
          /PARENT/,
        ],
        ['a null prefix', { taxInvoiceNumberPrefix: null }, 'taxInvoiceNumberPrefix', /string/],
        [
          'a negative Starting',
          { creditNoteNumberStarting: -1 },
          'creditNoteNumberStarting',
          /less than 0/,
        ],
      ];
      let tenant: Tenant;
      beforeAll(async () => {
        tenant = await t.createTenant();
      });

      it.each(cases)('%s', async (_name, changes, field, message) => {
        const before = (await get(tenant)).body;
        for (const path of ['/tenant/configuration', '/tenant/configuration/preview']) {
          const res = await request(t.server)
            [path.endsWith('preview') ? 'post' : 'put'](path)
            .set(as(tenant.key))
            .send({ ...before, ...changes });
          expect(res.status).toBe(400);
          expect(res.headers['content-type']).toMatch(/problem\+json/);
          expect(res.body.code).toBe('VALIDATION_FAILED');
          const error = (res.body.errors as { field: string; message: string }[]).find(
            (e) => e.field === field,
          );
          expect(error?.message).toMatch(message);
        }
        expect((await get(tenant)).body).toEqual(before);
      });

      it('a separator the GST series cannot use is fine when no series uses {SEP}', async () => {
        const res = await put(tenant, {
          separator: '.',
          taxInvoiceNumberPattern: '{PREFIX}-{FY}-{SEQ:5}',
          creditNoteNumberPattern: '{PREFIX}-{FY}-{SEQ:5}',
          refundNumberPattern: '{PREFIX}-{FY}-{SEQ:5}',
        });
        expect(res.status).toBe(200);
      });
    });
  });

  describe('issuing (NumberingService.allocate in the document transaction)', () => {
    it('is gap-free per financial year, April to March whatever the tenant financial year', async () => {
      const tenant = await t.createTenant({ fyStartMonth: 1 });
      expect(await issue(tenant, 'tax-invoice', '2026-03-31')).toBe('INV/25-26/00001');
      expect(await issue(tenant, 'tax-invoice', '2026-04-01')).toBe('INV/26-27/00001');
      // A document that fails to save takes its number back with it.
      await expect(issue(tenant, 'tax-invoice', '2026-11-22', true)).rejects.toThrow(
        'rolled back after INV/26-27/00002',
      );
      expect(await issue(tenant, 'tax-invoice', '2026-11-22')).toBe('INV/26-27/00002');
      expect(await issue(tenant, 'tax-invoice', '2027-03-31')).toBe('INV/26-27/00003');
      expect(await issue(tenant, 'tax-invoice', '2025-05-01')).toBe('INV/25-26/00002');
      expect(await issue(tenant, 'credit-note', '2026-11-22')).toBe('CRN/26-27/00001');
      expect(await issue(tenant, 'refund', '2026-11-22')).toBe('RFD/26-27/00001');
      expect(await issued(tenant, 'tax-invoice')).toEqual([
        'INV/25-26/00001',
        'INV/25-26/00002',
        'INV/26-27/00001',
        'INV/26-27/00002',
        'INV/26-27/00003',
      ]);
    });

    it("keeps another tenant's counters separate", async () => {
      const a = await t.createTenant();
      const b = await t.createTenant();
      expect(await issue(a, 'tax-invoice', '2026-11-22')).toBe('INV/26-27/00001');
      expect(await issue(a, 'tax-invoice', '2026-11-22')).toBe('INV/26-27/00002');
      await put(b, { taxInvoiceNumberPrefix: 'B' });
      expect(await issue(b, 'tax-invoice', '2026-11-22')).toBe('B/26-27/00001');
      expect(await issue(a, 'tax-invoice', '2026-11-22')).toBe('INV/26-27/00003');
      expect(await counters(a, 'tax-invoice')).toEqual(['INV/26-27/{SEQ}=4']);
      expect(await counters(b, 'tax-invoice')).toEqual(['B/26-27/{SEQ}=2']);
    });

    it('is 409 NUMBER_TOO_LONG past 16 characters, taking nothing', async () => {
      const tenant = await t.createTenant();
      expect(
        (await put(tenant, { taxInvoiceNumberPrefix: 'INVC', taxInvoiceNumberStarting: 99999 }))
          .status,
      ).toBe(200);
      expect(await issue(tenant, 'tax-invoice', '2026-11-22')).toBe('INVC/26-27/99999');
      for (let i = 0; i < 2; i++) {
        await expect(issue(tenant, 'tax-invoice', '2026-11-22')).rejects.toMatchObject({
          status: 409,
          code: 'NUMBER_TOO_LONG',
          detail: expect.stringMatching(/INVC\/26-27\/100000, is 17 characters/),
        });
      }
      expect(await issued(tenant, 'tax-invoice')).toEqual(['INVC/26-27/99999']);
      expect(await counters(tenant, 'tax-invoice')).toEqual(['INVC/26-27/{SEQ}=100000']);
      // A new financial year is a new counter.
      expect(await issue(tenant, 'tax-invoice', '2027-04-01')).toBe('INVC/27-28/99999');
    });

    it.each(['tax-invoice', 'credit-note', 'refund'])(
      'refuses a bare %s number (400 NUMBER_ISSUED_WITH_DOCUMENT), consuming nothing',
      async (type) => {
        const tenant = await t.createTenant();
        const res = await post(t, tenant.key, `/numbers/${type}`, {});
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(/problem\+json/);
        expect(res.body.code).toBe('NUMBER_ISSUED_WITH_DOCUMENT');
        expect(await counters(tenant, type as DocumentType)).toEqual([]);
        expect(await issue(tenant, type as DocumentType, '2026-11-22')).toMatch(/\/26-27\/00001$/);
      },
    );
  });

  describe('Starting of a series in use (409 NUMBER_SERIES_IN_USE)', () => {
    it('refuses a Starting that would move a used counter forward; lowering is fine', async () => {
      const tenant = await t.createTenant();
      for (let i = 0; i < 3; i++) await issue(tenant, 'tax-invoice', '2026-11-22');
      const before = (await get(tenant)).body;
      const raised = await put(tenant, { taxInvoiceNumberStarting: 10 });
      expect(raised.status).toBe(409);
      expect(raised.headers['content-type']).toMatch(/problem\+json/);
      expect(raised.body.code).toBe('NUMBER_SERIES_IN_USE');
      expect(raised.body.detail).toMatch(/INV\/26-27\/\{SEQ\}.*4/);
      expect((await get(tenant)).body).toEqual(before);
      // Up to the next number moves nothing; below it never rewinds.
      expect((await put(tenant, { taxInvoiceNumberStarting: 4 })).status).toBe(200);
      expect((await put(tenant, { taxInvoiceNumberStarting: 1 })).status).toBe(200);
      expect(await issue(tenant, 'tax-invoice', '2026-11-22')).toBe('INV/26-27/00004');
      // A series not used yet may start anywhere.
      expect((await put(tenant, { creditNoteNumberStarting: 500 })).status).toBe(200);
      expect(await issue(tenant, 'credit-note', '2026-11-22')).toBe('CRN/26-27/00500');
    });

    it('refuses turning a configuration active whose Starting would move a counter', async () => {
      const tenant = await t.createTenant();
      expect((await put(tenant, { active: false })).status).toBe(200);
      // Inactive: numbered by the default scheme.
      expect(await issue(tenant, 'refund', '2026-11-22')).toBe('RFD/26-27/00001');
      expect((await put(tenant, { refundNumberStarting: 50 })).status).toBe(200);
      const activate = await put(tenant, { active: true });
      expect(activate.status).toBe(409);
      expect(activate.body.code).toBe('NUMBER_SERIES_IN_USE');
      expect((await put(tenant, { active: true, refundNumberStarting: 2 })).status).toBe(200);
      expect(await issue(tenant, 'refund', '2026-11-22')).toBe('RFD/26-27/00002');
    });
  });
});
