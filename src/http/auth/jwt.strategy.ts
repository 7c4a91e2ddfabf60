import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AppConfig } from '@/platform/config/app-config';
import { AppError } from '@/common/app-error';
import { JwtKeyMaterial } from '@/http/auth/jwt-key-material';
import { Principal, principalFromClaims } from '@/http/auth/principal';

/** True when an `iat` (seconds) is later than now plus the tolerance; a non-number is refused too. */
export function issuedInFuture(iat: unknown, toleranceSec: number, nowMs = Date.now()): boolean {
  if (iat === undefined) return false;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return true;
  return iat > Math.floor(nowMs / 1000) + toleranceSec;
}

/**
 * Verifies bearer tokens: HS256 with a shared secret locally, RS256/ES256 through JWKS in
 * production. Algorithms are pinned per mode; issuer and audience are checked when configured.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    private readonly config: AppConfig,
    keys: JwtKeyMaterial,
  ) {
    const common = {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      jsonWebTokenOptions: { clockTolerance: config.jwt.clockToleranceSec },
    };
    const options: StrategyOptionsWithoutRequest = config.jwt.jwksUri
      ? {
          ...common,
          algorithms: ['RS256', 'ES256'],
          secretOrKeyProvider: passportJwtSecret({
            jwksUri: config.jwt.jwksUri,
            cache: true,
            rateLimit: true,
            jwksRequestsPerMinute: 10,
          }),
        }
      : {
          ...common,
          algorithms: ['HS256'],
          // jsonwebtoken accepts a KeyObject; passport-jwt's types only list string | Buffer.
          secretOrKey: keys.hmacKey() as unknown as Buffer,
        };
    super(options);
  }

  validate(claims: Record<string, unknown>): Principal {
    // jsonwebtoken accepts a token without `exp` (it never expires) or without a subject; we do
    // not: every token must expire, and every write must be attributable to someone.
    const principal = principalFromClaims(claims, this.config.jwt.tenantClaim);
    if (typeof claims.exp !== 'number' || principal.username === '') {
      throw new UnauthorizedException();
    }
    // jsonwebtoken refuses a future `nbf` but only type-checks `iat`: a token "issued" in the
    // future comes from a skewed or compromised issuer, and would outlive its intended lifetime.
    if (issuedInFuture(claims.iat, this.config.jwt.clockToleranceSec)) {
      throw new AppError(
        401,
        'UNAUTHENTICATED',
        'Unauthorized',
        `The token's iat lies in the future beyond the ${this.config.jwt.clockToleranceSec} s clock tolerance.`,
      );
    }
    return principal;
  }
}
