import type { Request } from 'express';
import { Principal } from '@/http/auth/principal';
import { clientKey } from '@/http/throttling/client-throttler.guard';

describe('ClientThrottlerGuard', () => {
  const principal = (subject: string, tenants: string[]): Principal => ({
    subject,
    username: subject,
    tenants,
    scopes: new Set(),
  });
  const req = (user: Principal | undefined, tenant?: string, ip = '10.1.2.3') =>
    ({ user, ip, headers: tenant ? { 'x-tenant-id': tenant } : {} }) as unknown as Request;

  describe(clientKey.name, () => {
    it('keys an authenticated request by subject and tenant', () => {
      const alice = principal('alice', ['a', 'b']);
      expect(clientKey(req(alice, 'a'))).not.toBe(clientKey(req(alice, 'b')));
      expect(clientKey(req(alice, 'a'))).toBe(clientKey(req(alice, 'a', '10.9.9.9')));
      expect(clientKey(req(alice, 'a'))).not.toBe(clientKey(req(principal('bob', ['a']), 'a')));
    });

    it('ignores a tenant the token does not grant (no fresh budget per x-tenant-id)', () => {
      const alice = principal('alice', ['a']);
      expect(clientKey(req(alice, 'x'))).toBe(clientKey(req(alice, 'y')));
    });

    it('keys an anonymous request by address, IPv6 by its /64', () => {
      expect(clientKey(req(undefined))).toBe('ip:10.1.2.3');
      expect(clientKey(req(undefined, undefined, '2001:db8::1'))).toBe(
        clientKey(req(undefined, undefined, '2001:db8::2')),
      );
    });

    it('cannot be confused by a subject that looks like a separator', () => {
      expect(clientKey(req(principal('a","b', ['c']), 'c'))).not.toBe(
        clientKey(req(principal('a', ['b","c']), 'b","c')),
      );
    });
  });
});
