import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** Why it failed, for the delivery log; null on success. */
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  /** Resolves the host and refuses forbidden addresses (webhook-target.ts). */
  lookup: LookupFunction;
}

const MAX_ERROR_LENGTH = 500;

/**
 * One delivery attempt: a POST of `body` with `headers`, built on Node's own http/https clients
 * so the guarded `lookup` decides which address is connected to (checked after resolution, at
 * every connection, so a name that later resolves to an internal address is refused too).
 * Redirects are never followed (a 3xx is a failure), the whole attempt is bounded by
 * `timeoutMs`, and the response body is read and discarded.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
  agents: { http: http.Agent; https: https.Agent },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  // Node never calls `lookup` for an IP literal: the guard is asked here instead.
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0) {
    const refused = await new Promise<Error | null>((resolve) =>
      options.lookup(literal, {}, (error) => resolve(error)),
    );
    if (refused) {
      return { ok: false, statusCode: null, durationMs: elapsed(), error: describe(refused) };
    }
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'finance-service-webhooks/1',
        },
        lookup: options.lookup,
        agent: target.protocol === 'https:' ? agents.https : agents.http,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        response.resume();
        response.on('end', () => {
          const ok = statusCode >= 200 && statusCode < 300;
          finish({
            ok,
            statusCode,
            error: ok
              ? null
              : statusCode >= 300 && statusCode < 400
                ? `HTTP ${statusCode}: redirects are not followed`
                : `HTTP ${statusCode}`,
          });
        });
        response.on('error', (error) => finish({ ok: false, statusCode, error: describe(error) }));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, statusCode: null, error: `timed out after ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) => finish({ ok: false, statusCode: null, error: describe(error) }));
    request.end(body);
  });
}

function describe(error: Error & { code?: string }): string {
  const text =
    error.code && !error.message.includes(error.code)
      ? `${error.code}: ${error.message}`
      : error.message;
  return text.slice(0, MAX_ERROR_LENGTH);
}
