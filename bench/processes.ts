/**
 * Child processes of the benchmarks that measure per process (bench:floor, bench:scaling): CPU time
 * and memory from /proc, the load generator (floor-load.ts) as a child, stopping a child, medians.
 */
import { ChildProcess, execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './floor-load';

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Fields of /proc/<pid>/stat from field 3 (state) on, or null when the process is gone. */
export function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime of a process, in ms (0 when it is gone). */
export function cpuMs(pid: number): number {
  const f = statFields(pid);
  // Fields 14 and 15 of stat(5); the slice starts at field 3.
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK : 0;
}

/** utime + stime of a PostgreSQL server and each of its processes now, in ms by pid. */
export function clusterCpuMs(postmasterPid: number): Map<number, number> {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${postmasterPid}/task/${postmasterPid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // No children file (kernel without CONFIG_PROC_CHILDREN): the server process alone.
  }
  return new Map([postmasterPid, ...children].map((pid) => [pid, cpuMs(pid)]));
}

/** The CPU a cluster spent between two clusterCpuMs() readings (backends that exited are lost). */
export function clusterCpuSpentMs(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : 0;
}

/** One load run (floor-load.ts) in a process of its own, so its CPU is not the server's. */
export function childLoad(options: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'floor-load.js'), [], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.send(options);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as LoadResult)
        : reject(new Error(`load exited ${code}`)),
    );
  });
}

/** Disconnects a forked child (it closes itself) and waits for it; SIGKILL after 15 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.disconnect();
  });
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
