import { isIP } from 'node:net';

/** Names Express (proxy-addr) understands for well-known ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Parses TRUSTED_PROXIES: comma-separated IP addresses, CIDR ranges or the names `loopback`,
 * `linklocal`, `uniquelocal`. Returns the entries, or the invalid ones as an error message.
 */
export function parseTrustedProxies(value: string): { proxies: string[]; invalid: string[] } {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isValidEntry(entry));
  return { proxies: entries, invalid };
}

function isValidEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Express's `trust proxy` value: with no trusted proxy, X-Forwarded-For is ignored and req.ip is
 * the socket's peer; otherwise it is honoured only for hops that are in the list.
 */
export function trustProxySetting(proxies: string[]): string[] | false {
  return proxies.length > 0 ? proxies : false;
}
