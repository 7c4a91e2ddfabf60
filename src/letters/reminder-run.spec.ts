import { runAsOf } from './reminder-run';

describe('runAsOf', () => {
  const today = '2026-11-28';

  it('defaults to today and accepts today', () => {
    expect(runAsOf(undefined, today)).toEqual({ asOf: today });
    expect(runAsOf(today, today)).toEqual({ asOf: today });
  });

  it.each(['2026-11-01', '2026-11-27', '2026-11-29', '2027-11-28'])(
    'refuses %s naming asOf',
    (given) => {
      const r = runAsOf(given, today);
      expect(r.asOf).toBeUndefined();
      expect(r.error?.field).toBe('asOf');
      expect(r.error?.message).toContain(today);
    },
  );
});
