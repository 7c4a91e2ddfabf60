import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '@/platform/config/app-config';
import { ClientThrottlerGuard } from '@/http/throttling/client-throttler.guard';
import { IS_PUBLIC } from '@/http/auth/auth.decorators';
import { Principal } from '@/http/auth/principal';

/** Verified tokens remembered; a dashboard sends the same token with every request. */
const VERIFIED_TOKENS = 10_000;

interface VerifiedToken {
  principal: Principal;
  /** Until when the token stays acceptable: `exp` plus the clock tolerance, in ms. */
  acceptableUntilMs: number;
}

@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  /**
   * Keyed by the whole compact token, signature included, so only the exact bytes that were
   * verified match. A verified token stays valid until `exp` (nbf and iat were already in the
   * past), so an entry is dropped at `exp` + tolerance and the next use is verified afresh.
   */
  private readonly verified = new LRUCache<string, VerifiedToken>({ max: VERIFIED_TOKENS });

  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    @Optional() private readonly throttler?: ClientThrottlerGuard,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const token = bearerToken(req);
    const known = token === undefined ? undefined : this.verified.get(token);
    if (known && Date.now() < known.acceptableUntilMs) {
      req.user = known.principal;
      return true;
    }
    try {
      const ok = (await super.canActivate(context)) as boolean;
      this.remember(token, req.user as Principal | undefined);
      return ok;
    } catch (error) {
      if (token !== undefined) this.verified.delete(token);
      // Refused tokens still spend the address's budget: guessing tokens is rate-limited too.
      await this.throttler?.chargeUnauthenticated(context);
      throw error;
    }
  }

  private remember(token: string | undefined, principal: Principal | undefined): void {
    if (token === undefined || principal?.expiresAt === undefined) return;
    this.verified.set(token, {
      principal,
      acceptableUntilMs: (principal.expiresAt + this.config.jwt.clockToleranceSec) * 1000,
    });
  }
}

/** The compact token of an `Authorization: Bearer <token>` header, as passport-jwt reads it. */
function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}
