import { Injectable, Logger } from '@nestjs/common';

/** Socket-level failures: the server is gone, restarting or unreachable. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs meaning "the server cannot serve now" rather than "this request is wrong":
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting up / shutting down),
 * too_many_connections. Class 08 (connection exception) is matched by prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

const RELEASED_RUNNER_ERRORS = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

/** node-postgres and pg-pool raise these as plain Errors without a code. */
const CONNECTION_MESSAGES = [
  /Connection terminated/i, // unexpectedly, or due to connection timeout
  /not queryable/i, // "Client has encountered a connection error and is not queryable"
  /timeout exceeded when trying to connect/i, // pg-pool connectionTimeoutMillis
  /Connection ended/i,
];

/**
 * Whether an error (as thrown by pg, pg-pool, TypeORM's QueryFailedError/driverError, or
 * wrapped in `cause` / AggregateError) means the database is unavailable: the work was not done
 * (or rolled back with the connection) and the same request may be retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (typeof e !== 'object' || e === null || seen.has(e) || depth > 5) return false;
    seen.add(e);
    const { code, message, driverError, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string') {
      if (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    // TypeORM's answer to a query on a transaction whose connection was already dropped and
    // released after a connection error: the transaction is gone, nothing of it committed.
    if (RELEASED_RUNNER_ERRORS.has(String((e as { name?: unknown }).name))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((re) => re.test(message))) {
      return true;
    }
    if (visit(driverError, depth + 1) || visit(cause, depth + 1)) return true;
    return Array.isArray(errors) && errors.some((inner) => visit(inner, depth + 1));
  };
  return visit(error, 0);
}

/**
 * Tracks whether the database is reachable, so an outage is one warning when it starts and one
 * info when it ends (with how many requests failed meanwhile) instead of an error per request.
 */
@Injectable()
export class DatabaseAvailability {
  private readonly logger = new Logger('Database');
  private downSince: number | null = null;
  private failedRequests = 0;

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /** A request failed because the database is unavailable. */
  recordFailure(error: unknown): void {
    this.failedRequests += 1;
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    const reason = describe(error);
    this.logger.warn(
      { reason },
      `database unavailable (${reason}); answering 503 until it is back`,
    );
  }

  /** A database round trip succeeded. */
  recordSuccess(): void {
    if (this.downSince === null) return;
    const downMs = Date.now() - this.downSince;
    const failedRequests = this.failedRequests;
    this.downSince = null;
    this.failedRequests = 0;
    this.logger.log(
      { downMs, failedRequests },
      `database available again after ${downMs} ms; ${failedRequests} request(s) answered 503 meanwhile`,
    );
  }
}

function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown } | null;
  const inner = e?.driverError as { code?: unknown; message?: unknown } | undefined;
  const code = inner?.code ?? e?.code;
  const message = inner?.message ?? e?.message;
  return [code, message].filter((v) => typeof v === 'string' && v !== '').join(' ') || 'unknown';
}
