import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The rooms of src/ (docs/architecture.md): every top-level folder says what it holds, and the
 * one folder whose name says nothing, common/, stays a handful of small domain primitives.
 * .dependency-cruiser.cjs gives each folder its layer; this keeps the list and common's size.
 */
const ROOMS = [
  'bank',
  'bookings',
  'books',
  'cancellations',
  'cli',
  'common',
  'database',
  'demands',
  'documents',
  'events',
  'exports',
  'gst',
  'gst-returns',
  'gst-settings',
  'health',
  'housekeeping',
  'http',
  'interest',
  'ledger',
  'letters',
  'numbering',
  'payments',
  'platform',
  'receipts',
  'receivables',
  'search',
  'seed',
  'statements',
  'tenant-config',
  'tenants',
  'webhooks',
];
const NAMED_FOR_NOTHING = ['common', 'core', 'shared', 'utils', 'util', 'misc', 'lib', 'helpers'];
const COMMON_MAX_LINES = 1000;

/**
 * SQL lives in `*.sql.ts` modules, in the search compiler (which builds statements from a
 * catalogue) and in migrations; controllers, services, views and the rest hold none. A string
 * or template literal that starts like a statement is SQL.
 */
const SQL_LITERAL =
  /[`'"]\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS|DECLARE|FETCH|CREATE|ALTER|DROP|LOCK|SET\s+LOCAL)\b/;
const SEARCH_COMPILER = ['search/', 'receipts/search/'];

function sourceFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path, `${prefix}${name}/`);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [`${prefix}${name}`] : [];
  });
}

function lines(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) total += lines(path);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) {
      total += readFileSync(path, 'utf8').split('\n').length;
    }
  }
  return total;
}

describe('src/ rooms', () => {
  const folders = readdirSync(__dirname).filter((name) =>
    statSync(join(__dirname, name)).isDirectory(),
  );

  it('has only the known top-level folders (a new one is added here and to the layers)', () => {
    expect(folders.sort()).toEqual(ROOMS);
  });

  it(`keeps folders named for nothing under ${COMMON_MAX_LINES} lines`, () => {
    for (const name of folders.filter((f) => NAMED_FOR_NOTHING.includes(f))) {
      expect(lines(join(__dirname, name))).toBeLessThan(COMMON_MAX_LINES);
    }
  });

  it('keeps SQL in *.sql.ts modules and the search compiler', () => {
    const withSql = sourceFiles(__dirname).filter(
      (file) =>
        !file.endsWith('.sql.ts') &&
        !SEARCH_COMPILER.some((dir) => file.startsWith(dir)) &&
        SQL_LITERAL.test(readFileSync(join(__dirname, file), 'utf8')),
    );
    expect(withSql).toEqual([]);
  });
});
