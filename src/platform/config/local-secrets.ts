import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Secrets generated once for the local (embedded) set-up and kept in DATA_DIR. */
export interface LocalSecrets {
  jwtSecret: string;
  postgresPassword: string;
  appRolePassword: string;
}

const FILE = 'secrets.json';

export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, FILE);
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  }
  // Hex only: these end up in URLs and in an ALTER ROLE statement.
  const secrets: LocalSecrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    postgresPassword: randomBytes(16).toString('hex'),
    appRolePassword: randomBytes(16).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

export function readLocalSecrets(dataDir: string): LocalSecrets | undefined {
  const file = join(dataDir, FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets) : undefined;
}
