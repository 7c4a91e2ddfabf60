/**
 * The stack floor: the bare floor's two routes (bench/floor-server.ts, the same SQL and bodies)
 * written as the fixed stack writes them, with nothing of the service's own around them. A NestJS
 * module on @nestjs/platform-express (JSON body parser, a controller handing the request to
 * floorRoutes, Nest's own exception filter and `res.json`), TypeORM as the driver (a DataSource
 * with the service's dataSourceOptions) and the service's request context (requestContextModule:
 * nestjs-cls and its transactional plugin with the RoutingTransactionAdapter, so a write's COMMIT
 * returns its position in the same statement, as the service's does). No guard, interceptor, pipe, middleware,
 * request log, helmet, metrics or rate limiter: what remains is the price of the stack itself.
 *
 * bench/floor.bench.ts --stack runs it as a third server: service / stack floor / bare floor tells
 * how much of the gap to the bare floor is the stack's and how much the service's own layers'.
 * Run as a child process (one JSON argument, FloorOptions; sends { url } over IPC once
 * listening; exits when the parent disconnects).
 */
import {
  Body,
  Controller,
  Headers,
  HttpCode,
  HttpException,
  Inject,
  Injectable,
  Module,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { TypeOrmModule } from '@nestjs/typeorm';
import { requestContextModule } from '@/app.module';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { lsnToToken } from '@/platform/replicas/consistency-token';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { TenantContext } from '@/common/tenant-context';
import { dataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import type { RawSearchQuery } from '@/search/search-request';
import {
  FloorDb,
  FloorError,
  FloorOptions,
  floorRoutes,
  FloorRoutes,
  Lookup,
  RecordBody,
  tenantLookupSql,
} from './floor-server';

const OPTIONS = Symbol('stack floor options');

interface StackOptions extends FloorOptions {
  tenantLookup: Lookup;
}

@Injectable()
class StackFloorService {
  readonly routes: FloorRoutes;

  constructor(
    txHost: TransactionHost<RoutingTransactionAdapter>,
    dataSource: DataSource,
    @Inject(OPTIONS) options: StackOptions,
  ) {
    const db: FloorDb = {
      query: (sql, params) => dataSource.query(sql, params),
      transaction: async (work, commitPosition) => {
        let token: string | undefined;
        const result = await txHost.withTransaction(
          commitPosition ? { onCommitted: (position) => (token = lsnToToken(position)) } : {},
          () => work((sql, params) => txHost.tx.query(sql, params)),
        );
        return { result, token };
      },
    };
    this.routes = floorRoutes(db, options, options.tenantLookup);
  }

  async tenant(key: string | undefined): Promise<TenantContext> {
    const tenant = typeof key === 'string' ? await this.routes.tenantOf(key) : null;
    if (!tenant) throw new HttpException('Forbidden', 403);
    return tenant;
  }
}

/** FloorError (a bare status) as Nest's own HttpException, so Nest's filter answers it. */
async function nestErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FloorError) throw new HttpException(String(error.status), error.status);
    throw error;
  }
}

@Controller('receipts')
class StackFloorController {
  constructor(private readonly floor: StackFloorService) {}

  @Post('search')
  @HttpCode(200)
  search(
    @Headers('x-tenant-id') key: string | undefined,
    @Query() query: RawSearchQuery,
    @Body() body: unknown,
  ): Promise<unknown> {
    return nestErrors(async () =>
      this.floor.routes.search(await this.floor.tenant(key), query, body),
    );
  }

  @Post()
  async record(
    @Headers('x-tenant-id') key: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Req() req: Request,
    @Body() body: RecordBody,
    @Res() res: Response,
  ): Promise<void> {
    const result = await nestErrors(async () =>
      this.floor.routes.recordIdempotent(
        await this.floor.tenant(key),
        idempotencyKey,
        req.path,
        body,
      ),
    );
    // The stored response's text, as the service answers (and replays) it.
    res
      .status(result.status)
      .set({
        'content-type': 'application/json; charset=utf-8',
        'x-consistency-token': result.token ?? '',
        ...(result.replayed ? { 'idempotent-replayed': 'true' } : {}),
      })
      .send(result.json);
  }
}

@Module({})
class StackFloorModule {
  static register(options: StackOptions) {
    const typeorm = dataSourceOptions(options.appUrl, options.poolSize, undefined, ENTITIES);
    return {
      module: StackFloorModule,
      imports: [
        TypeOrmModule.forRoot({
          ...typeorm,
          extra: { ...(typeorm.extra as object), application_name: 'bench-stack-floor' },
        }),
        requestContextModule(),
      ],
      controllers: [StackFloorController],
      providers: [{ provide: OPTIONS, useValue: options }, StackFloorService],
    };
  }
}

export async function startStackFloor(
  options: FloorOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = await NestFactory.create<NestExpressApplication>(
    StackFloorModule.register({ ...options, tenantLookup: await tenantLookupSql(options.appUrl) }),
    { logger: false },
  );
  // As the service: no automatic ETag on bodies.
  app.set('etag', false);
  await app.listen(0, '127.0.0.1');
  return { url: await app.getUrl(), close: () => app.close() };
}

if (require.main === module) {
  startStackFloor(JSON.parse(process.argv[2]) as FloorOptions)
    .then((floor) => {
      process.on('disconnect', () => {
        void floor.close().finally(() => process.exit(0));
      });
      process.send?.({ url: floor.url });
    })
    .catch((error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
}
