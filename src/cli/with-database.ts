import { NestFactory } from '@nestjs/core';
import { INestApplicationContext } from '@nestjs/common';
import { AppModule } from '@/app.module';
import { AppConfig, loadConfig } from '@/platform/config/app-config';
import { prepareDatabase, PreparedDatabase } from '@/database/database-bootstrap';

/**
 * Runs a command-line task with the application's providers and a migrated database (the
 * embedded one is started, or reused when `npm start` is already running it).
 */
export async function withApplication<T>(
  task: (app: INestApplicationContext, config: AppConfig, db: PreparedDatabase) => Promise<T>,
): Promise<T> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
  const db = await prepareDatabase(config);
  try {
    const app = await NestFactory.createApplicationContext(
      AppModule.register({ config, databaseUrl: db.appUrl }),
      { logger: false },
    );
    try {
      return await task(app, config, db);
    } finally {
      await app.close();
    }
  } finally {
    await db.stop();
  }
}

export function fail(error: unknown): never {
  const detail = (error as { detail?: string }).detail;
  process.stderr.write(`${detail ?? (error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
}
