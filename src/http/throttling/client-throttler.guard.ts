import { ExecutionContext, Injectable } from '@nestjs/common';
import { normalizeIp, ThrottlerGuard } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { Principal } from '@/http/auth/principal';

/** Probes and scrapes are never rate-limited: a 429 there would look like an outage. */
const EXEMPT_PATH = /^\/(health|metrics)(\/|$)/;

/**
 * The identity a request's budget is charged to: the verified token's subject and the tenant it
 * acts for when authenticated, else the client address (req.ip, which honours X-Forwarded-For
 * only from TRUSTED_PROXIES). The tenant counts only when the token grants it, so a caller
 * cannot mint fresh budgets by sending other `x-tenant-id` values.
 */
export function clientKey(req: Request): string {
  const principal = req.user as Principal | undefined;
  if (principal?.subject) {
    const header = req.headers['x-tenant-id'];
    const tenant = typeof header === 'string' && principal.tenants.includes(header) ? header : '';
    return `sub:${JSON.stringify([principal.subject, tenant])}`;
  }
  // IPv6 clients are keyed by their /64, as the stock guard does: one host owns the whole range.
  return `ip:${normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
}

/**
 * The key a budget is kept under (in memory, or `rate_limit_budgets.key`): a hash, so neither
 * store holds the subject, tenant or address itself.
 */
export function budgetKey(throttlerName: string, tracker: string): string {
  return createHash('sha256').update(`${throttlerName}\0${tracker}`).digest('hex');
}

/**
 * One budget per client across every route (the stock guard keys by route, so a client had a
 * separate budget for each endpoint). Registered after JwtAuthGuard so the subject is verified
 * rather than decoded from an unverified token (a decoded `sub` could be varied at will to get a
 * fresh budget per request); requests whose authentication fails are charged to their address by
 * JwtAuthGuard through `chargeUnauthenticated`.
 */
@Injectable()
export class ClientThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(EXEMPT_PATH.test(req.path));
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    return Promise.resolve(clientKey(req as unknown as Request));
  }

  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    return budgetKey(name, tracker);
  }

  /** Counts a request whose token was refused against its address; throws 429 once spent. */
  async chargeUnauthenticated(context: ExecutionContext): Promise<void> {
    const req = context.switchToHttp().getRequest<Request>();
    req.user = undefined;
    await this.canActivate(context);
  }
}
