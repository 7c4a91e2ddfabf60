#!/usr/bin/env node
// `npm run test:postman`: checks the committed Postman collection is what openapi.json generates,
// starts the built service (`dist/`) on a free port against a throw-away embedded PostgreSQL,
// mints a token for the seeded `demo` tenant, runs newman over the committed collection and
// environment (0 failed assertions required), then stops the service and removes every
// temporary file, also on failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  createWriteStream,
  readFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

const freePort = () =>
  new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result;
}

// 1. The committed collection must match the committed document.
if (
  run(process.execPath, [join(root, 'scripts', 'postman-generate.mjs'), '--check']).status !== 0
) {
  process.exit(1);
}
// 2. Build dist/ when it is missing or stale (same rule as `npm start`).
if (run(process.execPath, [join(root, 'scripts', 'build-if-needed.js')]).status !== 0) {
  process.exit(1);
}

// Run as root, the embedded PostgreSQL runs as the `postgres` OS user: the directory must be
// traversable by it (mkdtemp creates 0700). TMPDIR points inside it so that whatever the service
// and the database put in the temporary directory goes away with it.
const work = mkdtempSync(join(tmpdir(), 'finance-postman-'));
chmodSync(work, 0o755);
const dataDir = join(work, 'data');
const childTmp = join(work, 'tmp');
mkdirSync(childTmp, { mode: 0o1777 });
chmodSync(childTmp, 0o1777);
const logFile = join(work, 'service.log');

let service;
let exitCode = 1;

async function stopService() {
  if (!service || service.exitCode !== null || service.signalCode !== null) return;
  const exited = new Promise((r) => service.once('exit', r));
  // SIGTERM: the service closes HTTP, then stops its embedded PostgreSQL.
  service.kill('SIGTERM');
  const timer = setTimeout(() => service.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function cleanup() {
  await stopService();
  rmSync(work, { recursive: true, force: true });
}

// A closed stdout (`| head`) must not crash the script before it cleans up.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
// Last resort when something still ends the process early: no service, no directory left.
process.on('exit', () => {
  if (service && service.exitCode === null && service.signalCode === null) service.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

async function waitForReady(baseUrl) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (service.exitCode !== null || service.signalCode !== null) {
      throw new Error(
        `the service exited (${service.exitCode ?? service.signalCode}) before ready`,
      );
    }
    try {
      const response = await fetch(`${baseUrl}/health/ready`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`the service was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

try {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    TMPDIR: childTmp,
    PORT: String(port),
    HOST: '127.0.0.1',
    // A small demo data set: the collection creates the records it reads.
    DEMO_RECEIPTS_PER_TENANT: '200',
    LOG_LEVEL: 'warn',
  };
  // An external database or identity provider from the caller's shell must not leak in.
  for (const name of ['DATABASE_URL', 'DATABASE_MIGRATION_URL', 'JWT_SECRET', 'JWT_JWKS_URI']) {
    delete env[name];
  }

  const log = createWriteStream(logFile);
  service = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout.pipe(log);
  service.stderr.pipe(log);
  const started = Date.now();
  process.stdout.write(`Starting the service on ${baseUrl} (data in ${dataDir})...\n`);
  await waitForReady(baseUrl);
  process.stdout.write(`Ready after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const token = spawnSync(
    process.execPath,
    [join(root, 'dist', 'src', 'cli', 'token.js'), '--tenant', 'demo'],
    { cwd: root, env, encoding: 'utf8' },
  );
  if (token.status !== 0) throw new Error(`minting a token failed: ${token.stderr}`);

  const newman = run(process.execPath, [
    join(root, 'node_modules', 'newman', 'bin', 'newman.js'),
    'run',
    join(root, 'postman', 'finance-service.postman_collection.json'),
    '--environment',
    join(root, 'postman', 'finance-service.postman_environment.json'),
    '--env-var',
    `baseUrl=${baseUrl}`,
    '--env-var',
    `token=${token.stdout.trim()}`,
    '--env-var',
    'tenant=demo',
    '--reporters',
    'cli',
    '--reporter-cli-no-console',
    '--color',
    'off',
  ]);
  exitCode = newman.status === 0 ? 0 : 1;
  if (exitCode !== 0) process.stderr.write('newman reported failures (see above)\n');
} catch (error) {
  process.stderr.write(`test:postman: ${error instanceof Error ? error.message : String(error)}\n`);
  try {
    process.stderr.write(
      `--- service log (last 4 kB) ---\n${readFileSync(logFile, 'utf8').slice(-4096)}\n`,
    );
  } catch {
    // no log written
  }
} finally {
  await cleanup();
}
process.exit(exitCode);
