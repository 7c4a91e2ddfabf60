import { validationFailed } from '@/http/errors/validation';
import { promises as dns, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

import {
  forbiddenTargetMessage,
  WEBHOOK_URL_FORBIDDEN,
  WEBHOOK_URL_UNRESOLVABLE,
} from './webhooks.errors';

/**
 * SSRF guard for webhook targets. A subscription URL is checked when it is stored
 * (`checkWebhookUrl`) and every delivery connects through `guardedLookup`, so a name that later
 * re-points at an internal host (DNS rebinding) is still refused. Redirects are never followed by
 * the delivery code, so the address checked is the address reached.
 */
export interface WebhookTargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private, link-local ... addresses allowed. */
  allowPrivate: boolean;
  /** NODE_ENV=production: only https. */
  requireHttps: boolean;
  /** Resolution timeout, 2000 in production. */
  resolveTimeoutMs: number;
}

const MAX_URL_LENGTH = 2048;
/** Host names resolve within this, at subscription and at connection time (README.md, Webhooks). */
const RESOLVE_TIMEOUT_MS = 2000;

/** The policy of the service's configuration (WEBHOOK_ALLOW_PRIVATE, production). */
export function webhookTargetPolicy(settings: {
  allowPrivate: boolean;
  requireHttps: boolean;
}): WebhookTargetPolicy {
  return {
    allowPrivate: settings.allowPrivate,
    requireHttps: settings.requireHttps,
    resolveTimeoutMs: RESOLVE_TIMEOUT_MS,
  };
}

/** Resolves a host name to every address it has; injectable so the spec can simulate a hang. */
type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/** verbatim: keep the resolver's order, which is what a connection would try. */
const dnsLookupAll: ResolveAll = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Ranges no webhook may reach unless allowPrivate. Documentation ranges are refused too: nothing
 * legitimate listens there and refusing them costs nothing. IPv6 forms that embed an IPv4 address
 * (mapped, compatible, NAT64, 6to4) are not listed here: they are judged by the embedded IPv4.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT, RFC 6598
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1 (documentation)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2 (documentation)
  ['203.0.113.0', 24], // TEST-NET-3 (documentation)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including broadcast 255.255.255.255
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified (also caught as IPv4-compatible 0.0.0.0)
  ['::1', 128], // loopback (also caught as IPv4-compatible 0.0.0.1)
  ['64:ff9b:1::', 48], // local-use NAT64, RFC 8215: the translator is ours, not the internet's
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: tunnels to an arbitrary (obfuscated) IPv4 address
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (zone id already removed). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const groups: number[] = [];
  // A trailing dotted quad (::ffff:1.2.3.4) stands for the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  const tail: number[] = [];
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index) + '0'; // placeholder group, dropped below
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  if (dotted) (right.length > 0 ? right : left).pop();
  const fill = 8 - tail.length - left.length - right.length;
  groups.push(...left, ...Array<number>(rest === undefined ? 0 : fill).fill(0), ...right, ...tail);
  return groups;
}

/** The IPv4 address an IPv6 address stands for, when it embeds one in a routable way. */
function embeddedIpv4(g: number[]): string | undefined {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::a.b.c.d (compatible) and ::ffff:a.b.c.d (mapped): the kernel connects to the IPv4 host.
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return v4(g[6], g[7]);
  // ::ffff:0:a.b.c.d (SIIT translated, RFC 2765).
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]);
  // 64:ff9b::/96 well-known NAT64 prefix: the translator forwards to the embedded IPv4.
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6], g[7]);
  // 2002::/16 6to4: a relay tunnels to the embedded IPv4.
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return undefined;
}

/**
 * True for addresses a webhook may never reach unless allowPrivate (the ranges in FORBIDDEN,
 * documentation ranges included). IPv4-mapped/compatible IPv6 (::ffff:a.b.c.d), SIIT, NAT64
 * 64:ff9b::/96 and 6to4 are judged by the embedded IPv4. Input is an IP string, v4 or v6, possibly
 * with a zone id (fe80::1%eth0); anything that is not an IP address counts as forbidden.
 */
export function isForbiddenAddress(address: string): boolean {
  // A zone id only scopes the address; the address itself decides.
  const bare = address.replace(/%.*$/, '');
  switch (isIP(bare)) {
    case 4:
      return FORBIDDEN.check(bare, 'ipv4');
    case 6: {
      const groups = ipv6Groups(bare);
      const v4 = embeddedIpv4(groups);
      if (v4 !== undefined) return FORBIDDEN.check(v4, 'ipv4');
      return FORBIDDEN.check(groups.map((x) => x.toString(16)).join(':'), 'ipv6');
    }
    default:
      return true; // not an address: fail closed
  }
}

/** Races a resolution against the timeout; `undefined` means it timed out. */
async function resolveWithin(
  hostname: string,
  timeoutMs: number,
  resolve: ResolveAll,
): Promise<LookupAddress[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), timeoutMs);
  });
  try {
    // dns.lookup cannot be cancelled; a late answer (or failure) is simply ignored.
    return await Promise.race([resolve(hostname), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Validates a subscription URL: http or https (https only when requireHttps), no user:password
 * part, at most 2048 characters; then resolves the host (IP literals without DNS, names raced
 * against resolveTimeoutMs) and refuses it if ANY address is forbidden, unless allowPrivate.
 * Returns the normalised URL (`new URL(raw).toString()`).
 *
 * @throws AppError VALIDATION_FAILED (shape), WEBHOOK_URL_UNRESOLVABLE (no answer or timeout),
 *   WEBHOOK_URL_FORBIDDEN (forbidden address); all 400 with `errors: [{ field, message }]`.
 * @param resolve for the spec only: the resolver (default dns.promises.lookup, all + verbatim).
 */
export async function checkWebhookUrl(
  raw: string,
  policy: WebhookTargetPolicy,
  field = 'url',
  resolve: ResolveAll = dnsLookupAll,
): Promise<string> {
  const invalid = (message: string) => validationFailed([{ field, message }]);

  // Checked before parsing so a huge value costs nothing.
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) {
    throw invalid(`must be a URL of at most ${MAX_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`must be an http or https URL, not ${url.protocol}`);
  }
  if (policy.requireHttps && url.protocol !== 'https:') {
    throw invalid('must be an https URL (NODE_ENV=production)');
  }
  // Credentials in the URL would be stored and logged in clear; the receiver signs instead.
  if (url.username !== '' || url.password !== '') {
    throw invalid('must not contain a user name or password');
  }
  const normalised = url.toString();
  // Percent-encoding can lengthen the URL; the stored form must also fit.
  if (normalised.length > MAX_URL_LENGTH) {
    throw invalid(`must be a URL of at most ${MAX_URL_LENGTH} characters`);
  }

  // The WHATWG parser already turned 0x7f.1, 2130706433 ... into dotted IPv4; IPv6 is bracketed.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    const unresolvable = (why: string) =>
      WEBHOOK_URL_UNRESOLVABLE.errorWith(
        { errors: [{ field, message: `host ${host} ${why}` }] },
        host,
        why,
      );
    let found: LookupAddress[] | undefined;
    try {
      found = await resolveWithin(host, policy.resolveTimeoutMs, resolve);
    } catch {
      throw unresolvable('does not resolve');
    }
    if (found === undefined) {
      throw unresolvable(`did not resolve within ${policy.resolveTimeoutMs} ms`);
    }
    if (found.length === 0) throw unresolvable('does not resolve');
    addresses = found.map((a) => a.address);
  }

  if (!policy.allowPrivate) {
    // ANY: a connection may use any of them, and an attacker controls which.
    const forbidden = addresses.find(isForbiddenAddress);
    if (forbidden !== undefined) {
      throw WEBHOOK_URL_FORBIDDEN.errorWith(
        { errors: [{ field, message: forbiddenTargetMessage(host, forbidden) }] },
        host,
        forbidden,
      );
    }
  }
  return normalised;
}

function lookupError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * A `lookup` for http.request / https.request at delivery time: resolves like dns.lookup within
 * resolveTimeoutMs and fails with `code` WEBHOOK_TARGET_FORBIDDEN (naming the address) when any
 * address is forbidden and !allowPrivate, WEBHOOK_URL_UNRESOLVABLE on timeout; other DNS errors
 * (ENOTFOUND ...) pass through. Honours `options.all` (Node 20 asks for the array form when
 * autoSelectFamily is on) and `options.family`.
 *
 * Node never calls `lookup` for an IP-literal host, so sendWebhook calls it for those itself.
 */
export function guardedLookup(
  policy: WebhookTargetPolicy,
  resolve: ResolveAll = dnsLookupAll,
): LookupFunction {
  return (hostname, options, callback) => {
    const run = async (): Promise<LookupAddress[]> => {
      const bare = hostname.replace(/^\[(.*)\]$/, '$1');
      const family = isIP(bare);
      // Node does not call lookup for IP literals, but sendWebhook does: no DNS for those.
      const found =
        family !== 0
          ? [{ address: bare, family }]
          : await resolveWithin(bare, policy.resolveTimeoutMs, resolve);
      if (found === undefined) {
        throw lookupError(
          'WEBHOOK_URL_UNRESOLVABLE',
          `${hostname} did not resolve within ${policy.resolveTimeoutMs} ms`,
        );
      }
      if (!policy.allowPrivate) {
        // Every answer, not only the one of the requested family: all of them are the target.
        const forbidden = found.find((a) => isForbiddenAddress(a.address));
        if (forbidden !== undefined) {
          throw lookupError(
            'WEBHOOK_TARGET_FORBIDDEN',
            `${hostname} resolves to ${forbidden.address}, a loopback, private or reserved ` +
              'address; refused unless WEBHOOK_ALLOW_PRIVATE=true',
          );
        }
      }
      const wanted =
        options.family === 4 || options.family === 'IPv4'
          ? 4
          : options.family === 6 || options.family === 'IPv6'
            ? 6
            : 0;
      const usable = wanted === 0 ? found : found.filter((a) => a.family === wanted);
      if (usable.length === 0) {
        throw lookupError('WEBHOOK_URL_UNRESOLVABLE', `${hostname} has no IPv${wanted} address`);
      }
      return usable;
    };
    run().then(
      (addresses) => {
        if (options.all === true) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      // DNS failures (ENOTFOUND ...) pass through unchanged, as dns.lookup would report them.
      (err: NodeJS.ErrnoException) => callback(err, options.all === true ? [] : ''),
    );
  };
}
