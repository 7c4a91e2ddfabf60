import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import {
  DatabaseAvailability,
  isDatabaseUnavailable,
} from '@/platform/lifecycle/database-availability';
import { AppError, FieldError } from '@/common/app-error';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  traceId: string;
  errors?: FieldError[];
  errorsTruncated?: number;
}

/** lock_not_available, query_canceled (timeouts), deadlock_detected, serialization_failure. */
const RETRYABLE_PG_CODES = new Set(['55P03', '57014', '40P01', '40001']);
/** Input PostgreSQL could not store (backstop behind validation): bad characters, out of range. */
const BAD_INPUT_PG_CODES = new Set(['22021', '22P05', '22001', '22003', '22007', '22008']);

const TYPE_BASE = 'https://errors.finance-service.dev/';

/** Stable codes for errors raised by the framework rather than by our own code. */
const FRAMEWORK_CODES: Record<number, { code: string; title: string }> = {
  400: { code: 'BAD_REQUEST', title: 'Bad Request' },
  401: { code: 'UNAUTHENTICATED', title: 'Unauthorized' },
  403: { code: 'FORBIDDEN', title: 'Forbidden' },
  404: { code: 'NOT_FOUND', title: 'Not Found' },
  405: { code: 'METHOD_NOT_ALLOWED', title: 'Method Not Allowed' },
  406: { code: 'NOT_ACCEPTABLE', title: 'Not Acceptable' },
  409: { code: 'CONFLICT', title: 'Conflict' },
  412: { code: 'PRECONDITION_FAILED', title: 'Precondition Failed' },
  413: { code: 'PAYLOAD_TOO_LARGE', title: 'Content Too Large' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported Media Type' },
  422: { code: 'UNPROCESSABLE', title: 'Unprocessable Content' },
  429: { code: 'RATE_LIMITED', title: 'Too Many Requests' },
  500: { code: 'INTERNAL_ERROR', title: 'Internal Server Error' },
  503: { code: 'SERVICE_UNAVAILABLE', title: 'Service Unavailable' },
};

/**
 * The one place errors become responses: RFC 9457 problem+json with a stable `code` and a
 * `traceId` that also appears in the log line. Never a stack trace in the body.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Problem');

  constructor(private readonly availability?: DatabaseAvailability) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    // pino-http assigns req.id (from X-Request-Id or a new UUID): the same id is in the log line.
    const reqId = (req as Request & { id?: unknown }).id;
    const traceId = typeof reqId === 'string' ? reqId : randomUUID();
    const problem = this.toProblem(exception, req, traceId);

    if (problem.code === 'DATABASE_UNAVAILABLE') {
      // One warning when the outage starts, one info when it ends: not an error per request.
      this.availability?.recordFailure(exception);
    } else if (problem.status >= 500 && !(exception instanceof ServiceUnavailableException)) {
      // A deliberate 503 (readiness while shutting down or restarting) is not an unhandled error.
      this.logger.error({ err: exception, traceId }, 'unhandled error');
    }
    if (res.headersSent) return;
    if (exception instanceof AppError && exception.headers) {
      for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    }
    if (problem.status === 401) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="finance-service", error="invalid_token"');
    }
    if (problem.status === 429 && !res.getHeader('Retry-After')) {
      res.setHeader('Retry-After', '60');
    }
    if (problem.status === 503 && !res.getHeader('Retry-After')) res.setHeader('Retry-After', '1');
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown, req: Request, traceId: string): ProblemBody {
    const base = { instance: req.originalUrl ?? req.url, traceId };
    if (exception instanceof AppError) {
      return {
        ...this.simple(exception.status, exception.code, exception.detail, base),
        title: exception.title,
        ...(exception.errors ? { errors: exception.errors } : {}),
        ...(exception.errorsTruncated ? { errorsTruncated: exception.errorsTruncated } : {}),
      };
    }
    if (isDatabaseUnavailable(exception)) {
      return this.simple(
        503,
        'DATABASE_UNAVAILABLE',
        'The database is unreachable, starting or stopping; nothing was saved. Retry after the Retry-After delay.',
        base,
      );
    }
    const pgCode = (exception as { driverError?: { code?: unknown } })?.driverError?.code;
    if (typeof pgCode === 'string' && RETRYABLE_PG_CODES.has(pgCode)) {
      return this.simple(
        503,
        'DATABASE_BUSY',
        'The database could not complete the request in time (lock wait or contention); retry shortly.',
        base,
      );
    }
    if (typeof pgCode === 'string' && BAD_INPUT_PG_CODES.has(pgCode)) {
      return this.simple(
        400,
        'INVALID_VALUE',
        'A value in the request cannot be stored (invalid characters or out of range).',
        base,
      );
    }
    if (exception instanceof ThrottlerException) {
      return this.simple(429, 'RATE_LIMITED', 'Too many requests; retry later.', base);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        typeof response === 'object' && response !== null && 'message' in response
          ? response.message
          : exception.message;
      const detail = Array.isArray(message)
        ? message.join('; ')
        : typeof message === 'string'
          ? message
          : exception.message;
      const known = FRAMEWORK_CODES[status];
      if (status === 404) {
        return this.simple(404, 'ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}.`, base);
      }
      if (status === 401) {
        return this.simple(401, 'UNAUTHENTICATED', 'A valid bearer token is required.', base);
      }
      return this.simple(status, known?.code ?? `HTTP_${status}`, detail, base);
    }
    return this.simple(500, 'INTERNAL_ERROR', 'An unexpected error occurred.', base);
  }

  private simple(
    status: number,
    code: string,
    detail: string,
    base: { instance: string; traceId: string },
  ): ProblemBody {
    return {
      type: TYPE_BASE + code.toLowerCase().replace(/_/g, '-'),
      title: FRAMEWORK_CODES[status]?.title ?? 'Error',
      status,
      detail,
      code,
      ...base,
    };
  }
}
