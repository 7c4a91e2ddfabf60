/**
 * OpenAPI-driven property-based fuzzer (fast-check): for every operation of the OpenAPI document
 * it sends valid-ish and hostile requests (random JSON, wrong types, deep / wide / huge bodies,
 * lone surrogates, NUL, invalid UTF-8, random and array/object query parameters, bad
 * Content-Encoding and Content-Type, random path ids) with a real tenant's credentials, and counts
 * responses >= 500 and error responses that are not the documented problem+json shape.
 * The e2e suite test/fuzz.e2e-spec.ts runs the same generators.
 *
 * Run against any running service (node built-ins and fast-check only):
 *   node dist/bench/fuzz.js --base-url http://127.0.0.1:3000 --token <jwt> --tenant <key>
 *     [--runs 400] [--seed 42] [--openapi openapi.json]   (default: <base-url>/docs-json)
 * FUZZ_SEED / FUZZ_RUNS in the environment set the seed and run count too.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

type Json = unknown;
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  example?: Json;
  enum?: Json[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
interface OpenApiDoc {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}
interface OperationObject {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export interface Operation {
  method: string;
  path: string;
  query: string[];
  body?: Schema;
}

export interface FuzzRequest {
  operation: Operation;
  label: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzFinding {
  label: string;
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** For an error response: what differs from the documented problem+json shape. */
  shapeError: string | null;
}

export interface FuzzResult {
  sent: number;
  byStatus: Record<number, number>;
  serverErrors: FuzzFinding[];
  notProblem: FuzzFinding[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, with its declared query parameters and JSON body schema. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: op.requestBody?.content?.['application/json']?.schema ?? undefined,
      })),
  );
}

function resolve(schema: Schema | undefined, doc: OpenApiDoc, depth = 0): Schema | undefined {
  if (!schema || depth > 8) return schema;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    return resolve(doc.components?.schemas?.[name], doc, depth + 1);
  }
  const parts = schema.allOf ?? schema.oneOf ?? schema.anyOf;
  if (parts?.length) return resolve(parts[0], doc, depth + 1);
  return schema;
}

const hostileString = fc.constantFrom(
  '\ud800x',
  'x\udc00',
  'a\u0000b',
  '\uFFFD',
  '',
  ' ',
  'x'.repeat(5000),
  "' OR 1=1 --",
  '😀',
  '2026-02-30',
  '-0',
  '1e309',
  'NaN',
);
const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), hostileString);
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(1e308),
  fc.constant(-1),
  fc.constant(12.345),
  anyString,
  fc.constant([]),
  fc.constant({}),
);

/** A value roughly of the schema's shape: often its example, sometimes a mutation of it. */
function valueOf(schema: Schema | undefined, doc: OpenApiDoc, depth = 0): fc.Arbitrary<Json> {
  const s = resolve(schema, doc);
  if (!s || depth > 4) return wrongType;
  const choices: fc.Arbitrary<Json>[] = [wrongType];
  if (s.example !== undefined) choices.push(fc.constant(s.example), fc.constant(s.example));
  if (s.enum?.length) choices.push(fc.constantFrom(...s.enum));
  if (s.type === 'object' || s.properties) {
    const props = Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([k, v]) => [k, valueOf(v, doc, depth + 1)]),
    );
    choices.push(fc.record(props, { requiredKeys: [] }), fc.record(props));
  } else if (s.type === 'array') {
    choices.push(fc.array(valueOf(s.items, doc, depth + 1), { maxLength: 4 }));
  } else if (s.type === 'string') {
    choices.push(anyString);
  } else if (s.type === 'number' || s.type === 'integer') {
    choices.push(fc.oneof(fc.integer(), fc.double({ noNaN: true })));
  }
  return fc.oneof(...choices);
}

const deep = (levels: number): Json => {
  let v: Json = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};
const wide = (keys: number): Json =>
  Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));

/** Body bytes: JSON of a value, or raw hostile bytes. */
function bodyArbitrary(op: Operation, doc: OpenApiDoc): fc.Arbitrary<Buffer | undefined> {
  const json = (v: fc.Arbitrary<Json>) => v.map((x) => Buffer.from(JSON.stringify(x) ?? 'null'));
  return fc.oneof(
    { weight: 6, arbitrary: json(valueOf(op.body, doc)) },
    { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 4 })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        Buffer.from(JSON.stringify(deep(40))),
        Buffer.from(JSON.stringify(wide(1500))),
        Buffer.from(JSON.stringify([wide(5)])),
        Buffer.from('{"receiptPrefix":"\\ud800x","separator":"\\udc00"}'),
        Buffer.from('{"a":"\\u0000"}'),
        Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from('"}'),
        ]),
        Buffer.from('{"a":'),
        Buffer.from('[' + '['.repeat(5000)),
        Buffer.from('x'.repeat(2_000_000)),
      ),
    },
  );
}

const pathValue = fc.oneof(
  fc.uuid(),
  fc.uuid(),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('0', '-1', '%00', '%ED%A0%80', '%FF', 'a'.repeat(300), '..%2F..', '%F0%9F%98%80'),
);

const queryValue = fc.oneof(
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('0', '-1', '500', '501', '1e3', '%00', '%ED%A0%80', '%FF', 'amount,asc', 'x,y,z'),
);

function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const declared = op.query.length
    ? fc
        .array(fc.tuple(fc.constantFrom(...op.query), queryValue), { maxLength: 3 })
        .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'))
    : fc.constant('');
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: declared },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom('page[]=1', 'sort[a]=b', 'page=1&page=2', 'pgae=1', 'a[b][c]=d', '%ff=1'),
        fc
          .tuple(fc.string({ minLength: 1, maxLength: 10 }), queryValue)
          .map(([k, v]) => `${encodeURIComponent(k)}=${v}`),
      ),
    },
  );
}

/** Content-Encoding and Content-Type, with the body bytes encoded to match (or not). */
const ENCODINGS = ['none', 'gzip', 'deflate', 'br', 'fake-gzip', 'fake-br', 'zstd', 'compress'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/problem+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
];

export function requestArbitrary(
  ops: Operation[],
  doc: OpenApiDoc,
  auth: Record<string, string>,
): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...ops).chain((operation) =>
    fc
      .record({
        ids: fc.array(pathValue, { minLength: 4, maxLength: 4 }),
        query: queryArbitrary(operation),
        body: bodyArbitrary(operation, doc),
        encoding: fc.oneof(
          { weight: 8, arbitrary: fc.constant('none') },
          { weight: 3, arbitrary: fc.constantFrom(...ENCODINGS) },
        ),
        contentType: fc.oneof(
          { weight: 8, arbitrary: fc.constant(CONTENT_TYPES[0]) },
          { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        ),
      })
      .map(({ ids, query, body, encoding, contentType }) => {
        let i = 0;
        const path = operation.path.replace(/\{[^}]+\}/g, () => ids[i++ % ids.length]);
        const headers: Record<string, string> = { ...auth, accept: 'application/json' };
        let bytes = body;
        if (bytes !== undefined) {
          headers['content-type'] = contentType;
          if (encoding === 'gzip') bytes = gzipSync(bytes);
          if (encoding === 'deflate') bytes = deflateSync(bytes);
          if (encoding === 'br') bytes = brotliCompressSync(bytes);
          if (encoding !== 'none') headers['content-encoding'] = encoding.replace('fake-', '');
        }
        const label = `${operation.method} ${operation.path} enc=${encoding} ct=${contentType}`;
        return {
          operation,
          label,
          url: `${path}${query ? `?${query}` : ''}`,
          headers,
          body: bytes,
        };
      }),
  );
}

/** The documented error shape (docs/api.md, Errors). Returns what is wrong, or null. */
export function problemShapeError(
  status: number,
  contentType: string,
  text: string,
): string | null {
  if (!contentType.startsWith('application/problem+json')) return `content-type ${contentType}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'body is not JSON';
  }
  for (const key of ['type', 'title', 'detail', 'instance', 'code', 'traceId']) {
    if (typeof body[key] !== 'string') return `missing ${key}`;
  }
  if (body.status !== status) return `status ${String(body.status)} != ${status}`;
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors) || body.errors.length > 50) return 'errors not a list <= 50';
    for (const e of body.errors as { field?: unknown; message?: unknown }[]) {
      if (typeof e.field !== 'string' || typeof e.message !== 'string') return 'errors entry';
    }
  }
  return null;
}

/** Sends one request; resolves with the finding fields. */
export async function send(baseUrl: string, req: FuzzRequest): Promise<FuzzFinding> {
  const method = req.operation.method;
  const res = await fetch(`${baseUrl}${req.url}`, {
    method,
    headers: req.headers,
    body: req.body && method !== 'GET' ? req.body : undefined,
  });
  const body = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  return {
    label: req.label,
    method,
    url: req.url,
    status: res.status,
    contentType,
    body: body.slice(0, 300),
    shapeError: res.status >= 400 ? problemShapeError(res.status, contentType, body) : null,
  };
}

export async function runFuzz(options: {
  baseUrl: string;
  doc: OpenApiDoc;
  auth: Record<string, string>;
  seed: number;
  runs: number;
}): Promise<FuzzResult> {
  const ops = operationsOf(options.doc);
  const requests = fc.sample(requestArbitrary(ops, options.doc, options.auth), {
    seed: options.seed,
    numRuns: options.runs,
  });
  const result: FuzzResult = { sent: 0, byStatus: {}, serverErrors: [], notProblem: [] };
  for (const req of requests) {
    const found = await send(options.baseUrl, req);
    result.sent++;
    result.byStatus[found.status] = (result.byStatus[found.status] ?? 0) + 1;
    if (found.status >= 500) result.serverErrors.push(found);
    if (found.shapeError) result.notProblem.push(found);
  }
  return result;
}

export function fuzzSeed(): number {
  return Number(process.env.FUZZ_SEED ?? 42);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string' },
      tenant: { type: 'string' },
      runs: { type: 'string', default: process.env.FUZZ_RUNS ?? '400' },
      seed: { type: 'string', default: String(fuzzSeed()) },
      openapi: { type: 'string' },
    },
  });
  const baseUrl = values['base-url'];
  if (!baseUrl || !values.token || !values.tenant) {
    throw new Error('usage: fuzz --base-url URL --token JWT --tenant KEY [--runs N] [--seed S]');
  }
  const doc = (
    values.openapi
      ? JSON.parse(readFileSync(values.openapi, 'utf8'))
      : await (await fetch(`${baseUrl}/docs-json`)).json()
  ) as OpenApiDoc;
  const auth = { authorization: `Bearer ${values.token}`, 'x-tenant-id': values.tenant };
  const started = Date.now();
  const r = await runFuzz({
    baseUrl,
    doc,
    auth,
    seed: Number(values.seed),
    runs: Number(values.runs),
  });
  console.log(
    JSON.stringify(
      {
        operations: operationsOf(doc).length,
        seed: Number(values.seed),
        sent: r.sent,
        status5xx: r.serverErrors.length,
        nonProblemErrors: r.notProblem.length,
        byStatus: r.byStatus,
        seconds: (Date.now() - started) / 1000,
      },
      null,
      2,
    ),
  );
  for (const f of [...r.serverErrors, ...r.notProblem].slice(0, 30)) {
    console.log(
      `${f.status} ${f.method} ${f.url.slice(0, 120)} [${f.label}] ${f.shapeError ?? ''} ${f.body.slice(0, 160)}`,
    );
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
