import { createServer } from 'node:http';
import {
  applyServerTimeouts,
  connectionsCheckingIntervalMs,
} from '@/platform/server/server-timeouts';

describe(applyServerTimeouts.name, () => {
  const defaults = {
    headersTimeoutMs: 15_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
  };

  it('sets every deadline on the server, less one sweep so the configured value is the maximum', () => {
    const server = createServer();
    applyServerTimeouts(server, defaults);
    expect(server.headersTimeout).toBe(14_000);
    expect(server.requestTimeout).toBe(29_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(
      (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval,
    ).toBe(1000);
  });

  it('sweeps well inside the shortest deadline, so the deadline holds', () => {
    expect(connectionsCheckingIntervalMs(defaults)).toBeLessThanOrEqual(1000);
    expect(
      connectionsCheckingIntervalMs({ ...defaults, headersTimeoutMs: 600, requestTimeoutMs: 1200 }),
    ).toBe(150);
    expect(
      connectionsCheckingIntervalMs({ ...defaults, headersTimeoutMs: 100, requestTimeoutMs: 100 }),
    ).toBe(50);
  });
});
