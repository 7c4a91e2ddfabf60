#!/usr/bin/env node
// The typed client in clients/typescript is its own small package (openapi-typescript wants
// TypeScript 5; the service pins 6), with its own lockfile, installed on demand.
//
//   node scripts/typescript-client.mjs generate   # rewrite clients/typescript/src/schema.d.ts
//   node scripts/typescript-client.mjs check      # fail when it differs from openapi.json, then
//                                                 # type-check the client and example.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const client = join(root, 'clients', 'typescript');
const openapi = join(root, 'openapi.json');
const schema = join(client, 'src', 'schema.d.ts');
const bin = (name) => join(client, 'node_modules', '.bin', name);

function run(command, args, cwd = client) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 2, 2] });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

function installIfNeeded() {
  const installed = join(client, 'node_modules', '.package-lock.json');
  const lock = join(client, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * The document declares x-tenant-id as a required header parameter (for Postman and Portman,
 * which send no optional header); the client's middleware sets it on every request, so its calls
 * need not repeat it: the types are generated from a copy where that parameter is optional.
 */
function clientDocument(work) {
  const document = JSON.parse(readFileSync(openapi, 'utf8'));
  for (const parameter of Object.values(document.components?.parameters ?? {})) {
    if (parameter.in === 'header' && parameter.name === 'x-tenant-id') parameter.required = false;
  }
  const file = join(work, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

function generate(output) {
  if (!existsSync(openapi)) throw new Error(`${openapi} not found: run \`npm run openapi:write\``);
  const work = mkdtempSync(join(tmpdir(), 'client-generate-'));
  try {
    run(bin('openapi-typescript'), [clientDocument(work), '--output', output]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function check() {
  const work = mkdtempSync(join(tmpdir(), 'client-check-'));
  try {
    const fresh = join(work, 'schema.d.ts');
    generate(fresh);
    if (!existsSync(schema) || readFileSync(fresh, 'utf8') !== readFileSync(schema, 'utf8')) {
      throw new Error(
        `${schema} is out of date with openapi.json: run \`npm run client:generate\` and commit it`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  run(bin('tsc'), ['-p', join(client, 'tsconfig.json'), '--noEmit']);
  process.stdout.write('typed client: schema.d.ts up to date, client and example type-check\n');
}

const command = process.argv[2];
try {
  if (command !== 'generate' && command !== 'check') {
    throw new Error('usage: node scripts/typescript-client.mjs generate|check');
  }
  installIfNeeded();
  if (command === 'generate') generate(schema);
  else check();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
