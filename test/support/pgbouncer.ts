import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chmodSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

const PGBOUNCER = '/usr/sbin/pgbouncer';
export const PGBOUNCER_ADMIN = { user: 'bouncer_admin', password: 'bouncer_admin' };

export interface PgBouncer {
  /** `target` rewritten to go through the pooler. */
  url: string;
  /** The admin console (SHOW POOLS, SHOW CONFIG ...). */
  adminUrl: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Debian's PgBouncer (1.18) in transaction pooling mode in front of `target` (a postgres:// URL),
 * as a child process with its files in a temp directory removed on stop. Fails with the reason
 * when the binary is missing (.ci/run installs it with apt).
 */
export async function startPgBouncer(target: string, poolSize = 4): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER)) {
    throw new Error(`${PGBOUNCER} not found: apt-get install pgbouncer (.ci/run does)`);
  }
  const server = new URL(target);
  const database = server.pathname.slice(1);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const dir = mkdtempSync(join(tmpdir(), 'finance-pgbouncer-'));
  chmodSync(dir, 0o755);
  // As root, pgbouncer drops to the postgres user, which writes its log and pid file here.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const port = await freePort();
  writeFileSync(
    join(dir, 'userlist.txt'),
    `"${user}" "${password}"\n"${PGBOUNCER_ADMIN.user}" "${PGBOUNCER_ADMIN.password}"\n`,
    { mode: 0o644 },
  );
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${server.hostname} port=${server.port} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      // No Unix socket: nothing is left in /tmp.
      'unix_socket_dir =',
      'auth_type = plain',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      // node-postgres sends `options` (DateStyle, TimeZone) at connect; PgBouncer 1.18 cannot
      // pass it on, so the role's defaults carry those settings (docs/operations.md, PgBouncer).
      'ignore_startup_parameters = extra_float_digits,options',
      `admin_users = ${PGBOUNCER_ADMIN.user}`,
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    ].join('\n'),
    { mode: 0o644 },
  );
  const args = [join(dir, 'pgbouncer.ini')];
  if (asRoot) args.unshift('-u', 'postgres');
  const child: ChildProcess = spawn(PGBOUNCER, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await Promise.race([exited, sleep(5000)]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `postgres://${server.username}:${server.password}@127.0.0.1:${port}/${database}`;
  const adminUrl = `postgres://${PGBOUNCER_ADMIN.user}:${PGBOUNCER_ADMIN.password}@127.0.0.1:${port}/pgbouncer`;
  for (let i = 0; ; i++) {
    const probe = new Client({ connectionString: url });
    try {
      await probe.connect();
      await probe.query('SELECT 1');
      await probe.end();
      return { url, adminUrl, stop };
    } catch (error) {
      await probe.end().catch(() => undefined);
      if (child.exitCode !== null || i >= 50) {
        const log = existsSync(join(dir, 'pgbouncer.log'))
          ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8')
          : '';
        await stop();
        throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${log}`, {
          cause: error,
        });
      }
      await sleep(100);
    }
  }
}
