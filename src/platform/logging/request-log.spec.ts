import { once } from 'node:events';
import { createServer, request, RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp from 'pino-http';
import { requestLogOptions } from '@/platform/logging/request-log';

/** A real HTTP server logging through the service's pino-http options into `lines`. */
async function loggingServer(handler: RequestListener) {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const log = pinoHttp(requestLogOptions({ logLevel: 'info', logFormat: 'json' }), stream);
  const server = createServer((req, res) => {
    log(req, res);
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, lines, raw, port: (server.address() as AddressInfo).port };
}

function send(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end('{}');
  });
}

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe(requestLogOptions.name, () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('logs one line per request: id, method, url, tenant and status, never a header', async () => {
    const s = await loggingServer((_req, res) => {
      res.setHeader('set-cookie', 'secret-cookie');
      res.writeHead(201).end();
    });
    server = s.server;
    const status = await send(s.port, '/receipts/search?page=2', {
      'x-request-id': 'req-1',
      'x-tenant-id': 'acme',
      authorization: 'Bearer secret-token',
    });
    await waitFor(() => s.lines.length > 0);

    expect(status).toBe(201);
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'req-1', method: 'POST', url: '/receipts/search?page=2', tenant: 'acme' },
      res: { statusCode: 201 },
    });
    expect(typeof s.lines[0].responseTime).toBe('number');
    expect(Object.keys(s.lines[0].req as object).sort()).toEqual(['id', 'method', 'tenant', 'url']);
    expect(s.raw[0]).not.toMatch(/secret-token|secret-cookie|headers/);
  });

  it('gives a request without X-Request-Id a UUID and does not log health checks', async () => {
    const s = await loggingServer((_req, res) => res.end());
    server = s.server;
    await send(s.port, '/health/ready');
    await send(s.port, '/receipts');
    await waitFor(() => s.lines.length > 0);

    expect(s.lines).toHaveLength(1);
    expect((s.lines[0].req as { id: string }).id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect((s.lines[0].req as { url: string }).url).toBe('/receipts');
  });

  it('logs a request the client abandoned before any response with no status', async () => {
    let arrived!: () => void;
    const received = new Promise<void>((r) => (arrived = r));
    const s = await loggingServer(() => arrived()); // never answers
    server = s.server;
    const req = request({ port: s.port, host: '127.0.0.1', path: '/slow', method: 'GET' });
    req.on('error', () => undefined).end();
    await received;
    req.destroy();
    await waitFor(() => s.lines.length > 0);

    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatchObject({
      req: { method: 'GET', url: '/slow' },
      res: { statusCode: null },
    });
  });
});
