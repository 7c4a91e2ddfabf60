import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** Secrets generated once for the local (embedded) set-up and kept in DATA_DIR. */
export interface LocalSecrets {
  jwtSecret: string;
  postgresPassword: string;
  appRolePassword: string;
  /** The development SECRETS_KEY (base64 of 32 bytes); added to older files on first use. */
  secretsKey: string;
}

const FILE = 'secrets.json';
/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 30_000;

const generateSecretsKey = () => randomBytes(32).toString('base64');

export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, FILE);
  if (!existsSync(file)) {
    // Hex only: these end up in URLs and in an ALTER ROLE statement.
    create(file, {
      jwtSecret: randomBytes(32).toString('hex'),
      postgresPassword: randomBytes(16).toString('hex'),
      appRolePassword: randomBytes(16).toString('hex'),
      secretsKey: generateSecretsKey(),
    });
  }
  const secrets = read(file);
  if (secrets.secretsKey) return secrets;
  // A DATA_DIR from before SECRETS_KEY: the key is added once, under a lock, so processes
  // starting together (npm start, a CLI command) never seal with two different keys.
  return withLock(`${file}.lock`, () => {
    const current = read(file);
    if (current.secretsKey) return current;
    const upgraded = { ...current, secretsKey: generateSecretsKey() };
    replace(file, upgraded);
    return upgraded;
  });
}

export function readLocalSecrets(dataDir: string): LocalSecrets | undefined {
  const file = join(dataDir, FILE);
  return existsSync(file) ? read(file) : undefined;
}

function read(file: string): LocalSecrets {
  return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
}

/** Written beside, then linked into place: fails if another process made it first (then theirs is used). */
function create(file: string, secrets: LocalSecrets): void {
  const temporary = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

function replace(file: string, secrets: LocalSecrets): void {
  const temporary = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

function withLock<T>(lock: string, fn: () => T): T {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() - lockTakenAt(lock) > STALE_LOCK_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline) {
        throw new Error(`${lock} is held by another process`, { cause: error });
      } else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** When the lock was taken (its mtime); now if it just went away. */
function lockTakenAt(lock: string): number {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return Date.now();
  }
}
