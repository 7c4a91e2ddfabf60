import { overdueSince } from './letter';

describe('overdueSince', () => {
  it('is the due date when it is before the letter date', () => {
    expect(overdueSince('2026-07-15', '2026-11-28')).toBe('2026-07-15');
    expect(overdueSince('2026-11-27', '2026-11-28')).toBe('2026-11-27');
  });

  it('is null on the due date and before it', () => {
    expect(overdueSince('2026-11-28', '2026-11-28')).toBeNull();
    expect(overdueSince('2026-12-15', '2026-11-28')).toBeNull();
  });
});
