import type {
  CorsOptions,
  CorsOptionsDelegate,
} from '@nestjs/common/interfaces/external/cors-options.interface';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/** The methods the API's routes use (a preflight allows these; docs/browser.md). */
export const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Request headers a listed origin's script may send. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Content-Encoding',
  'x-tenant-id',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Consistency-Token',
];

/** Response headers a listed origin's script may read, on every response (errors included). */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'X-Consistency-Token',
  'Content-Disposition',
];

/** How long a browser may cache a preflight's answer (seconds). */
export const CORS_MAX_AGE_SEC = 600;

/**
 * Parses CORS_ORIGINS: comma-separated origins exactly as a browser sends `Origin`
 * (`https://dashboard.example`, `http://127.0.0.1:8080`): http or https, host, optional
 * non-default port, nothing else (no path, no trailing slash, no `*`, lowercase host). Returns
 * the origins, or the invalid entries (with the likely intended origin) for the error message.
 */
export function parseCorsOrigins(value: string): { origins: string[]; invalid: string[] } {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const invalid: string[] = [];
  for (const entry of entries) {
    const origin = originOf(entry);
    if (origin === entry) continue;
    invalid.push(origin ? `${entry} (did you mean ${origin}?)` : entry);
  }
  return { origins: [...new Set(entries)], invalid };
}

/** The serialized origin of an http(s) URL, or null when `entry` is not one. */
function originOf(entry: string): string | null {
  if (!/^https?:\/\//i.test(entry)) return null;
  try {
    return new URL(entry).origin;
  } catch {
    return null;
  }
}

/**
 * CORS for the listed origins (docs/browser.md), set up before the body checks and the guards so
 * a preflight is answered here (never 401 or 429) and every response to a listed origin, errors
 * included, carries the allow-origin and expose headers. The `cors` package (through Nest's
 * enableCors, with a per-request options delegate) answers listed origins; around it, what the
 * package does not do: `Vary: Origin` on every response (a shared cache must not serve one
 * origin's answer to another, nor a no-origin answer to a browser), and a preflight from an
 * unlisted origin answered 204 without any CORS header, so the browser refuses the real request
 * before it is sent. No credentials mode: the API uses bearer tokens, never cookies.
 * No origins: nothing is registered, and no response carries a CORS header.
 */
export function applyCors(app: NestExpressApplication, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const listed = new Set(origins);
  app.use(varyOnOrigin);
  app.enableCors(corsOptionsDelegate(listed));
  app.use(unlistedPreflight);
}

function corsOptionsDelegate(listed: ReadonlySet<string>): CorsOptionsDelegate<Request> {
  return (req, callback) => {
    const origin = req.headers.origin;
    callback(null, origin !== undefined && listed.has(origin) ? optionsFor(origin) : UNLISTED);
  };
}

/** `origin: false`: the package adds nothing and passes the request on. */
const UNLISTED: CorsOptions = { origin: false };

const optionsFor = (origin: string): CorsOptions => ({
  origin,
  methods: CORS_ALLOWED_METHODS,
  allowedHeaders: CORS_ALLOWED_HEADERS,
  exposedHeaders: CORS_EXPOSED_HEADERS,
  maxAge: CORS_MAX_AGE_SEC,
  credentials: false,
  preflightContinue: false,
  optionsSuccessStatus: 204,
});

function varyOnOrigin(_req: Request, res: Response, next: NextFunction): void {
  res.vary('Origin');
  next();
}

/** Reached only when the origin is not listed (the package ends a listed origin's preflight). */
function unlistedPreflight(req: Request, res: Response, next: NextFunction): void {
  const preflight =
    req.method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined;
  if (!preflight) return next();
  res.statusCode = 204;
  res.setHeader('Content-Length', '0');
  res.end();
}
