/**
 * The request log's own CPU per request: an express app answering a 2 KB JSON body with no
 * request log, with pino-http wrapping its standard serializers (what the service used before:
 * they copy all request and response headers and parse the query string before the service's
 * serializers pick four fields), and with the service's requestLogOptions (the raw request and
 * response). Each variant is a child process writing its log to /dev/null, loaded by autocannon
 * (16 clients) from this process, in interleaved rounds; CPU is the child's process.cpuUsage().
 * Run: npm run bench:request-log [-- --rounds 3 --duration 5]
 */
import autocannon from 'autocannon';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import pino from 'pino';
import pinoHttp, { Options } from 'pino-http';
import { requestLogOptions } from '@/platform/logging/request-log';
import { median } from './processes';

const VARIANTS = ['none', 'wrapped', 'service'] as const;
type Variant = (typeof VARIANTS)[number];

/** The service's options before: the same four fields, through pino-http's wrapped serializers. */
const wrappedOptions: Options = {
  level: 'info',
  genReqId: (req) => (req.headers['x-request-id'] as string | undefined) ?? randomUUID(),
  redact: ['req.headers.authorization'],
  serializers: {
    req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown> }) => ({
      id: req.id,
      method: req.method,
      url: req.url,
      tenant: req.headers['x-tenant-id'],
    }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
  autoLogging: { ignore: (req) => req.url?.startsWith('/health') ?? false },
};

function serve(variant: Variant): void {
  // The express instance the service runs on (express itself is @nestjs/platform-express's).
  const app = new ExpressAdapter().getInstance<Express>();
  const destination = pino.destination({ dest: '/dev/null', sync: true });
  if (variant === 'wrapped') app.use(pinoHttp(wrappedOptions, destination));
  if (variant === 'service') {
    app.use(pinoHttp(requestLogOptions({ logLevel: 'info', logFormat: 'json' }), destination));
  }
  const rows = Array.from({ length: 20 }, (_, i) => ({
    id: randomUUID(),
    n: i,
    ref: 'x'.repeat(40),
  }));
  const body = JSON.stringify({ content: rows, totalElements: 20 });
  app.post('/receipts/search', (_req, res) => {
    res.type('application/json').send(body);
  });
  const server = app.listen(0, '127.0.0.1', () =>
    process.send!({ port: (server.address() as AddressInfo).port }),
  );
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMs: (user + system) / 1000 });
  });
}

async function measure(variant: Variant, duration: number): Promise<number> {
  const child = fork(__filename, ['--serve', variant]);
  try {
    const next = () => new Promise<Record<string, number>>((r) => child.once('message', r));
    const { port } = await next();
    const load = (seconds: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}/receipts/search?page=0&size=20`,
        method: 'POST',
        connections: 16,
        duration: seconds,
        headers: {
          authorization: `Bearer ${'x'.repeat(300)}`,
          'x-tenant-id': 'acme',
          'content-type': 'application/json',
        },
        body: '{"filters":[]}',
      });
    const cpu = async () => {
      child.send('cpu');
      return (await next()).cpuMs;
    };
    await load(2); // warm-up: JIT
    const before = await cpu();
    const result = await load(duration);
    const after = await cpu();
    if (result.non2xx > 0) throw new Error(`${variant}: ${result.non2xx} non-2xx responses`);
    return ((after - before) * 1000) / result.requests.total;
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      serve: { type: 'string' },
    },
  });
  if (values.serve) return serve(values.serve as Variant);
  const samples = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const variant of VARIANTS) {
      samples.get(variant)!.push(await measure(variant, Number(values.duration)));
    }
    console.log(
      `round ${round}: ${VARIANTS.map((v) => `${v} ${samples.get(v)!.at(-1)!.toFixed(1)}`).join(', ')} µs/request`,
    );
  }
  const us = (v: Variant) => median(samples.get(v)!);
  const logCost = (v: Variant) => us(v) - us('none');
  console.log(
    `\nCPU µs per request, medians of ${values.rounds} interleaved rounds (16 clients, ${values.duration} s):`,
  );
  console.log('| variant | µs/request | the request log alone |');
  console.log('|---|---|---|');
  for (const v of VARIANTS)
    console.log(`| ${v} | ${us(v).toFixed(1)} | ${v === 'none' ? '-' : logCost(v).toFixed(1)} |`);
  console.log(
    `\nrequest log alone, service / wrapped: ${(logCost('service') / logCost('wrapped')).toFixed(2)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
