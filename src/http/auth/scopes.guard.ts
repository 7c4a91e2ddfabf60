import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '@/common/app-error';
import { IS_PUBLIC, REQUIRED_SCOPES, Scope } from '@/http/auth/auth.decorators';
import { Principal } from '@/http/auth/principal';

/**
 * Runs after the tenant guard: a wrong tenant is reported before a missing scope. Fails closed:
 * a non-public route that declares no scope is refused rather than open to any token.
 */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, [
      context.getHandler(),
      context.getClass(),
    ]);
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    if (!required || required.length === 0) {
      throw new AppError(
        403,
        'INSUFFICIENT_SCOPE',
        'Forbidden',
        'This operation declares no scope.',
      );
    }
    const principal = context.switchToHttp().getRequest<Request>().user as Principal | undefined;
    const missing = required.filter((s) => !principal?.scopes.has(s));
    if (missing.length > 0) {
      throw new AppError(
        403,
        'INSUFFICIENT_SCOPE',
        'Forbidden',
        `The token lacks the scope(s): ${missing.join(', ')}.`,
      );
    }
    return true;
  }
}
