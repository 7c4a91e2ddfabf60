import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupEmbedded, EXTERNAL_DATABASE_MESSAGE, MANIFEST } from '@/database/embedded-backup';
import { loadConfig } from '@/platform/config/app-config';
import { argumentPath, formatBytes, reportFailure, stderrLog } from './backup-cli';

/**
 * `npm run -s db:backup -- <dir>`: a consistent copy of the embedded database (and the DATA_DIR
 * secrets) into a new or empty directory, while the service runs. See docs/operations.md#backups.
 */
async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    process.stderr.write(
      "usage: DATA_DIR=<the service's DATA_DIR> npm run -s db:backup -- <new or empty dir>\n",
    );
    process.exit(2);
  }
  const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
  if (config.databaseUrl) {
    process.stderr.write(`${EXTERNAL_DATABASE_MESSAGE}\n`);
    process.exit(2);
  }
  const { manifest, target } = await backupEmbedded(
    config.dataDir,
    argumentPath(positionals[0]),
    stderrLog,
  );
  process.stdout.write(
    [
      `Backed up the embedded database of DATA_DIR ${config.dataDir} into ${target} in ${manifest.seconds} s:`,
      `  cluster (PostgreSQL ${manifest.postgresVersion}) ${formatBytes(manifest.clusterBytes)}, WAL ${manifest.startWal}..${manifest.stopWal} (${manifest.walSegments} segments)`,
      `  DATA_DIR files: ${manifest.dataDirFiles.join(', ')}`,
      `  holds every transaction committed before ${manifest.endedAt} (${MANIFEST})`,
      `Restore with: DATA_DIR=<new dir> npm run -s db:restore -- ${resolve(target)}`,
      '',
    ].join('\n'),
  );
}

main().catch(reportFailure);
