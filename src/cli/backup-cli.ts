import { resolve } from 'node:path';
import { BackupRefused } from '@/database/embedded-backup';
import { SupervisorLog } from '@/database/embedded-supervisor';

/**
 * A path given on the command line: relative to where `npm run` was typed (npm runs scripts
 * from the package's directory and names the caller's in INIT_CWD).
 */
export function argumentPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** The embedded server's warnings and errors (a reused or started server) on stderr. */
export const stderrLog: SupervisorLog = (level, line) => {
  if (level !== 'info') process.stderr.write(`${line}\n`);
};

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} kB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** A refusal prints its message alone; anything else its message too, exit code 1. */
export function reportFailure(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `${error instanceof BackupRefused ? '' : 'db backup/restore failed: '}${message}\n`,
  );
  process.exit(1);
}
