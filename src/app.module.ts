import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { ClsModule } from 'nestjs-cls';
import { LoggerModule } from 'nestjs-pino';
import { JwtAuthGuard } from '@/http/auth/jwt-auth.guard';
import { JwtKeyMaterial } from '@/http/auth/jwt-key-material';
import { JwtStrategy } from '@/http/auth/jwt.strategy';
import { ScopesGuard } from '@/http/auth/scopes.guard';
import { AppConfig } from '@/platform/config/app-config';
import { ClientThrottlerGuard } from '@/http/throttling/client-throttler.guard';
import { createRateLimitStorage } from '@/http/throttling/rate-limit-storage';
import { Metrics } from '@/platform/metrics/metrics';
import { QueryParametersGuard } from '@/http/errors/query-parameters.guard';
import { ProblemFilter } from '@/http/errors/problem.filter';
import { createValidationPipe } from '@/http/errors/validation';
import { requestLogOptions } from '@/platform/logging/request-log';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { TenantTransactionInterceptor } from '@/http/tenancy/tenant-transaction.interceptor';
import { TenantGuard } from '@/http/tenancy/tenant.guard';
import { dataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import { PlatformModule } from '@/platform/platform.module';
import { HealthModule } from '@/health/health.module';
import { HousekeepingModule } from '@/housekeeping/housekeeping.module';
import { NumberingModule } from '@/numbering/numbering.module';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { PaymentsModule } from '@/payments/payments.module';
import { CancellationsModule } from '@/cancellations/cancellations.module';
import { ExportsModule } from '@/exports/exports.module';
import { DocumentsModule } from '@/documents/documents.module';
import { EventsModule } from '@/events/events.module';
import { WebhooksModule } from '@/webhooks/webhooks.module';
import { TenantConfigModule } from '@/tenant-config/tenant-config.module';
import { TenantsModule } from '@/tenants/tenants.module';
import { TenancyModule } from '@/http/tenancy/tenancy.module';
import { BookingsModule } from '@/bookings/bookings.module';
import { DemandsModule } from '@/demands/demands.module';
import { ReceivablesModule } from '@/receivables/receivables.module';
import { InterestModule } from '@/interest/interest.module';
import { BankModule } from '@/bank/bank.module';
import { StatementsModule } from '@/statements/statements.module';
import { LettersModule } from '@/letters/letters.module';
import { GstSettingsModule } from '@/gst-settings/gst-settings.module';
import { GstReturnsModule } from '@/gst-returns/gst-returns.module';
import { BooksModule } from '@/books/books.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** Connection URL of the application role (under row-level security). */
  databaseUrl: string;
}

/**
 * The request context (nestjs-cls) with its transactional plugin: every request runs in a CLS
 * context where `TransactionHost` finds the request's tenant transaction. Also used by the
 * benchmark's stack floor (bench/stack-floor.ts), so it measures the same configuration.
 */
export function requestContextModule(): DynamicModule {
  return ClsModule.forRoot({
    global: true,
    // No proxy providers here: skip resolving them on every request (a dynamic import and
    // two promises each time in nestjs-cls 6).
    middleware: { mount: true, resolveProxyProviders: false },
    plugins: [
      new ClsPluginTransactional({
        imports: [TypeOrmModule],
        adapter: new RoutingTransactionAdapter({ dataSourceToken: getDataSourceToken() }),
      }),
    ],
  });
}

@Module({})
export class AppModule {
  static register({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.register(config),
        LoggerModule.forRoot({
          pinoHttp: requestLogOptions(config),
          // createApp mounts the request log (pino-http) before the body checks.
          useExisting: true,
        }),
        TypeOrmModule.forRoot(
          dataSourceOptions(databaseUrl, config.dbPoolSize, config.dbConnectTimeoutMs, ENTITIES),
        ),
        requestContextModule(),
        ThrottlerModule.forRootAsync({
          inject: [Metrics],
          useFactory: (metrics: Metrics) => ({
            throttlers: [{ ttl: 60_000, limit: config.rateLimitPerMinute }],
            storage: createRateLimitStorage(config, databaseUrl, metrics),
          }),
        }),
        PassportModule,
        HealthModule,
        TenancyModule,
        TenantsModule,
        NumberingModule,
        TenantConfigModule,
        BookingsModule,
        DemandsModule,
        ReceiptsModule,
        PaymentsModule,
        ReceivablesModule,
        CancellationsModule,
        ExportsModule,
        DocumentsModule,
        EventsModule,
        WebhooksModule,
        InterestModule,
        BankModule,
        StatementsModule,
        LettersModule,
        GstSettingsModule,
        GstReturnsModule,
        BooksModule,
        HousekeepingModule.register(databaseUrl),
      ],
      providers: [
        JwtKeyMaterial,
        JwtStrategy,
        { provide: APP_FILTER, useClass: ProblemFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        // Order matters: authenticate (a refused token spends its address's budget), rate limit
        // per verified subject + tenant, resolve the tenant, then check scopes.
        ClientThrottlerGuard,
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useExisting: ClientThrottlerGuard },
        { provide: APP_GUARD, useClass: TenantGuard },
        { provide: APP_GUARD, useClass: ScopesGuard },
        { provide: APP_GUARD, useClass: QueryParametersGuard },
        { provide: APP_INTERCEPTOR, useClass: TenantTransactionInterceptor },
      ],
    };
  }
}
