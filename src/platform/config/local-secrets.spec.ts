import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateLocalSecrets, readLocalSecrets } from './local-secrets';

describe(loadOrCreateLocalSecrets.name, () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'local-secrets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates every secret once, SECRETS_KEY as 32 bytes of base64, readable by the owner only', () => {
    const first = loadOrCreateLocalSecrets(dir);
    expect(Buffer.from(first.secretsKey, 'base64')).toHaveLength(32);
    expect(first.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(loadOrCreateLocalSecrets(dir)).toEqual(first);
    expect(readLocalSecrets(dir)).toEqual(first);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('adds a SECRETS_KEY to a DATA_DIR from before it, keeping the other secrets', () => {
    const before = {
      jwtSecret: 'a'.repeat(64),
      postgresPassword: 'b'.repeat(32),
      appRolePassword: 'c'.repeat(32),
    };
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify(before), { mode: 0o600 });
    const upgraded = loadOrCreateLocalSecrets(dir);
    expect(upgraded).toMatchObject(before);
    expect(Buffer.from(upgraded.secretsKey, 'base64')).toHaveLength(32);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual(upgraded);
    expect(loadOrCreateLocalSecrets(dir).secretsKey).toBe(upgraded.secretsKey);
  });
});
