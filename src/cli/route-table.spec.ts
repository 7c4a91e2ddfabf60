import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import {
  renderRouteTable,
  ROUTE_TABLE_END,
  ROUTE_TABLE_START,
  staleRouteTable,
  withRouteTable,
} from './route-table';

const root = join(__dirname, '..', '..');
const committedDocument = () =>
  JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')) as OpenAPIObject;
const committedManual = () => readFileSync(join(root, 'docs', 'api.md'), 'utf8');

const document = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  security: [{ bearer: [], tenant: [] }],
  paths: {
    '/health/live': { get: { summary: 'Liveness.', security: [], responses: {} } },
    '/receipts': {
      post: { summary: 'Record a receipt.', 'x-scopes': ['receipts:write'], responses: {} },
    },
    '/receipts/export': {
      post: {
        summary: 'Export as csv|xlsx.',
        'x-scopes': ['receipts:read', 'bank:read'],
        responses: {},
      },
    },
  },
} as unknown as OpenAPIObject;

const manual = `# API\n\nBefore.\n\n${ROUTE_TABLE_START}\n\nold table\n\n${ROUTE_TABLE_END}\n\nAfter.\n`;

describe('route table of docs/api.md', () => {
  it('has one row per operation: method, path, summary, scopes (public: none)', () => {
    expect(renderRouteTable(document).split('\n')).toEqual([
      '| method | path               | summary              | scopes                       |',
      '| ------ | ------------------ | -------------------- | ---------------------------- |',
      '| `GET`  | `/health/live`     | Liveness.            | none (public)                |',
      '| `POST` | `/receipts`        | Record a receipt.    | `receipts:write`             |',
      '| `POST` | `/receipts/export` | Export as csv\\|xlsx. | `receipts:read`, `bank:read` |',
    ]);
  });

  it('replaces only what is between the markers', () => {
    const written = withRouteTable(manual, document);
    expect(written.startsWith(`# API\n\nBefore.\n\n${ROUTE_TABLE_START}\n\n| method`)).toBe(true);
    expect(written.endsWith(`|\n\n${ROUTE_TABLE_END}\n\nAfter.\n`)).toBe(true);
    expect(written).not.toContain('old table');
    expect(withRouteTable(written, document)).toBe(written);
  });

  it('reports a stale table (what makes `npm run openapi:check` fail), and a current one as such', () => {
    expect(staleRouteTable(manual, document)).toMatch(/differs from the OpenAPI document/);
    const written = withRouteTable(manual, document);
    expect(staleRouteTable(written, document)).toBeNull();
    // A route added to the document, or a summary edited by hand, makes the table stale.
    const edited = written.replace('Record a receipt.', 'Record a payment.');
    expect(staleRouteTable(edited, document)).toMatch(/line \d+/);
    expect(staleRouteTable(written.replace(ROUTE_TABLE_END, ''), document)).toMatch(
      /markers are missing/,
    );
  });

  it('the committed docs/api.md has the table of the committed openapi.json', () => {
    expect(staleRouteTable(committedManual(), committedDocument())).toBeNull();
  });

  it('every authenticated operation of the committed document declares its scopes', () => {
    const { paths } = committedDocument();
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item) as [
        string,
        Record<string, unknown>,
      ][]) {
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        expect([`${method} ${path}`, isPublic || Array.isArray(operation['x-scopes'])]).toEqual([
          `${method} ${path}`,
          true,
        ]);
      }
    }
  });
});
