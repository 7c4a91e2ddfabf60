/**
 * First-start benchmark: a fresh DATA_DIR, `node dist/src/main.js` of a service directory (its
 * built dist/, so the same script measures any checkout), polls /health/ready until 200, then
 * signs a token with that checkout's own `token` CLI and searches the demo tenant until the demo
 * data is there. Prints seconds from spawn to ready and to searchable; removes everything it made.
 *
 *   node dist/bench/first-start.bench.js [serviceDir] [--runs 3] [--npm] [--receipts 200000]
 *
 * (default: this checkout, 1 run; --npm spawns `npm start` instead of `node dist/src/main.js`;
 * --receipts sets DEMO_RECEIPTS_PER_TENANT, otherwise the default applies).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort } from './bench-support';

interface Run {
  readySeconds: number;
  /** The service's own "Demo data ready in N s" (the seed's transaction), null if not logged. */
  seedSeconds: number | null;
  searchableSeconds: number;
  demoReceipts: number;
  /** Every receipt of `demo`, whatever its mode. */
  allDemoReceipts: number;
}

async function once(serviceDir: string, viaNpm: boolean, receipts?: string): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'finance-first-start-'));
  chmodSync(dataDir, 0o755); // as root the embedded server runs as `postgres`
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // info: the seed's own timing line ("Demo data ready in N s").
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  delete env.SECRETS_KEY;
  delete env.SECRETS_KEY_PREVIOUS;
  delete env.SEED_DEMO_DATA;
  delete env.DEMO_RECEIPTS_PER_TENANT;
  if (receipts) env.DEMO_RECEIPTS_PER_TENANT = receipts;
  // A large demo seed takes a while before the service listens: about 5 s per 10,000 receipts of
  // each tenant here (two tenants); three times that before giving up.
  const limitMs = Math.max(300_000, Number(receipts ?? 0) * 1.5);
  let service: ChildProcess | undefined;
  let output = '';
  let seedSeconds: number | null = null;
  const seedLine = /Demo data ready in ([\d.]+) s/;
  try {
    const started = performance.now();
    const [command, args] = viaNpm
      ? ['npm', ['start', '--silent']]
      : ['node', [resolve(serviceDir, 'dist/src/main.js')]];
    // Its own process group, so that stopping it reaches the node process behind npm too.
    service = spawn(command, args, {
      env,
      cwd: serviceDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const hear = (c: Buffer) => {
      // Matched before the tail is cut: one chunk may hold the line and kilobytes after it.
      const text = output.slice(-200) + c.toString();
      seedSeconds ??= Number(seedLine.exec(text)?.[1] ?? NaN) || null;
      output = (output + c.toString()).slice(-4000);
    };
    service.stdout!.on('data', hear);
    service.stderr!.on('data', hear);
    let exited = false;
    service.once('exit', () => (exited = true));
    const base = `http://127.0.0.1:${port}`;
    while (
      (await fetch(`${base}/health/ready`).then(
        (r) => r.status,
        () => 0,
      )) !== 200
    ) {
      if (exited) throw new Error(`service exited before ready:\n${output}`);
      if (performance.now() - started > limitMs) {
        throw new Error(`not ready after ${limitMs / 1000} s`);
      }
      await sleep(50);
    }
    const readySeconds = (performance.now() - started) / 1000;
    const token = execFileSync(
      'node',
      [resolve(serviceDir, 'dist/src/cli/token.js'), '--tenant', 'demo'],
      { env, cwd: serviceDir, encoding: 'utf8' },
    ).trim();
    const search = (filters: unknown[]) =>
      fetch(`${base}/receipts/search?size=5`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-tenant-id': 'demo',
          'content-type': 'application/json',
        },
        body: JSON.stringify(filters),
      });
    let demoReceipts = 0;
    while (demoReceipts === 0) {
      const res = await search([{ field: 'paymentMode', query: 'NEFT,RTGS,UPI', type: 'IN' }]);
      if (res.status === 200) {
        demoReceipts = ((await res.json()) as { totalElements: number }).totalElements;
      } else if (res.status !== 403 && res.status !== 503) {
        // 403 / 503 while the demo tenant is still being created; anything else is a failure.
        throw new Error(`search answered ${res.status}: ${await res.text()}`);
      }
      if (demoReceipts === 0) await sleep(50);
      if (performance.now() - started > limitMs) {
        throw new Error(`no demo data after ${limitMs / 1000} s`);
      }
    }
    const searchableSeconds = (performance.now() - started) / 1000;
    const all = (await (await search([])).json()) as { totalElements: number };
    return {
      readySeconds,
      seedSeconds,
      searchableSeconds,
      demoReceipts,
      allDemoReceipts: all.totalElements,
    };
  } finally {
    const running = () => service && service.exitCode === null && service.signalCode === null;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-service!.pid!, name);
      } catch {
        // already gone
      }
    };
    if (running()) {
      const exit = new Promise((done) => service!.once('exit', done));
      signal('SIGINT');
      await Promise.race([exit, sleep(15_000, undefined, { ref: false })]);
      if (running()) signal('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '1' },
      npm: { type: 'boolean', default: false },
      receipts: { type: 'string' },
    },
  });
  const serviceDir = resolve(positionals[0] ?? resolve(__dirname, '..', '..'));
  console.log(`service: ${serviceDir} (${values.npm ? 'npm start' : 'node dist/src/main.js'})`);
  for (let i = 0; i < Number(values.runs); i++) {
    const run = await once(serviceDir, values.npm, values.receipts);
    const perTenant = Number(values.receipts ?? 0);
    const per10k =
      run.seedSeconds !== null && perTenant > 0
        ? `, ${((run.seedSeconds * 10_000) / (2 * perTenant)).toFixed(2)} s per 10,000 receipts`
        : '';
    console.log(
      `run ${i + 1}: seed ${run.seedSeconds?.toFixed(1) ?? '?'} s (two tenants${perTenant ? ` of ${perTenant} receipts` : ''}${per10k}); ready (200) after ${run.readySeconds.toFixed(1)} s, demo data searchable after ${run.searchableSeconds.toFixed(1)} s (${run.allDemoReceipts} receipts in demo, ${run.demoReceipts} of them NEFT/RTGS/UPI)`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
