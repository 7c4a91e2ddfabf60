import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = resolve(__dirname, '..', '..');

/** The built service (built here when dist/ is missing or older than the sources). */
export function ensureBuilt(): void {
  execFileSync('node', [join(ROOT, 'scripts/build-if-needed.js')], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}

/** A directory the `postgres` OS user can traverse (the embedded server runs as it under root). */
const scratchDirs: string[] = [];

/** A directory under /tmp the `postgres` user can enter; removed by `removeScratchDirs`. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join('/tmp', prefix));
  chmodSync(dir, 0o755);
  scratchDirs.push(dir);
  return dir;
}

/** Tests leave nothing in the temporary directory: call from afterAll, after processes stopped. */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `node dist/src/main.js` as a child process: its log, its exit. */
export class ServiceProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  log = '';
  private readonly child: ChildProcess;

  constructor(
    readonly port: number,
    env: Record<string, string>,
  ) {
    this.child = spawn('node', [join(ROOT, 'dist/src/main.js')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    this.exited = new Promise((done) =>
      this.child.once('exit', (code, signal) => done({ code, signal })),
    );
  }

  /** The exit, or a description of its absence after `timeoutMs` (never left pending). */
  async exitWithin(
    timeoutMs: number,
  ): Promise<{ code: number | string | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ code: string; signal: null }>(
      (done) =>
        (timer = setTimeout(
          () => done({ code: `not exited within ${timeoutMs} ms`, signal: null }),
          timeoutMs,
        )),
    );
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Polls until `check` holds; fails with the service log after `timeoutMs`. */
  async until(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (!this.running) throw new Error(`service exited while waiting for ${what}:\n${this.log}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${this.log}`);
      await sleep(100);
    }
  }

  async status(path: string): Promise<number> {
    return (await send(this.port, 'GET', path)).status;
  }

  waitReady(timeoutMs?: number): Promise<void> {
    return this.until(
      'readiness 200',
      async () => (await this.status('/health/ready')) === 200,
      timeoutMs,
    );
  }
}

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request; rejects with the socket error (ECONNREFUSED, ECONNRESET, ...). */
export function send(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; agent?: Agent } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolveAnswer, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: options.agent ?? false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        // Any failure once the status line arrived means a response cut short.
        const incomplete = () =>
          reject(Object.assign(new Error('incomplete response'), { code: 'INCOMPLETE' }));
        res.on('aborted', incomplete);
        res.on('error', incomplete);
        res.on('end', () => {
          if (!res.complete) incomplete();
          else resolveAnswer({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Live postmasters (not their backends) serving `pgDir`, from /proc. */
export function postmastersOn(pgDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^\d+ \(.*\) Z/.test(stat)) continue;
      if (cmd[0]?.endsWith('postgres') && cmd.includes('-D') && cmd.includes(pgDir)) {
        pids.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
