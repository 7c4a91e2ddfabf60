import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '@/app.module';
import { loadConfig } from '@/platform/config/app-config';
import { createOpenApiDocument } from '@/http/swagger';

/**
 * `npm run openapi:write` / `npm run openapi:check`: the committed openapi.json, generated from
 * the code. Nest's preview mode reads the routes and DTO metadata without instantiating
 * providers, so no database and no environment is involved: the document is the same everywhere.
 */
async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'write' && mode !== 'check') {
    throw new Error('usage: openapi.js write|check');
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'openapi-generation-only-secret-0123456789abcdef',
  });
  const app = await NestFactory.create(
    AppModule.register({ config, databaseUrl: 'postgres://unused@127.0.0.1:1/unused' }),
    { preview: true, logger: false, abortOnError: false },
  );
  const generated = `${JSON.stringify(createOpenApiDocument(app), null, 2)}\n`;
  await app.close();
  const file = join(__dirname, '..', '..', '..', 'openapi.json');
  if (mode === 'write') {
    writeFileSync(file, generated);
    process.stdout.write(`wrote ${file}\n`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing: reported as a difference below
  }
  if (committed === generated) {
    process.stdout.write('openapi.json matches the code\n');
    return;
  }
  const a = committed.split('\n');
  const b = generated.split('\n');
  const first = a.findIndex((line, i) => line !== b[i]);
  process.stderr.write(
    `openapi.json differs from what the code generates (first difference at line ${first + 1}:\n` +
      `  committed: ${a[first] ?? '<end of file>'}\n  generated: ${b[first] ?? '<end of file>'}).\n` +
      'Run `npm run openapi:write` and commit openapi.json.\n',
  );
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
