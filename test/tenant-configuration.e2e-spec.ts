import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

const VALID = {
  bookingNumberPrefix: 'BK',
  bookingNumberStarting: 1,
  bookingNumberPattern: '{PREFIX}{SEP}{YYYY}{SEP}{SEQ:4}',
  demandNumberPrefix: 'DM',
  demandNumberStarting: 10,
  demandNumberPattern: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  demandSplitNumberPrefix: 'DS',
  demandSplitNumberStarting: 1,
  demandSplitNumberPattern: '{PARENT}{SEP}{SEQ:2}',
  receiptNumberPrefix: 'RC',
  receiptNumberStarting: 100,
  receiptNumberPattern: '{PREFIX}{SEP}{YYYY}{SEP}{SEQ:4}',
  snagNumberPrefix: 'SN',
  snagNumberStarting: 1,
  snagNumberPattern: '00000',
  separator: '-',
  active: true,
};

describe('tenant configuration', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    other = await t.createTenant();
  });
  afterAll(() => t.close());

  const get = (key = tenant.key) => request(t.server).get('/tenant/configuration').set(as(key));
  const put = (body: unknown, key = tenant.key, headers: Record<string, string> = {}) =>
    request(t.server)
      .put('/tenant/configuration')
      .set(as(key, { preferredUsername: 'arjun.mehta' }))
      .set(headers)
      .send(body as object);

  it('every tenant starts with the default configuration', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.body).toMatchObject({
      bookingNumberPrefix: 'BKG',
      demandNumberPrefix: 'DMD',
      demandSplitNumberPrefix: 'DSP',
      receiptNumberPrefix: 'RCT',
      snagNumberPrefix: 'SNG',
      receiptNumberPattern: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
      receiptNumberStarting: 1,
      separator: '/',
      active: true,
      createdBy: 'system',
    });
    // The interface document's 22 fields and the GST documents' nine.
    expect(Object.keys(res.body)).toHaveLength(31);
    expect(res.body.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('PUT replaces it, returns the stored object with 200, and GET returns the same', async () => {
    const res = await put(VALID);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...VALID, lastModifiedBy: 'arjun.mehta' });
    expect(res.headers.etag).toBeDefined();
    const again = await get();
    expect(again.body).toEqual(res.body);
    expect(again.headers.etag).toBe(res.headers.etag);
    expect(new Date(res.body.modified).getTime()).toBeGreaterThanOrEqual(
      new Date(res.body.created).getTime(),
    );
  });

  it('accepts back what GET returned (read-only fields are ignored)', async () => {
    const current = (await get()).body;
    const res = await put({
      ...current,
      id: '00000000-0000-4000-8000-000000000000',
      createdBy: 'mallory',
      created: '2000-01-01T00:00:00.000Z',
      receiptNumberPrefix: 'RX',
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(current.id);
    expect(res.body.createdBy).toBe(current.createdBy);
    expect(res.body.created).toBe(current.created);
    expect(res.body.receiptNumberPrefix).toBe('RX');
  });

  it('another tenant does not see or change it', async () => {
    const mine = (await get()).body;
    const theirs = await get(other.key);
    expect(theirs.body.id).not.toBe(mine.id);
    expect(theirs.body.receiptNumberPrefix).toBe('RCT');
    await put({ ...VALID, receiptNumberPrefix: 'ZZ' }, other.key);
    expect((await get()).body.receiptNumberPrefix).toBe(mine.receiptNumberPrefix);
  });

  describe('validation (400 problem+json naming the field)', () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        'a pattern without {SEQ}',
        { receiptNumberPattern: '{PREFIX}{SEP}{FY}' },
        'receiptNumberPattern',
        /SEQ/,
      ],
      [
        'a pattern with two {SEQ}',
        { receiptNumberPattern: '{SEQ}{SEQ:3}' },
        'receiptNumberPattern',
        /exactly once/,
      ],
      [
        'an unknown token',
        { bookingNumberPattern: '{PREFIX}{FOO}{SEQ}' },
        'bookingNumberPattern',
        /\{FOO\}/,
      ],
      [
        '{PARENT} in a receipt pattern',
        { receiptNumberPattern: '{PARENT}{SEQ}' },
        'receiptNumberPattern',
        /PARENT/,
      ],
      [
        'a negative starting number',
        { receiptNumberStarting: -1 },
        'receiptNumberStarting',
        /less than 0/,
      ],
      [
        'a fractional starting number',
        { demandNumberStarting: 1.5 },
        'demandNumberStarting',
        /integer/,
      ],
      ['a string active flag', { active: 'yes' }, 'active', /boolean/],
      ['a prefix with braces', { snagNumberPrefix: 'S{N}' }, 'snagNumberPrefix', /braces/],
      ['an unknown field', { colour: 'blue' }, 'colour', /unknown field/],
    ];
    it.each(cases)('%s', async (_name, patch, field, message) => {
      const before = (await get()).body;
      const res = await put({ ...VALID, ...patch });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      const error = (res.body.errors as { field: string; message: string }[]).find(
        (e) => e.field === field,
      );
      expect(error?.message).toMatch(message);
      expect((await get()).body).toEqual(before); // nothing half-written
    });

    it.each(Object.keys(VALID))('a missing %s', async (field) => {
      const body: Record<string, unknown> = { ...VALID };
      delete body[field];
      const res = await put(body);
      expect(res.status).toBe(400);
      expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    });

    it('an array body', async () => {
      expect((await put([VALID])).status).toBe(400);
    });
  });

  describe('ETag and If-Match', () => {
    it('applies a PUT whose If-Match is current and refuses a stale one with 412', async () => {
      const first = await get();
      const ok = await put({ ...VALID, snagNumberPrefix: 'S1' }, tenant.key, {
        'if-match': first.headers.etag,
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.etag).not.toBe(first.headers.etag);
      const stale = await put({ ...VALID, snagNumberPrefix: 'S2' }, tenant.key, {
        'if-match': first.headers.etag,
      });
      expect(stale.status).toBe(412);
      expect(stale.body.code).toBe('CONFIGURATION_CHANGED');
      expect((await get()).body.snagNumberPrefix).toBe('S1');
    });

    it('compares strongly: a weak form of the current ETag does not match', async () => {
      const current = await get();
      const weak = await put({ ...VALID, snagNumberPrefix: 'S3' }, tenant.key, {
        'if-match': `W/${current.headers.etag}`,
      });
      expect(weak.status).toBe(412);
      const star = await put({ ...VALID, snagNumberPrefix: 'S4' }, tenant.key, { 'if-match': '*' });
      expect(star.status).toBe(200);
    });
  });

  describe('history', () => {
    it('lists every version newest first with who changed what', async () => {
      const fresh = await t.createTenant();
      await request(t.server)
        .put('/tenant/configuration')
        .set(as(fresh.key, { preferredUsername: 'priya' }))
        .send(VALID);
      await request(t.server)
        .put('/tenant/configuration')
        .set(as(fresh.key, { sub: 'svc-42' }))
        .send({ ...VALID, separator: '/' });
      const res = await request(t.server).get('/tenant/configuration/history').set(as(fresh.key));
      expect(res.status).toBe(200);
      expect(res.body.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
      expect(res.body[0]).toMatchObject({
        changedBy: 'svc-42',
        changes: [{ field: 'separator', from: '-', to: '/' }],
      });
      expect(res.body[1].changedBy).toBe('priya');
      expect(res.body[1].changes).toContainEqual({
        field: 'receiptNumberPrefix',
        from: 'RCT',
        to: 'RC',
      });
      expect(res.body[2]).toMatchObject({ changedBy: 'system', changes: [] });
      expect(res.body[0].configuration.separator).toBe('/');
      // another tenant's history is separate
      const otherHistory = await request(t.server)
        .get('/tenant/configuration/history')
        .set(as(other.key));
      expect(
        otherHistory.body.every(
          (v: { configuration: { id: string } }) =>
            v.configuration.id !== res.body[0].configuration.id,
        ),
      ).toBe(true);
    });
  });

  describe('preview', () => {
    it('returns the next number per document type with warnings, storing nothing', async () => {
      const before = (await get()).body;
      const res = await request(t.server)
        .post('/tenant/configuration/preview')
        .set(as(tenant.key))
        .send({
          ...VALID,
          receiptNumberPrefix: 'RECEIPT',
          receiptNumberPattern: '{PREFIX}{SEP}{FYYYY}{SEP}{SEQ:6}',
        });
      expect(res.status).toBe(200);
      const receipt = res.body.documents.find(
        (d: { documentType: string }) => d.documentType === 'receipt',
      );
      expect(receipt.next).toMatch(/^RECEIPT-\d{4}-\d{2}-000100$/);
      expect(receipt.warnings.join(' ')).toMatch(/16/);
      expect(res.body.documents.map((d: { documentType: string }) => d.documentType)).toEqual([
        'booking',
        'demand',
        'demand-split',
        'receipt',
        'snag',
        'tax-invoice',
        'credit-note',
        'refund',
      ]);
      const split = res.body.documents.find(
        (d: { documentType: string }) => d.documentType === 'demand-split',
      );
      expect(split.next).toMatch(/^DM-\d{2}-\d{2}-00010-01$/);
      expect((await get()).body).toEqual(before);
    });

    it('validates the candidate like PUT', async () => {
      const res = await request(t.server)
        .post('/tenant/configuration/preview')
        .set(as(tenant.key))
        .send({ ...VALID, receiptNumberPattern: 'no-seq' });
      expect(res.status).toBe(400);
    });
  });
});
