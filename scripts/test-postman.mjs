#!/usr/bin/env node
// `npm run test:postman`: checks the committed Postman collection is what openapi.json generates,
// starts the built service (`dist/`) on a free port against a throw-away embedded PostgreSQL,
// mints a token for the seeded `demo` tenant, then runs newman
//   1. over collections that openapi-to-postmanv2 (what Postman's import and Portman use) makes
//      from the served /docs-json with its default options, as a Postman user who imports the
//      document gets them, with only the variables baseUrl, the bearer token (the converter's
//      name for it) and tenantId: every request that needs a tenant must send x-tenant-id (the
//      converter turns only the bearer scheme into auth), so no response may be
//      TENANT_HEADER_INVALID (fake bodies and ids may legitimately get other 4xx);
//   2. over the committed collection and environment twice in a row, against the same service and
//      after the writes of step 1 (0 failed assertions required in both runs: its tests look for
//      its own records, never for "the first" one);
// then stops the service and removes every temporary file, also on failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  createWriteStream,
  readFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// openapi-to-postmanv2 comes with @apideck/portman (the version Portman converts with).
const newman = require('newman');
const openapiToPostman = require('openapi-to-postmanv2');
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

/** The Postman variable the document's x-tenant-id parameter defaults to. */
const TENANT_VARIABLE = 'tenantId';
const TENANT = 'demo';
const TENANT_HEADER = 'x-tenant-id';

function runNewman(options) {
  return new Promise((resolveRun, reject) => {
    newman.run(options, (error, summary) => (error ? reject(error) : resolveRun(summary)));
  });
}

/** openapi-to-postmanv2 with its default options, through `convert` or `convertV2`. */
function convertDocument(document, method) {
  return new Promise((resolveConversion, reject) => {
    openapiToPostman[method]({ type: 'json', data: document }, {}, (error, result) => {
      if (error) return reject(error);
      if (!result.result) return reject(new Error(`${method}: ${result.reason}`));
      resolveConversion(result.output[0].data);
    });
  });
}

/** The name of the variable a converted collection's bearer auth reads (`{{bearerToken}}`). */
function bearerVariable(collection) {
  const token = collection.auth?.bearer?.find((entry) => entry.key === 'token')?.value;
  const name = /^\{\{([^{}]+)\}\}$/.exec(String(token ?? ''))?.[1];
  if (collection.auth?.type !== 'bearer' || !name) {
    throw new Error(
      `the converted collection has no bearer auth variable: ${JSON.stringify(collection.auth)}`,
    );
  }
  return name;
}

/** How many operations of the document require the tenant scheme (x-tenant-id). */
function tenantOperations(document) {
  const schemes = Object.entries(document.components?.securitySchemes ?? {})
    .filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'header')
    .filter(([, scheme]) => scheme.name.toLowerCase() === TENANT_HEADER)
    .map(([name]) => name);
  let count = 0;
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      const security = item[method]?.security ?? document.security ?? [];
      if (item[method] && security.some((r) => schemes.some((name) => name in r))) count += 1;
    }
  }
  return count;
}

/**
 * Step 1 for one converter entry point: runs the converted collection and counts what matters,
 * the responses carrying TENANT_HEADER_INVALID and the tenant requests sent without the tenant.
 */
async function runConvertedCollection(document, method, baseUrl, token) {
  const collection = await convertDocument(document, method);
  const bearer = bearerVariable(collection);
  const summary = await runNewman({
    collection,
    envVar: [
      { key: 'baseUrl', value: baseUrl },
      { key: bearer, value: token },
      { key: TENANT_VARIABLE, value: TENANT },
    ],
    reporters: [],
  });
  const statuses = new Map();
  let tenantHeaderInvalid = 0;
  let sentTenant = 0;
  for (const execution of summary.run.executions) {
    const sent = (execution.request?.headers?.all() ?? [])
      .filter((header) => !header.disabled && header.key.toLowerCase() === TENANT_HEADER)
      .map((header) => header.value);
    if (sent.length === 1 && sent[0] === TENANT) sentTenant += 1;
    const response = execution.response;
    let code = '';
    try {
      code = JSON.parse(response?.stream?.toString('utf8') ?? '').code ?? '';
    } catch {
      // not JSON (a PDF, CSV, metrics text)
    }
    if (code === 'TENANT_HEADER_INVALID') tenantHeaderInvalid += 1;
    const key = `${response?.code ?? 'no response'}${code ? ` ${code}` : ''}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const expectedTenant = tenantOperations(document);
  const requests = summary.run.executions.length;
  process.stdout.write(
    `openapi-to-postmanv2 ${method}(/docs-json, defaults), variables baseUrl, ${bearer}, ${TENANT_VARIABLE}: ` +
      `${requests} requests, ${sentTenant} of ${expectedTenant} tenant operations sent ${TENANT_HEADER}: ${TENANT}, ` +
      `TENANT_HEADER_INVALID responses: ${tenantHeaderInvalid}\n` +
      `  responses: ${[...statuses]
        .sort()
        .map(([k, n]) => `${k} x${n}`)
        .join(', ')}\n`,
  );
  const errors = [];
  if (summary.run.error) errors.push(`newman: ${summary.run.error.message}`);
  if (tenantHeaderInvalid > 0)
    errors.push(`${tenantHeaderInvalid} responses are TENANT_HEADER_INVALID`);
  // The optional headers the converter fills in (empty X-Consistency-Token) must not break reads.
  const badToken = [...statuses].filter(([k]) => k.endsWith('INVALID_CONSISTENCY_TOKEN'));
  if (badToken.length > 0) errors.push(`responses are INVALID_CONSISTENCY_TOKEN: ${badToken}`);
  if (sentTenant !== expectedTenant) {
    errors.push(
      `${sentTenant} requests sent ${TENANT_HEADER}: ${TENANT}, expected ${expectedTenant}`,
    );
  }
  return errors.map((e) => `${method}: ${e}`);
}

/** Step 2, one run of the committed collection; returns its failures. */
async function runCommittedCollection(n, baseUrl, token) {
  process.stdout.write(`\nThe committed collection, run ${n} of 2:\n`);
  const summary = await runNewman({
    collection: join(root, 'postman', 'finance-service.postman_collection.json'),
    environment: join(root, 'postman', 'finance-service.postman_environment.json'),
    envVar: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'token', value: token },
      { key: 'tenant', value: TENANT },
    ],
    reporters: ['cli'],
    reporter: { cli: { noConsole: true } },
    color: 'off',
  });
  const { requests, assertions } = summary.run.stats;
  const failed = summary.run.failures.length;
  process.stdout.write(
    `committed collection run ${n}: ${requests.total} requests, ${assertions.total} assertions, ` +
      `${assertions.failed} failed assertions, ${failed} failures\n`,
  );
  return failed > 0 || summary.run.error
    ? [`committed collection run ${n}: ${failed} failures`]
    : [];
}

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

  const document = await (await fetch(`${baseUrl}/docs-json`)).json();
  const errors = [];
  for (const method of ['convert', 'convertV2']) {
    errors.push(...(await runConvertedCollection(document, method, baseUrl, token.stdout.trim())));
  }
  for (const n of [1, 2]) {
    errors.push(...(await runCommittedCollection(n, baseUrl, token.stdout.trim())));
  }
  exitCode = errors.length === 0 ? 0 : 1;
  if (exitCode !== 0) process.stderr.write(`test:postman failed:\n  ${errors.join('\n  ')}\n`);
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
