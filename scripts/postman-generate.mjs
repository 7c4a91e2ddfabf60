#!/usr/bin/env node
// Regenerates postman/finance-service.postman_collection.json from the committed openapi.json with
// Portman (postman/portman-config.json + postman/postman-config.json). No network.
// The output is deterministic: Portman gives every item, script and the collection random ids,
// which Postman re-creates on import anyway, so they are dropped (the collection id is derived
// from the document instead). `--check` fails when the committed collection is out of date.
//
//   node scripts/postman-generate.mjs [--check] [--openapi path/to/openapi.json] [--out file]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    openapi: { type: 'string', default: join(root, 'openapi.json') },
    out: {
      type: 'string',
      default: join(root, 'postman', 'finance-service.postman_collection.json'),
    },
  },
});

const openapi = resolve(values.openapi);
if (!existsSync(openapi)) {
  process.stderr.write(`${openapi} not found: run \`npm run openapi:write\` first\n`);
  process.exit(1);
}

/** Removes Portman's random ids, recursively; keeps every other key in its order. */
function stripIds(value) {
  if (Array.isArray(value)) return value.map(stripIds);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'id' && typeof child === 'string' && /^[0-9a-f-]{36}$/.test(child)) continue;
    if (key === '_') continue; // Portman's internal copy of the collection id
    out[key] = stripIds(child);
  }
  return out;
}

/**
 * Portman orders requests within a folder (orderOfOperations) and folders by name
 * (orderOfFolders); the flow needs the whole run in that order, so a renamed tag must fail here
 * rather than in newman.
 */
function assertFlowOrder(collection) {
  const config = JSON.parse(readFileSync(join(root, 'postman', 'portman-config.json'), 'utf8'));
  const expected = config.globals.orderOfOperations;
  const actual = [];
  const walk = (items) => {
    for (const item of items) {
      if (item.item) walk(item.item);
      else {
        const path = item.request.url.path.map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/');
        actual.push(`${item.request.method}::/${path}`);
      }
    }
  };
  walk(collection.item);
  const ordered = actual.filter((op) => expected.includes(op));
  if (ordered.join() !== expected.join()) {
    throw new Error(
      `requests are not in the order of globals.orderOfOperations (check orderOfFolders against the document's tags):\n  ${actual.join('\n  ')}`,
    );
  }
}

/**
 * Every request of an operation that requires the tenant scheme sends exactly one enabled,
 * non-empty x-tenant-id (the server answers 400 without it); public ones are left as they are.
 */
function assertTenantHeader(collection, document) {
  const tenantSchemes = Object.entries(document.components?.securitySchemes ?? {})
    .filter(([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name === 'x-tenant-id')
    .map(([name]) => name);
  const missing = [];
  const walk = (items) => {
    for (const item of items) {
      if (item.item) {
        walk(item.item);
        continue;
      }
      const path = `/${item.request.url.path.map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`;
      const method = item.request.method.toLowerCase();
      const operation = document.paths[path]?.[method];
      if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
      const security = operation.security ?? document.security ?? [];
      if (!security.some((r) => tenantSchemes.some((name) => name in r))) continue;
      const sent = (item.request.header ?? []).filter(
        (h) => !h.disabled && h.key.toLowerCase() === 'x-tenant-id' && h.value,
      );
      if (sent.length !== 1) missing.push(`${method.toUpperCase()} ${path}`);
    }
  };
  walk(collection.item);
  if (missing.length > 0) {
    throw new Error(`requests that do not send x-tenant-id once:\n  ${missing.join('\n  ')}`);
  }
}

function generate() {
  // Portman writes tmp/ folders into its working directory and reads .env from it: give it a
  // scratch directory of its own.
  const work = mkdtempSync(join(tmpdir(), 'postman-generate-'));
  try {
    const output = join(work, 'collection.json');
    const result = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', '@apideck', 'portman', 'bin', 'portman'),
        '--local',
        openapi,
        '--output',
        output,
        '--portmanConfigFile',
        join(root, 'postman', 'portman-config.json'),
        '--postmanConfigFile',
        join(root, 'postman', 'postman-config.json'),
        '--envFile',
        join(work, '.env'),
        '--includeTests',
      ],
      { cwd: work, encoding: 'utf8' },
    );
    if (result.status !== 0 || !existsSync(output)) {
      process.stderr.write(result.stdout + result.stderr);
      throw new Error(`portman failed (exit ${result.status})`);
    }
    const collection = stripIds(JSON.parse(readFileSync(output, 'utf8')));
    assertFlowOrder(collection);
    assertTenantHeader(collection, JSON.parse(readFileSync(openapi, 'utf8')));
    const digest = createHash('sha256').update(readFileSync(openapi)).digest('hex');
    // A stable UUID-shaped id, so a re-import updates the same collection in Postman.
    const d = (from, to) => digest.slice(from, to);
    collection.info._postman_id = `${d(0, 8)}-${d(8, 12)}-4${d(13, 16)}-8${d(17, 20)}-${d(20, 32)}`;
    return `${JSON.stringify(collection, null, 2)}\n`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const text = generate();
const out = resolve(values.out);
if (values.check) {
  const committed = existsSync(out) ? readFileSync(out, 'utf8') : '';
  if (committed !== text) {
    process.stderr.write(
      `${out} is out of date with ${openapi}: run \`npm run postman:generate\` and commit it\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${out} is up to date\n`);
} else {
  writeFileSync(out, text);
  process.stdout.write(`wrote ${out}\n`);
}
