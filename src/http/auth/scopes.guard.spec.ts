import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '@/common/app-error';
import { IS_PUBLIC, REQUIRED_SCOPES } from '@/http/auth/auth.decorators';
import { ScopesGuard } from '@/http/auth/scopes.guard';

describe(ScopesGuard.name, () => {
  const run = (metadata: Record<string, unknown>, scope: string) => {
    const reflector = { getAllAndOverride: (key: string) => metadata[key] } as unknown as Reflector;
    const context = {
      getHandler: () => undefined,
      getClass: () => undefined,
      switchToHttp: () => ({ getRequest: () => ({ user: { scopes: new Set(scope.split(' ')) } }) }),
    } as unknown as ExecutionContext;
    return () => new ScopesGuard(reflector).canActivate(context);
  };

  it('lets a token with every required scope through', () => {
    expect(run({ [REQUIRED_SCOPES]: ['receipts:read'] }, 'receipts:read receipts:write')()).toBe(
      true,
    );
  });

  it('names the missing scope', () => {
    expect(run({ [REQUIRED_SCOPES]: ['receipts:write'] }, 'receipts:read')).toThrow(
      /receipts:write/,
    );
  });

  it('fails closed on a route that declares no scope', () => {
    expect(run({}, 'receipts:read receipts:write')).toThrow(AppError);
  });

  it('does not apply to public routes', () => {
    expect(run({ [IS_PUBLIC]: true }, '')()).toBe(true);
  });
});
