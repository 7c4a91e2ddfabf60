import { parseArgs } from 'node:util';
import { EXTERNAL_DATABASE_MESSAGE, restoreEmbedded } from '@/database/embedded-backup';
import { loadConfig } from '@/platform/config/app-config';
import { argumentPath, reportFailure, stderrLog } from './backup-cli';

/**
 * `DATA_DIR=<new dir> npm run -s db:restore -- <backup dir>`: a db:backup copy into a new or
 * empty DATA_DIR, recovered and ready for `npm start`. See docs/operations.md#backups.
 */
async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    process.stderr.write(
      'usage: DATA_DIR=<new or empty dir> npm run -s db:restore -- <backup dir>\n',
    );
    process.exit(2);
  }
  const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
  if (config.databaseUrl) {
    process.stderr.write(`${EXTERNAL_DATABASE_MESSAGE}\n`);
    process.exit(2);
  }
  const source = argumentPath(positionals[0]);
  const result = await restoreEmbedded(source, config.dataDir, stderrLog);
  process.stdout.write(
    [
      `Restored ${source} into DATA_DIR ${result.dataDir} (cluster in ${result.pgDir}):`,
      `  ${result.tenants} tenants, ${result.receipts} receipts; copied in ${result.copySeconds} s, recovered in ${result.recoverySeconds} s`,
      `Start the service with: DATA_DIR=${result.dataDir} npm start`,
      '',
    ].join('\n'),
  );
}

main().catch(reportFailure);
