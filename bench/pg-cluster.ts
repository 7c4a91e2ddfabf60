import { execFile as execFileCb, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const execFile = promisify(execFileCb);

/**
 * Server settings (`-c name=value`; values without spaces) over the defaults start() uses,
 * max_connections=100 and fsync=off, e.g. { shared_buffers: '512MB', max_connections: '200' }.
 */
export type PgSettings = Record<string, string>;

/** Debian's server binaries (newest version first); a clear error when none is installed. */
export function findPostgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      'PostgreSQL server binaries not found: no /usr/lib/postgresql/*/bin/pg_ctl. Install the Debian package postgresql-15 (apt-get install postgresql-15).',
    );
  }
  return join(root, versions[0], 'bin');
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
    const bin = findPostgresBinDir();
    const root = mkdtempSync(join(tmpdir(), 'finance-pgctl-'));
    chmodSync(root, 0o755);
    let ids: { uid: number; gid: number } | undefined;
    if (process.getuid?.() === 0) {
      ids = {
        uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
      };
      chownSync(root, ids.uid, ids.gid);
    }
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
   * A streaming standby of `primary` (pg_basebackup -R: standby.signal plus primary_conninfo),
   * started and serving read-only queries (hot standby). `settings` default to the primary's:
   * a hot standby refuses to start with a smaller max_connections than its primary's.
   */
  static async standbyOf(
    primary: PgCluster,
    port: number,
    settings: PgSettings = primary.settings,
  ): Promise<PgCluster> {
    const root = mkdtempSync(join(tmpdir(), 'finance-pgctl-standby-'));
    chmodSync(root, 0o755);
    if (primary.ids) chownSync(root, primary.ids.uid, primary.ids.gid);
    const standby = new PgCluster(port, primary.bin, root, primary.ids, settings);
    await standby.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      standby.dataDir,
      '-R',
      '-X',
      'stream',
      // An immediate checkpoint: the default (spread) waits most of checkpoint_timeout.
      '--checkpoint=fast',
      '--no-sync',
    ]);
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
