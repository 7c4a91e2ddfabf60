import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '@/app.module';
import { loadConfig } from '@/platform/config/app-config';
import { createOpenApiDocument } from '@/http/swagger';
import { staleRouteTable, withRouteTable } from './route-table';

/**
 * `npm run openapi:write` / `npm run openapi:check`: the committed openapi.json, generated from
 * the code, and the route table of docs/api.md, generated from that document. Nest's preview mode reads the routes and DTO metadata without instantiating
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
  const document = createOpenApiDocument(app);
  const generated = `${JSON.stringify(document, null, 2)}\n`;
  await app.close();
  const root = join(__dirname, '..', '..', '..');
  const file = join(root, 'openapi.json');
  const manual = join(root, 'docs', 'api.md');
  const markdown = readFileSync(manual, 'utf8');
  if (mode === 'write') {
    writeFileSync(file, generated);
    writeFileSync(manual, withRouteTable(markdown, document));
    process.stdout.write(`wrote ${file} and the route table of ${manual}\n`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing: reported as a difference below
  }
  const problems: string[] = [];
  if (committed !== generated) {
    const a = committed.split('\n');
    const b = generated.split('\n');
    const first = a.findIndex((line, i) => line !== b[i]);
    problems.push(
      `openapi.json differs from what the code generates (first difference at line ${first + 1}:\n` +
        `  committed: ${a[first] ?? '<end of file>'}\n  generated: ${b[first] ?? '<end of file>'}).`,
    );
  }
  const table = staleRouteTable(markdown, document);
  if (table) problems.push(`${manual}: ${table}.`);
  if (problems.length === 0) {
    process.stdout.write('openapi.json and the route table of docs/api.md match the code\n');
    return;
  }
  process.stderr.write(
    `${problems.join('\n')}\nRun \`npm run openapi:write\` and commit openapi.json and docs/api.md.\n`,
  );
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
