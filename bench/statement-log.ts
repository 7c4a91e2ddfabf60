/**
 * The PostgreSQL statement log as benchmarks read it, to show that a baseline runs the service's
 * own SQL: start the bench database with `onLog: log.onLog`, turn `log_statement = 'all'` on
 * with `log_line_prefix = '@@%a|%u@@ '` around the checks, then compare `take(app)` sequences.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { Client } from 'pg';

/**
 * The server's statement log (log_statement = all, turned on only around the checks), split into
 * entries by a marker prefix: `@@<application_name>|<user>@@ LOG:  statement: ...`.
 */
export class StatementLog {
  private buffer = '';
  private entries: { app: string; user: string; text: string }[] = [];

  onLog = (chunk: string): void => {
    this.buffer += chunk.replace(/^\[STDERR\] /, '');
    const parts = this.buffer.split(/(?=@@[^@\n]*\|[^@\n]*@@ )/);
    this.buffer = parts.pop() ?? '';
    for (const p of parts) this.add(p);
  };

  private add(raw: string): void {
    const m = /^@@([^|]*)\|([^@]*)@@ (\w+):\s+([\s\S]*)$/.exec(raw.trimEnd());
    if (!m || m[3] !== 'LOG') return;
    const s = /^(?:statement|execute [^:]*): ([\s\S]*)$/.exec(m[4]);
    if (s) this.entries.push({ app: m[1], user: m[2], text: s[1] });
  }

  /** Statements of `app` since the last take(). */
  async take(app: string): Promise<string[]> {
    await sleep(300); // the server writes its log asynchronously
    if (this.buffer) this.add(this.buffer);
    this.buffer = '';
    const out = this.entries.filter((e) => e.app === app).map((e) => e.text);
    this.entries = [];
    return out;
  }
}

/** A line-by-line diff (LCS) of two statement sequences; '' when equal. */
export function sequenceDiff(a: string[], b: string[], aName: string): string {
  if (isDeepStrictEqual(a, b)) return '';
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: string[] = [];
  const one = (s: string) => s.replace(/\s+/g, ' ').slice(0, 300);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`    ${one(a[i])}`);
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(`  + floor:   ${one(b[j++])}`);
    } else {
      out.push(`  - ${aName}: ${one(a[i++])}`);
    }
  }
  const norm = (xs: string[]) => xs.map((x) => x.replace(/\s+/g, ' ').trim());
  if (isDeepStrictEqual(norm(a), norm(b))) {
    out.push('  (the statements differ in whitespace only; the log shows the bytes sent)');
  }
  return out.join('\n');
}

/** Turns the statement log on (`on`) or back off, as the superuser `owner`. */
export async function logStatements(owner: Client, on: boolean): Promise<void> {
  if (on) {
    await owner.query(`ALTER SYSTEM SET log_line_prefix = '@@%a|%u@@ '`);
    await owner.query(`ALTER SYSTEM SET log_statement = 'all'`);
  } else {
    await owner.query('ALTER SYSTEM RESET log_statement');
    await owner.query('ALTER SYSTEM RESET log_line_prefix');
  }
  await owner.query('SELECT pg_reload_conf()');
  await sleep(500);
}
