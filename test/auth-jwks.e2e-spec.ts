import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { sign } from 'jsonwebtoken';
import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, TestApp } from './support/test-app';
import { token } from './support/tokens';

/**
 * The production path: tokens signed by an identity provider (RS256), verified through its JWKS
 * endpoint (a local HTTP server here), with issuer and audience pinned.
 */
describe('JWKS mode (RS256, issuer and audience)', () => {
  const ISSUER = 'https://id.example.test/';
  const AUDIENCE = 'finance-service';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let jwks: Server;
  let t: TestApp;
  let tenant: Tenant;

  const rs256 = (claims: Record<string, unknown>, key: KeyObject = privateKey, kid = 'key-1') =>
    sign({ sub: 'idp-user', scope: 'receipts:read', ...claims }, key, {
      algorithm: 'RS256',
      keyid: kid,
      expiresIn: '5m',
      issuer: ISSUER,
      audience: AUDIENCE,
    });
  const search = (bearer: string) =>
    request(t.server)
      .post('/receipts/search')
      .set({ authorization: `Bearer ${bearer}`, 'x-tenant-id': tenant.key })
      .send([]);

  beforeAll(async () => {
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'key-1', use: 'sig', alg: 'RS256' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    t = await createTestApp({
      JWT_SECRET: '',
      JWT_JWKS_URI: `http://127.0.0.1:${port}/.well-known/jwks.json`,
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
    });
    tenant = await t.createTenant();
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it('accepts an RS256 token from the identity provider', async () => {
    const res = await search(rs256({ tenant: tenant.key }));
    expect(res.status).toBe(200);
  });

  it.each([
    ['signed by another key', () => rs256({ tenant: 'x' }, other.privateKey)],
    ['with an unknown key id', () => rs256({ tenant: 'x' }, privateKey, 'key-2')],
    [
      'from another issuer',
      () =>
        sign({ sub: 'u', tenant: 'x', scope: 'receipts:read' }, privateKey, {
          algorithm: 'RS256',
          keyid: 'key-1',
          issuer: 'https://evil.test/',
          audience: AUDIENCE,
        }),
    ],
    [
      'for another audience',
      () =>
        sign({ sub: 'u', tenant: 'x', scope: 'receipts:read' }, privateKey, {
          algorithm: 'RS256',
          keyid: 'key-1',
          issuer: ISSUER,
          audience: 'other',
        }),
    ],
    ['HS256 with the shared-secret of local mode', () => token({ tenant: 'x' })],
    [
      'issued 300 s in the future (iat beyond the clock tolerance)',
      () => rs256({ tenant: tenant.key, iat: Math.floor(Date.now() / 1000) + 300 }),
    ],
    [
      'not valid before 300 s from now (nbf)',
      () => rs256({ tenant: tenant.key, nbf: Math.floor(Date.now() / 1000) + 300 }),
    ],
    [
      'HS256 keyed with the public key (algorithm confusion)',
      () =>
        token({
          tenant: 'x',
          secret: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        }),
    ],
  ])('refuses a token %s with 401', async (_name, make) => {
    const res = await search(make());
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });
});
