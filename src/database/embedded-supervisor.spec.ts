import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  importWithoutExitHooks,
  isProcessAlive,
  readPostmasterFile,
  removeStalePidFile,
} from './embedded-supervisor';

describe(readPostmasterFile.name, () => {
  let pgDir: string;
  const pidFile = (pid: number) =>
    writeFileSync(
      join(pgDir, 'postmaster.pid'),
      `${pid}\n${pgDir}\n1700000000\n54321\n/tmp\n127.0.0.1\n  1234  5678\nready\n`,
    );

  beforeEach(() => (pgDir = mkdtempSync(join(tmpdir(), 'pgdir-'))));
  afterEach(() => rmSync(pgDir, { recursive: true, force: true }));

  it('reads pid and port; no file means no server', () => {
    expect(readPostmasterFile(pgDir)).toBeUndefined();
    pidFile(2 ** 22 + 17); // above pid_max: no such process
    expect(readPostmasterFile(pgDir)).toEqual({ pid: 2 ** 22 + 17, port: 54321, alive: false });
  });

  it('a live process that is not a postgres on this directory leaves the file stale', () => {
    pidFile(process.pid); // this jest worker: alive, but not a postmaster
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(readPostmasterFile(pgDir)?.alive).toBe(false);
    removeStalePidFile(pgDir);
    expect(existsSync(join(pgDir, 'postmaster.pid'))).toBe(false);
  });
});

describe(importWithoutExitHooks.name, () => {
  it('removes the signal and exit listeners a module adds when loaded, and keeps the others', async () => {
    const mine = () => undefined;
    process.on('SIGTERM', mine);
    const added = () => undefined;
    const loaded = await importWithoutExitHooks(() => {
      process.on('SIGTERM', added);
      process.on('exit', added);
      return Promise.resolve('module');
    });
    expect(loaded).toBe('module');
    expect(process.listeners('SIGTERM')).toContain(mine);
    expect(process.listeners('SIGTERM')).not.toContain(added);
    expect(process.listeners('exit')).not.toContain(added);
    process.removeListener('SIGTERM', mine);
  });
});
