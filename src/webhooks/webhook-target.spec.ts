import type { LookupAddress, LookupOptions } from 'node:dns';

import { AppError } from '@/common/app-error';

import {
  checkWebhookUrl,
  guardedLookup,
  isForbiddenAddress,
  type WebhookTargetPolicy,
} from './webhook-target';

const strict: WebhookTargetPolicy = {
  allowPrivate: false,
  requireHttps: false,
  resolveTimeoutMs: 2000,
};
const open: WebhookTargetPolicy = { ...strict, allowPrivate: true };
const production: WebhookTargetPolicy = { ...strict, requireHttps: true };

/** A resolver that never answers, like a DNS server that drops the query. */
const hang = () => new Promise<LookupAddress[]>(() => undefined);

/** The AppError `promise` rejects with (fails the test when it resolves or rejects otherwise). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${String(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const FORBIDDEN_LITERALS = [
  '127.0.0.1',
  '127.255.255.254',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '100.127.255.255',
  '0.0.0.0',
  '192.0.0.8',
  '198.18.0.1',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '::',
  '::1',
  'fe80::1',
  'fe80::1%eth0',
  'FE80::1',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:a00:1',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::ffff:0:7f00:1',
  '64:ff9b::a00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b:1::1',
  '2002:7f00:1::1',
  '2001:db8::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
];
const ALLOWED_LITERALS = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '2606:4700::1111',
  '2a00:1450:4001:81b::200e',
  '::ffff:93.184.216.34',
  '::ffff:5db8:d822',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe(isForbiddenAddress.name, () => {
  it.each(FORBIDDEN_LITERALS)('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(ALLOWED_LITERALS)('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('fails closed on anything that is not an IP address', () => {
    for (const junk of ['', 'localhost', '127.1', '010.0.0.1', '1.2.3.4.5', '::g']) {
      expect(isForbiddenAddress(junk)).toBe(true);
    }
  });
});

describe(checkWebhookUrl.name, () => {
  const forbiddenUrls = [
    'http://127.0.0.1/hook',
    'http://10.0.0.5:8080/hook',
    'http://172.16.3.4/hook',
    'http://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.1.1/hook',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[fe80::1]/hook',
    'http://[fc00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[::ffff:a00:1]/hook',
    'http://[64:ff9b::a00:1]/hook',
    'https://[::1]:8443/hook',
    // The URL parser turns these into 127.0.0.1; they must not slip past as names.
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://localhost/hook',
    'http://localhost:3000/hook',
  ];

  it.each(forbiddenUrls)('refuses %s with WEBHOOK_URL_FORBIDDEN', async (url) => {
    const error = await refusal(checkWebhookUrl(url, strict, 'target'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('WEBHOOK_URL_FORBIDDEN');
    expect(error.detail).toContain('WEBHOOK_ALLOW_PRIVATE=true');
    expect(error.errors).toEqual([
      { field: 'target', message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE') },
    ]);
  });

  it('names the forbidden address in the detail', async () => {
    const error = await refusal(checkWebhookUrl('http://169.254.169.254/', strict));
    expect(error.detail).toContain('169.254.169.254');
    const viaName = await refusal(checkWebhookUrl('http://localhost/', strict));
    expect(viaName.detail).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
  });

  it.each(forbiddenUrls)('accepts %s when WEBHOOK_ALLOW_PRIVATE=true', async (url) => {
    await expect(checkWebhookUrl(url, open)).resolves.toBe(new URL(url).toString());
  });

  it.each([
    ['https://93.184.216.34/hooks/receipts?x=1', 'https://93.184.216.34/hooks/receipts?x=1'],
    ['https://[2606:4700::1111]/hook', 'https://[2606:4700::1111]/hook'],
    ['HTTP://93.184.216.34:80', 'http://93.184.216.34/'],
    ['https://[2606:4700:0:0:0:0:0:1111]:443/a b', 'https://[2606:4700::1111]/a%20b'],
  ])('accepts the public literal %s without DNS and normalises it', async (url, normalised) => {
    const resolve = jest.fn(hang);
    await expect(checkWebhookUrl(url, strict, 'url', resolve)).resolves.toBe(normalised);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('resolves names and accepts them when every address is public', async () => {
    const resolve = jest.fn(() =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ]),
    );
    await expect(
      checkWebhookUrl('https://hooks.example.com/x', production, 'url', resolve),
    ).resolves.toBe('https://hooks.example.com/x');
    expect(resolve).toHaveBeenCalledWith('hooks.example.com');
  });

  it('refuses a name when ANY of its addresses is forbidden (not only the first)', async () => {
    const resolve = () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]);
    const error = await refusal(
      checkWebhookUrl('https://rebind.example/x', strict, 'url', resolve),
    );
    expect(error.code).toBe('WEBHOOK_URL_FORBIDDEN');
    expect(error.detail).toContain('10.0.0.7');
  });

  it.each([
    ['ftp://93.184.216.34/file', /not ftp:/],
    ['javascript:alert(1)', /not javascript:/],
    ['file:///etc/passwd', /not file:/],
    ['not a url', /absolute http or https URL/],
    ['/relative/path', /absolute http or https URL/],
    ['http://user:pass@93.184.216.34/', /user name or password/],
    ['https://token@93.184.216.34/', /user name or password/],
    [`https://93.184.216.34/${'a'.repeat(2048)}`, /at most 2048 characters/],
  ])('refuses %s with VALIDATION_FAILED', async (url, message) => {
    const error = await refusal(checkWebhookUrl(url, open, 'callbackUrl'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual([
      { field: 'callbackUrl', message: expect.stringMatching(message) },
    ]);
  });

  it('accepts a URL of exactly 2048 characters', async () => {
    const base = 'https://93.184.216.34/';
    const url = base + 'a'.repeat(2048 - base.length);
    await expect(checkWebhookUrl(url, strict)).resolves.toHaveLength(2048);
  });

  it('refuses http when requireHttps (production), even for a public address', async () => {
    const error = await refusal(checkWebhookUrl('http://93.184.216.34/hook', production));
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual([
      { field: 'url', message: 'url must be an https URL (NODE_ENV=production)' },
    ]);
    await expect(checkWebhookUrl('https://93.184.216.34/hook', production)).resolves.toBe(
      'https://93.184.216.34/hook',
    );
  });

  it('refuses a name that does not resolve with WEBHOOK_URL_UNRESOLVABLE', async () => {
    const error = await refusal(checkWebhookUrl('https://nothing.invalid/hook', strict));
    expect(error.status).toBe(400);
    expect(error.code).toBe('WEBHOOK_URL_UNRESOLVABLE');
    expect(error.errors).toEqual([
      { field: 'url', message: expect.stringContaining('nothing.invalid') },
    ]);
  });

  it('refuses a name that resolves to nothing with WEBHOOK_URL_UNRESOLVABLE', async () => {
    const error = await refusal(
      checkWebhookUrl('https://empty.example/', strict, 'url', () => Promise.resolve([])),
    );
    expect(error.code).toBe('WEBHOOK_URL_UNRESOLVABLE');
  });

  it('gives up on a resolver that never answers within the timeout', async () => {
    const started = Date.now();
    const error = await refusal(
      checkWebhookUrl('https://slow.example/', { ...strict, resolveTimeoutMs: 50 }, 'url', hang),
    );
    const elapsed = Date.now() - started;
    expect(error.status).toBe(400);
    expect(error.code).toBe('WEBHOOK_URL_UNRESOLVABLE');
    expect(error.detail).toContain('50 ms');
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe(guardedLookup.name, () => {
  interface Answer {
    err: NodeJS.ErrnoException | null;
    address: string | LookupAddress[];
    family?: number;
  }
  const lookup = (
    policy: WebhookTargetPolicy,
    host: string,
    options: LookupOptions,
    resolve?: () => Promise<LookupAddress[]>,
  ) =>
    new Promise<Answer>((done) =>
      guardedLookup(policy, resolve)(host, options, (err, address, family) =>
        done({ err, address, family }),
      ),
    );

  it.each([true, false])(
    'refuses localhost (all: %s) with WEBHOOK_TARGET_FORBIDDEN',
    async (all) => {
      const { err } = await lookup(strict, 'localhost', { all });
      expect(err).toBeInstanceOf(Error);
      expect(err?.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
      expect(err?.message).toMatch(/127\.0\.0\.1|::1/);
    },
  );

  it('passes localhost through when allowed, in the array form for all: true', async () => {
    const { err, address } = await lookup(open, 'localhost', { all: true });
    expect(err).toBeNull();
    expect(Array.isArray(address)).toBe(true);
    expect(address).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) }),
      ]),
    );
  });

  it('passes localhost through when allowed, as (address, family) for all: false', async () => {
    const { err, address, family } = await lookup(open, 'localhost', { all: false });
    expect(err).toBeNull();
    expect(typeof address).toBe('string');
    expect(['127.0.0.1', '::1']).toContain(address);
    expect(family).toBe(address === '::1' ? 6 : 4);
  });

  it('refuses when any answer is forbidden, even one of a family not asked for', async () => {
    const resolve = () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: 'fd00::1', family: 6 },
      ]);
    const { err } = await lookup(strict, 'rebind.example', { family: 4 }, resolve);
    expect(err?.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
    expect(err?.message).toContain('fd00::1');
  });

  it('honours options.family for a public name', async () => {
    const resolve = () =>
      Promise.resolve([
        { address: '2606:4700::1111', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ]);
    await expect(lookup(strict, 'hooks.example', { family: 4 }, resolve)).resolves.toEqual({
      err: null,
      address: '93.184.216.34',
      family: 4,
    });
    await expect(lookup(strict, 'hooks.example', { all: true }, resolve)).resolves.toMatchObject({
      err: null,
      address: [
        { address: '2606:4700::1111', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ],
    });
  });

  it('fails with WEBHOOK_URL_UNRESOLVABLE when the resolver never answers', async () => {
    const started = Date.now();
    const { err } = await lookup({ ...strict, resolveTimeoutMs: 50 }, 'slow.example', {}, hang);
    expect(err?.code).toBe('WEBHOOK_URL_UNRESOLVABLE');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('passes DNS failures through unchanged', async () => {
    const { err } = await lookup(strict, 'nothing.invalid', {});
    // Node's own error (another realm than jest's, so no toBeInstanceOf): its code survives.
    expect(err?.code).toMatch(/^(ENOTFOUND|EAI_AGAIN|ENODATA)$/);
  });
});
