import request from 'supertest';
import { gstinCheckChar } from '@/gst/gst-tax';
import { BookingView, createBooking, get, post } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/** A valid GSTIN (docs/gst.md) and the same with every other check character. */
const GSTIN = '27AAPFU0939F1ZV';
const WRONG_CHECK = '27AAPFU0939F1ZW';
/** Karnataka, another PAN: its check character computed, so the rule is not one memorised value. */
const KA_GSTIN = `29ABCDE1234F2Z${gstinCheckChar('29ABCDE1234F2Z')}`;

interface Settings {
  enabled: boolean;
  gstin: string | null;
  legalName: string | null;
  address: string | null;
  stateCode: string | null;
  otherChargesSac: string;
  interestTax: string;
  lockedThrough: string | null;
  annualReturns: { financialYear: string; filedOn: string }[];
}

const DEFAULTS: Settings = {
  enabled: false,
  gstin: null,
  legalName: null,
  address: null,
  stateCode: null,
  otherChargesSac: '999799',
  interestTax: 'AS_PRINCIPAL',
  lockedThrough: null,
  annualReturns: [],
};

const REGISTERED = {
  enabled: true,
  gstin: GSTIN,
  legalName: 'Skyline Developers Private Limited',
  address: 'Skyline House, Lower Parel, Mumbai 400013',
  otherChargesSac: '995419',
  interestTax: 'STANDARD_18',
  lockedThrough: '2026-09',
  annualReturns: [
    { financialYear: '2025-26', filedOn: '2026-11-15' },
    { financialYear: '2024-25', filedOn: '2025-12-01' },
  ],
};

interface Problem {
  code: string;
  errors?: { field: string; message: string }[];
}

/** GST settings (GET / PUT /tenant/gst, history) and the booking's GST fields (docs/gst.md). */
describe('GST settings and the booking tax class', () => {
  let t: TestApp;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp();
    other = (await t.createTenant()).key;
  });
  afterAll(() => t?.close());

  const newTenant = async () => (await t.createTenant()).key;
  const put = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    request(t.server)
      .put('/tenant/gst')
      .set(as(key, { preferredUsername: 'arjun.mehta' }))
      .set(headers)
      .send(body as object);
  const patch = (key: string, id: string, body: unknown) =>
    request(t.server)
      .patch(`/bookings/${id}`)
      .set(as(key))
      .send(body as object);
  const events = async (key: string, type: string) => {
    const res = await get(t, key, `/events?after=0&limit=500&type=${type}`);
    return res.body.events as { type: string; actor: string; data: Record<string, unknown> }[];
  };
  const fields = (res: { body: Problem }) => (res.body.errors ?? []).map((e) => e.field);

  describe('GET / PUT /tenant/gst and its history', () => {
    it('starts with the defaults; PUT stores with an ETag, If-Match 412 when stale; the history keeps who and when', async () => {
      const key = await newTenant();
      const first = await get(t, key, '/tenant/gst');
      expect(first.status).toBe(200);
      expect(first.body).toEqual(DEFAULTS);
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      expect((await get(t, key, '/tenant/gst/history')).body).toEqual([]);

      const stored = await put(key, REGISTERED, { 'If-Match': first.headers.etag });
      expect(stored.status).toBe(200);
      // stateCode derived from the GSTIN; annual returns kept oldest year first.
      expect(stored.body).toEqual({
        ...REGISTERED,
        stateCode: '27',
        annualReturns: [REGISTERED.annualReturns[1], REGISTERED.annualReturns[0]],
      });
      expect(stored.headers.etag).not.toBe(first.headers.etag);
      const again = await get(t, key, '/tenant/gst');
      expect(again.body).toEqual(stored.body);
      expect(again.headers.etag).toBe(stored.headers.etag);

      // A stale ETag is 412 and changes nothing; the same content again stores nothing.
      const stale = await put(key, { enabled: false }, { 'If-Match': first.headers.etag });
      expect(stale.status).toBe(412);
      expect(stale.body.code).toBe('GST_SETTINGS_CHANGED');
      expect(stale.headers['content-type']).toMatch(/application\/problem\+json/);
      expect((await get(t, key, '/tenant/gst')).body).toEqual(stored.body);
      const same = await put(key, { ...stored.body }, { 'If-Match': stored.headers.etag });
      expect(same.status).toBe(200);
      expect(same.headers.etag).toBe(stored.headers.etag);

      // PUT replaces: what is left out takes its default.
      const off = await put(key, { enabled: false }, { 'If-Match': '*' });
      expect(off.status).toBe(200);
      expect(off.body).toEqual(DEFAULTS);

      const history = (await get(t, key, '/tenant/gst/history')).body as {
        version: number;
        changedAt: string;
        changedBy: string;
        settings: Settings;
      }[];
      expect(history.map((v) => [v.version, v.changedBy, v.settings.enabled])).toEqual([
        [2, 'arjun.mehta', false],
        [1, 'arjun.mehta', true],
      ]);
      expect(history[1].settings).toEqual(stored.body);
      expect(history[0].settings).toEqual(DEFAULTS);
      expect(history[0].changedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

      // gst-settings.updated, data: the settings, once per change.
      const updates = await events(key, 'gst-settings.updated');
      expect(updates.map((e) => [e.actor, e.data])).toEqual([
        ['arjun.mehta', stored.body],
        ['arjun.mehta', off.body],
      ]);

      // Another tenant's settings are its own.
      expect((await get(t, other, '/tenant/gst')).body).toEqual(DEFAULTS);
      expect((await get(t, other, '/tenant/gst/history')).body).toEqual([]);
    });

    it('defaults every optional field left out or null; stateCode is read-only; a GSTIN is normalised', async () => {
      const key = await newTenant();
      const res = await put(key, {
        gstin: ` ${KA_GSTIN.toLowerCase()} `,
        legalName: null,
        stateCode: '07',
        otherChargesSac: null,
        interestTax: null,
        annualReturns: null,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULTS, gstin: KA_GSTIN, stateCode: '29' });
      expect((await put(key, {})).body).toEqual(DEFAULTS);
    });

    it.each([
      ['a wrong check character', WRONG_CHECK],
      ['state code 39', `39AAPFU0939F1Z${gstinCheckChar('39AAPFU0939F1Z')}`],
      ['state code 00', `00AAPFU0939F1Z${gstinCheckChar('00AAPFU0939F1Z')}`],
      ['a PAN of the wrong form', `271APFU0939F1Z${gstinCheckChar('271APFU0939F1Z')}`],
      ['entity character 0', `27AAPFU0939F0Z${gstinCheckChar('27AAPFU0939F0Z')}`],
      ['no Z in position 14', `27AAPFU0939F1Y${gstinCheckChar('27AAPFU0939F1Y')}`],
      ['14 characters', GSTIN.slice(0, 14)],
      ['16 characters', `${GSTIN}1`],
      ['an empty string', ''],
    ])('a GSTIN with %s is 400 GSTIN_INVALID naming the field', async (_what, gstin) => {
      const key = await newTenant();
      const res = await put(key, { ...REGISTERED, gstin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('GSTIN_INVALID');
      expect(fields(res)).toEqual(['gstin']);
      expect((await get(t, key, '/tenant/gst')).body).toEqual(DEFAULTS);
    });

    it('enabled without gstin, legalName and address is 422 GST_SETTINGS_INCOMPLETE', async () => {
      const key = await newTenant();
      const none = await put(key, { enabled: true });
      expect(none.status).toBe(422);
      expect(none.body.code).toBe('GST_SETTINGS_INCOMPLETE');
      expect(fields(none)).toEqual(['gstin', 'legalName', 'address']);
      const noAddress = await put(key, { ...REGISTERED, address: null });
      expect(noAddress.status).toBe(422);
      expect(fields(noAddress)).toEqual(['address']);
      // Disabled, the same is fine.
      expect((await put(key, { ...REGISTERED, enabled: false, address: null })).status).toBe(200);
    });

    it.each([
      [
        'a malformed financialYear',
        { annualReturns: [{ financialYear: '2025/26', filedOn: '2026-11-15' }] },
        'annualReturns.0.financialYear',
      ],
      [
        'years that do not follow',
        { annualReturns: [{ financialYear: '2025-27', filedOn: '2026-11-15' }] },
        'annualReturns.0.financialYear',
      ],
      [
        'a financialYear twice',
        {
          annualReturns: [
            { financialYear: '2024-25', filedOn: '2025-12-01' },
            { financialYear: '2024-25', filedOn: '2025-12-02' },
          ],
        },
        'annualReturns',
      ],
      [
        'a filedOn before the year ends',
        { annualReturns: [{ financialYear: '2025-26', filedOn: '2026-03-31' }] },
        'annualReturns.0.filedOn',
      ],
      [
        'a filedOn after today',
        { annualReturns: [{ financialYear: '2025-26', filedOn: '2999-01-01' }] },
        'annualReturns.0.filedOn',
      ],
      [
        'a bad filedOn',
        { annualReturns: [{ financialYear: '2025-26', filedOn: '2026-02-30' }] },
        'annualReturns.0.filedOn',
      ],
      [
        'an unknown field of a return',
        { annualReturns: [{ financialYear: '2025-26', filedOn: '2026-11-15', form: 'GSTR-9' }] },
        'annualReturns.0.form',
      ],
      ['otherChargesSac of 5 digits', { otherChargesSac: '99979' }, 'otherChargesSac'],
      ['otherChargesSac as a number', { otherChargesSac: 999799 }, 'otherChargesSac'],
      ['an unknown interestTax', { interestTax: 'STANDARD_12' }, 'interestTax'],
      ['lockedThrough month 13', { lockedThrough: '2026-13' }, 'lockedThrough'],
      ['lockedThrough as a date', { lockedThrough: '2026-09-30' }, 'lockedThrough'],
      ['enabled as text', { enabled: 'yes' }, 'enabled'],
      ['gstin as a number', { gstin: 27 }, 'gstin'],
      ['a blank legalName', { legalName: '  ' }, 'legalName'],
      ['an address over 500 characters', { address: 'x'.repeat(501) }, 'address'],
      ['an unknown field', { placeOfSupply: '27' }, 'placeOfSupply'],
    ])('%s is 400 VALIDATION_FAILED naming it', async (_what, change, field) => {
      const res = await put(other, { ...REGISTERED, enabled: false, ...change });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(fields(res)).toContain(field);
    });

    it('needs tenant-config:read to read and tenant-config:write to replace', async () => {
      const reader = as(other, { scope: 'tenant-config:read' });
      expect((await request(t.server).get('/tenant/gst').set(reader)).status).toBe(200);
      expect((await request(t.server).get('/tenant/gst/history').set(reader)).status).toBe(200);
      expect((await request(t.server).put('/tenant/gst').set(reader).send({})).status).toBe(403);
      const clerk = as(other, { scope: 'receipts:read receipts:write' });
      expect((await request(t.server).get('/tenant/gst').set(clerk)).status).toBe(403);
      expect((await request(t.server).get('/tenant/gst/history').set(clerk)).status).toBe(403);
    });
  });

  describe("the booking's GST fields and gstClass", () => {
    let key: string;
    beforeAll(async () => {
      key = await newTenant();
    });

    it('POST takes them, with defaults; every view carries them and gstClass', async () => {
      const plain = await createBooking(t, key, { bookingDate: '2025-04-01' });
      expect(plain).toMatchObject({
        carpetAreaSqm: null,
        metroCity: false,
        gstExempt: false,
        buyerAddress: null,
        buyerGstin: null,
        allotmentDate: '2025-04-01',
        gstClass: 'STANDARD',
      });
      const full = await createBooking(t, key, {
        bookingDate: '2025-04-01',
        agreementValue: 4500000,
        carpetAreaSqm: 58.5,
        metroCity: true,
        buyerAddress: 'Flat 7, Sea Breeze, Carter Road, Mumbai 400050',
        buyerGstin: ` ${GSTIN.toLowerCase()}`,
        allotmentDate: '2025-05-10',
      });
      const expected = {
        carpetAreaSqm: 58.5,
        metroCity: true,
        gstExempt: false,
        buyerAddress: 'Flat 7, Sea Breeze, Carter Road, Mumbai 400050',
        buyerGstin: GSTIN,
        allotmentDate: '2025-05-10',
        gstClass: 'AFFORDABLE',
      };
      expect(full).toMatchObject(expected);
      expect((await get(t, key, `/bookings/${full.id}`)).body).toEqual(full);

      const found = await request(t.server)
        .post('/bookings/search')
        .set(as(key))
        .send([{ field: 'carpetAreaSqm', query: '58.5', type: 'EQUALS' }]);
      expect(found.status).toBe(200);
      expect(found.body.content).toEqual([full]);
      const byGstin = await request(t.server)
        .post('/bookings/search')
        .set(as(key))
        .send([{ field: 'buyerGstin', query: GSTIN.toLowerCase(), type: 'EQUALS' }]);
      expect(byGstin.body.content.map((b: BookingView) => b.id)).toEqual([full.id]);
      const sorted = await request(t.server)
        .post('/bookings/search?sort=carpetAreaSqm,asc')
        .set(as(key))
        .send([{ field: 'carpetAreaSqm', type: 'IS_NOT_NULL' }]);
      expect(sorted.status).toBe(200);

      const created = (await events(key, 'booking.created')).find((e) => e.data.id === full.id);
      expect(created?.data).toEqual(full);
    });

    it.each([
      [
        'exempt, whatever else',
        { gstExempt: true, carpetAreaSqm: 200, agreementValue: 90000000 },
        'EXEMPT',
      ],
      [
        'metro 60 m², 45,00,000.00',
        { metroCity: true, carpetAreaSqm: 60, agreementValue: 4500000 },
        'AFFORDABLE',
      ],
      [
        'metro 60.01 m²',
        { metroCity: true, carpetAreaSqm: 60.01, agreementValue: 4500000 },
        'STANDARD',
      ],
      ['elsewhere 90 m²', { carpetAreaSqm: 90, agreementValue: 4500000 }, 'AFFORDABLE'],
      ['elsewhere 90.01 m²', { carpetAreaSqm: 90.01, agreementValue: 4500000 }, 'STANDARD'],
      ['45,00,000.01', { carpetAreaSqm: 50, agreementValue: 4500000.01 }, 'STANDARD'],
      ['no carpet area', { agreementValue: 100000 }, 'STANDARD'],
      ['no agreement value', { carpetAreaSqm: 30 }, 'STANDARD'],
    ])('%s is %s', async (_what, body, gstClass) => {
      const booking = await createBooking(t, key, body);
      expect(booking.gstClass).toBe(gstClass);
      expect((await get(t, key, `/bookings/${booking.id}`)).body.gstClass).toBe(gstClass);
    });

    it.each([
      ['carpetAreaSqm 0', { carpetAreaSqm: 0 }, 'carpetAreaSqm'],
      ['carpetAreaSqm negative', { carpetAreaSqm: -1 }, 'carpetAreaSqm'],
      ['carpetAreaSqm with 3 decimals', { carpetAreaSqm: 58.125 }, 'carpetAreaSqm'],
      ['carpetAreaSqm as text', { carpetAreaSqm: '58.5' }, 'carpetAreaSqm'],
      ['carpetAreaSqm too large', { carpetAreaSqm: 100000000 }, 'carpetAreaSqm'],
      ['metroCity as text', { metroCity: 'true' }, 'metroCity'],
      ['gstExempt as a number', { gstExempt: 1 }, 'gstExempt'],
      ['buyerAddress over 500 characters', { buyerAddress: 'x'.repeat(501) }, 'buyerAddress'],
      [
        'allotmentDate before bookingDate',
        { bookingDate: '2025-04-01', allotmentDate: '2025-03-31' },
        'allotmentDate',
      ],
      ['a bad allotmentDate', { allotmentDate: '2025-02-30' }, 'allotmentDate'],
    ])('POST with %s is 400 VALIDATION_FAILED', async (_what, change, field) => {
      const res = await post(t, key, '/bookings', {
        unit: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        buyerName: 'Ananya Iyer',
        bookingDate: '2025-04-01',
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(fields(res)).toContain(field);
    });

    it('POST with a buyerGstin that fails its check is 400 GSTIN_INVALID naming it', async () => {
      const res = await post(t, key, '/bookings', {
        unit: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        buyerName: 'Ananya Iyer',
        bookingDate: '2025-04-01',
        buyerGstin: WRONG_CHECK,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('GSTIN_INVALID');
      expect(fields(res)).toEqual(['buyerGstin']);
    });
  });

  describe('PATCH /bookings/{id}', () => {
    let key: string;
    beforeAll(async () => {
      key = await newTenant();
    });

    it('changes the fields given, clears those sent as null, and writes booking.updated', async () => {
      const booking = await createBooking(t, key, {
        bookingDate: '2025-04-01',
        unitName: 'Tower B – 1203',
        agreementValue: 8500000,
      });
      const changed = await patch(key, booking.id, {
        carpetAreaSqm: 88.25,
        agreementValue: 4500000,
        buyerAddress: 'Flat 7, Sea Breeze, Carter Road, Mumbai 400050',
        buyerGstin: KA_GSTIN.toLowerCase(),
        allotmentDate: '2025-06-01',
        unitName: 'Tower B – 1204',
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        ...booking,
        unitName: 'Tower B – 1204',
        agreementValue: expect.objectContaining({ amount: 4500000, formatted: '45,00,000.00' }),
        carpetAreaSqm: 88.25,
        buyerAddress: 'Flat 7, Sea Breeze, Carter Road, Mumbai 400050',
        buyerGstin: KA_GSTIN,
        allotmentDate: '2025-06-01',
        gstClass: 'AFFORDABLE',
      });
      expect((await get(t, key, `/bookings/${booking.id}`)).body).toEqual(changed.body);

      // metroCity makes 88.25 m² too large; gstExempt wins over everything.
      expect((await patch(key, booking.id, { metroCity: true })).body.gstClass).toBe('STANDARD');
      expect((await patch(key, booking.id, { gstExempt: true })).body.gstClass).toBe('EXEMPT');

      const cleared = await patch(key, booking.id, {
        carpetAreaSqm: null,
        metroCity: null,
        gstExempt: null,
        buyerAddress: null,
        buyerGstin: null,
        allotmentDate: null,
        agreementValue: null,
        unitName: null,
      });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toEqual({
        ...booking,
        unitName: null,
        agreementValue: null,
        allotmentDate: '2025-04-01',
        gstClass: 'STANDARD',
      });

      // An empty PATCH (or one that changes nothing) answers the booking and writes no event.
      expect((await patch(key, booking.id, {})).body).toEqual(cleared.body);
      expect((await patch(key, booking.id, { metroCity: false })).status).toBe(200);
      const updates = (await events(key, 'booking.updated')).filter(
        (e) => e.data.id === booking.id,
      );
      expect(updates.map((e) => e.data.gstClass)).toEqual([
        'AFFORDABLE',
        'STANDARD',
        'EXEMPT',
        'STANDARD',
      ]);
      expect(updates[0].data).toEqual(changed.body);
      expect(updates[3].data).toEqual(cleared.body);
    });

    it.each([
      ['bookingDate', { bookingDate: '2025-04-02' }],
      ['buyerName', { buyerName: 'Someone Else' }],
      ['buyerId', { buyerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' }],
      ['unit', { unit: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' }],
      ['status', { status: 'CANCELLED' }],
      ['bookingNumber', { bookingNumber: 'BKG/1' }],
      ['gstClass', { gstClass: 'AFFORDABLE' }],
    ])('refuses %s: 400, an unknown field, nothing changed', async (field, body) => {
      const booking = await createBooking(t, key);
      const res = await patch(key, booking.id, { carpetAreaSqm: 40, ...body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([{ field, message: `${field} is an unknown field` }]);
      expect((await get(t, key, `/bookings/${booking.id}`)).body).toEqual(booking);
    });

    it('refuses bad values of its fields', async () => {
      const booking = await createBooking(t, key, { bookingDate: '2025-04-01' });
      const early = await patch(key, booking.id, { allotmentDate: '2025-03-31' });
      expect(early.status).toBe(400);
      expect(early.body.code).toBe('VALIDATION_FAILED');
      expect(fields(early)).toEqual(['allotmentDate']);
      const gstin = await patch(key, booking.id, { buyerGstin: WRONG_CHECK });
      expect(gstin.status).toBe(400);
      expect(gstin.body.code).toBe('GSTIN_INVALID');
      expect(fields(gstin)).toEqual(['buyerGstin']);
      const area = await patch(key, booking.id, { carpetAreaSqm: 0 });
      expect(area.status).toBe(400);
      expect(fields(area)).toEqual(['carpetAreaSqm']);
      const value = await patch(key, booking.id, { agreementValue: 1.005 });
      expect(value.status).toBe(400);
      expect(fields(value)).toEqual(['agreementValue']);
      const body = await request(t.server)
        .patch(`/bookings/${booking.id}`)
        .set(as(key))
        .set('content-type', 'application/json')
        .send('[1]');
      expect(body.status).toBe(400);
      expect((await get(t, key, `/bookings/${booking.id}`)).body).toEqual(booking);
    });

    it('a cancelled booking is 409 BOOKING_CANCELLED', async () => {
      const booking = await createBooking(t, key);
      const cancel = await post(t, key, `/bookings/${booking.id}/cancel`, { reason: 'Withdrawn' });
      expect(cancel.status).toBe(200);
      const res = await patch(key, booking.id, { carpetAreaSqm: 40 });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('BOOKING_CANCELLED');
      expect((await get(t, key, `/bookings/${booking.id}`)).body.carpetAreaSqm).toBeNull();
    });

    it("another tenant's booking is 404 on GET and PATCH and stays unchanged", async () => {
      const booking = await createBooking(t, key, { carpetAreaSqm: 40 });
      expect((await get(t, other, `/bookings/${booking.id}`)).status).toBe(404);
      const res = await patch(other, booking.id, { carpetAreaSqm: 99 });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BOOKING_NOT_FOUND');
      expect((await get(t, key, `/bookings/${booking.id}`)).body).toEqual(booking);
      const search = await request(t.server)
        .post('/bookings/search')
        .set(as(other))
        .send([{ field: 'id', query: booking.id, type: 'EQUALS' }]);
      expect(search.body.content).toEqual([]);
    });

    it('needs receipts:write', async () => {
      const booking = await createBooking(t, key);
      const res = await request(t.server)
        .patch(`/bookings/${booking.id}`)
        .set(as(key, { scope: 'receipts:read' }))
        .send({ carpetAreaSqm: 40 });
      expect(res.status).toBe(403);
    });
  });
});
