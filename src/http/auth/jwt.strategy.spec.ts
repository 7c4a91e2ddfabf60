import { issuedInFuture } from '@/http/auth/jwt.strategy';

describe('JwtStrategy', () => {
  describe(issuedInFuture.name, () => {
    const now = 1_700_000_000_000;
    const nowSec = now / 1000;

    it('accepts a missing iat, a past iat and one within the tolerance', () => {
      expect(issuedInFuture(undefined, 30, now)).toBe(false);
      expect(issuedInFuture(nowSec - 3600, 30, now)).toBe(false);
      expect(issuedInFuture(nowSec + 30, 30, now)).toBe(false);
    });

    it('refuses an iat beyond the tolerance, or one that is not a number', () => {
      expect(issuedInFuture(nowSec + 31, 30, now)).toBe(true);
      expect(issuedInFuture(nowSec + 300, 30, now)).toBe(true);
      expect(issuedInFuture('soon', 30, now)).toBe(true);
      expect(issuedInFuture(Number.POSITIVE_INFINITY, 30, now)).toBe(true);
    });
  });
});
