import { Clock } from '@/platform/clock/clock';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { createDemand, get } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

/** "Today" comes from the Clock provider: moving it moves every date-dependent default. */
describe('the clock', () => {
  let t: TestApp;
  let clock: Clock;

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.app.get(Clock);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t?.close());

  const moveTo = (instant: string) => jest.spyOn(clock, 'now').mockReturnValue(new Date(instant));

  it("ageing's default asOf is the clock's today in the tenant's zone", async () => {
    const tenant = (await t.createTenant()).key;
    await createDemand(t, tenant, { dueDate: '2026-12-15' });
    const ageing = async () => {
      const res = await get(t, tenant, '/receivables/ageing');
      expect(res.status).toBe(200);
      return res.body as { asOf: string; total: { byBucket: Record<string, { amount: number }> } };
    };

    const real = await ageing();
    expect(real.asOf).toBe(formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata')));

    // 20:00 UTC on 9 December is already the 10th in Kolkata.
    moveTo('2026-12-09T20:00:00Z');
    const before = await ageing();
    expect(before.asOf).toBe('2026-12-10');
    expect(before.total.byBucket.NOT_DUE.amount).toBe(100000);

    moveTo('2027-02-20T06:00:00Z');
    const after = await ageing();
    expect(after.asOf).toBe('2027-02-20');
    expect(after.total.byBucket.NOT_DUE.amount).toBe(0);
    expect(after.total.byBucket['61-90'].amount).toBe(100000);
  });
});
