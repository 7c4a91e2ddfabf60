import { ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppConfig } from '@/platform/config/app-config';
import { JwtAuthGuard } from '@/http/auth/jwt-auth.guard';
import { Principal } from '@/http/auth/principal';

/** passport's part (signature, exp, nbf, iss, aud checks) is stubbed: this is about the cache. */
describe(JwtAuthGuard.name, () => {
  const passportGuard = Object.getPrototypeOf(JwtAuthGuard.prototype) as InstanceType<
    ReturnType<typeof AuthGuard>
  >;
  const nowSec = 1_800_000_000;
  let verify: jest.SpyInstance;
  let guard: JwtAuthGuard;

  const contextFor = (authorization: string) => {
    const req: { headers: Record<string, string>; user?: unknown } = {
      headers: { authorization },
    };
    const context = {
      getHandler: () => undefined,
      getClass: () => undefined,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    return { req, context };
  };
  const principal = (exp: number): Principal => ({
    subject: 'u1',
    username: 'u1',
    tenants: ['acme'],
    scopes: new Set(['receipts:read']),
    expiresAt: exp,
  });

  beforeEach(() => {
    jest.spyOn(Date, 'now').mockReturnValue(nowSec * 1000);
    verify = jest.spyOn(passportGuard, 'canActivate').mockImplementation(function (
      this: unknown,
      ctx: ExecutionContext,
    ) {
      const req = ctx
        .switchToHttp()
        .getRequest<{ headers: { authorization: string }; user?: unknown }>();
      if (req.headers.authorization.endsWith('.bad')) throw new UnauthorizedException();
      req.user = principal(nowSec + 60);
      return Promise.resolve(true);
    });
    const reflector = { getAllAndOverride: () => false } as unknown as Reflector;
    const config = { jwt: { clockToleranceSec: 30 } } as unknown as AppConfig;
    guard = new JwtAuthGuard(reflector, config);
  });
  afterEach(() => jest.restoreAllMocks());

  it('verifies a token once and serves the same principal to its next requests', async () => {
    const first = contextFor('Bearer aaa.bbb.ccc');
    await expect(guard.canActivate(first.context)).resolves.toBe(true);
    const second = contextFor('Bearer aaa.bbb.ccc');
    await expect(guard.canActivate(second.context)).resolves.toBe(true);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(second.req.user).toEqual(first.req.user);
  });

  it('verifies again once exp plus the clock tolerance has passed', async () => {
    await guard.canActivate(contextFor('Bearer aaa.bbb.ccc').context);
    jest.spyOn(Date, 'now').mockReturnValue((nowSec + 60 + 30) * 1000);
    await guard.canActivate(contextFor('Bearer aaa.bbb.ccc').context);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('never serves a token that differs in any byte (e.g. its signature) from the cache', async () => {
    await guard.canActivate(contextFor('Bearer aaa.bbb.ccc').context);
    await expect(
      guard.canActivate(contextFor('Bearer aaa.bbb.bad').context),
    ).rejects.toBeInstanceOf(UnauthorizedException);
    await expect(
      guard.canActivate(contextFor('Bearer aaa.bbb.bad').context),
    ).rejects.toBeInstanceOf(UnauthorizedException);
    expect(verify).toHaveBeenCalledTimes(3);
  });
});
