import type { Server } from 'node:http';

export interface ServerTimeouts {
  /** Whole header block must arrive within this (cuts a slowloris). */
  headersTimeoutMs: number;
  /** Whole request, headers and body, must arrive within this (cuts a stalled upload). */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/**
 * How often Node sweeps connections for expired header / request deadlines. Node checks these
 * deadlines only on this sweep (default every 30 s), so a 15 s deadline could hold a socket for
 * up to 45 s; sweeping at a small fraction of the shortest deadline makes the deadline real.
 */
export function connectionsCheckingIntervalMs(t: ServerTimeouts): number {
  return Math.max(
    50,
    Math.min(1000, Math.floor(Math.min(t.headersTimeoutMs, t.requestTimeoutMs) / 4)),
  );
}

/**
 * Sets the HTTP server's deadlines explicitly instead of relying on Node's defaults (60 s headers,
 * 300 s request, 30 s sweep). Must run before `listen()`: Node starts its sweep timer on
 * 'listening' with the interval set at that moment.
 */
export function applyServerTimeouts(server: Server, t: ServerTimeouts): void {
  const sweep = connectionsCheckingIntervalMs(t);
  // A deadline is noticed on the first sweep after it passed: shorten it by one sweep so the
  // configured value is the longest a connection can live, not the shortest.
  server.headersTimeout = t.headersTimeoutMs - sweep;
  server.requestTimeout = t.requestTimeoutMs - sweep;
  server.keepAliveTimeout = t.keepAliveTimeoutMs;
  // Not in @types/node as writable, but read by Node when the server starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = sweep;
}
