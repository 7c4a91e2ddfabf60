import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule } from '@/app.module';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { ExpressRoutes, expressRouteTemplates } from '@/platform/metrics/route-templates';
import { requestLogOptions } from '@/platform/logging/request-log';
import { pinoHttp } from 'pino-http';
import { bodyParserErrors } from '@/http/errors/body-parser-errors';
import {
  contentEncodingGuard,
  markInvalidUtf8,
  requestBodyGuard,
} from '@/http/errors/request-body-guard';
import { applyCors } from '@/platform/server/cors';
import { applyServerTimeouts } from '@/platform/server/server-timeouts';
import { trustProxySetting } from '@/platform/server/trusted-proxies';
import { setupSwagger } from '@/http/swagger';
import { rawUpload } from '@/http/errors/raw-upload';
import { STATEMENT_UPLOAD_PATH } from '@/bank/bank-statements.controller';

/** Builds the HTTP application exactly as production runs it (used by main and by e2e tests). */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  options: { bufferLogs?: boolean } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register({ config, databaseUrl }),
    {
      bodyParser: false,
      bufferLogs: options.bufferLogs ?? true,
      ...(config.logLevel === 'silent' ? { logger: false as const } : {}),
    },
  );
  app.useLogger(app.get(Logger));
  // First, so every response is counted, including those the body checks below refuse.
  const metrics = app.get(Metrics);
  app.use(metrics.middleware);
  const express = app.getHttpAdapter().getInstance() as ExpressRoutes;
  metrics.useRoutes(() => expressRouteTemplates(express));
  // The request log, here rather than as LoggerModule's route middleware (useExisting: true),
  // which Nest mounts after these: a body refused as too large (413) or wrongly encoded (415)
  // never reached it and left no log line.
  app.use(pinoHttp(requestLogOptions(config)));
  // Before the body checks and every guard (CORS_ORIGINS, docs/browser.md): a preflight is answered
  // here, never 401 or 429, and error responses to a listed origin carry the CORS headers too.
  applyCors(app, config.corsOrigins);
  app.use(contentEncodingGuard);
  // Bank statements are uploaded as the file itself (docs/bank.md), up to STATEMENT_MAX_BYTES.
  app.use(rawUpload(STATEMENT_UPLOAD_PATH, config.statementMaxBytes));
  app.useBodyParser('json', {
    limit: config.bodyLimit,
    type: ['application/json', 'application/*+json'],
    // A bare string, number or null is valid JSON: the route says what shape it expected
    // (VALIDATION_FAILED) instead of the parser calling it malformed.
    strict: false,
    // Limit applies to the inflated size too (raw-body counts decoded bytes): no zip bombs.
    verify: markInvalidUtf8,
  });
  app.use(bodyParserErrors);
  app.use(requestBodyGuard);
  app.use(
    helmet({
      // Swagger UI needs inline scripts and styles on /docs.
      contentSecurityPolicy: {
        directives: {
          'script-src': ["'self'", "'unsafe-inline'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:'],
        },
      },
      // Cross-Origin-Resource-Policy stays same-origin (helmet's default) with CORS_ORIGINS set:
      // browsers apply it only to no-cors loads by other origins (<img>, <script>, <embed>), and a
      // dashboard's fetch() is a CORS request, which the Fetch standard exempts from it.
      // test/cors.browser-spec.ts reads JSON and a PDF cross-origin in Chromium with it set.
    }),
  );
  app.set('trust proxy', trustProxySetting(config.trustedProxies));
  // No automatic weak ETag (a SHA-1 of every body): ETags are explicit where the API documents
  // them (tenant configuration), and POST search results are never conditional.
  app.set('etag', false);
  applyServerTimeouts(app.getHttpServer(), config.http);
  setupSwagger(app);
  return app;
}
