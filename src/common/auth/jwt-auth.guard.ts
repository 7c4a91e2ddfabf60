import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ClientThrottlerGuard } from '@/common/http/client-throttler.guard';
import { IS_PUBLIC } from './auth.decorators';

@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
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
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (error) {
      // Refused tokens still spend the address's budget: guessing tokens is rate-limited too.
      await this.throttler?.chargeUnauthenticated(context);
      throw error;
    }
  }
}
