import { parseTrustedProxies, trustProxySetting } from '@/platform/server/trusted-proxies';

describe(parseTrustedProxies.name, () => {
  it('accepts addresses, CIDR ranges and the proxy-addr names', () => {
    const { proxies, invalid } = parseTrustedProxies(
      ' 10.0.0.1, 10.0.0.0/8 ,fd00::/8,::1,loopback,',
    );
    expect(proxies).toEqual(['10.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1', 'loopback']);
    expect(invalid).toEqual([]);
  });

  it.each(['10.0.0.0/33', '::/129', 'proxy.internal', '10.0.0.1/8/8', '1.2.3', '10.0.0.0/x'])(
    'refuses %s',
    (entry) => {
      expect(parseTrustedProxies(entry).invalid).toEqual([entry]);
    },
  );

  it('trusts no proxy when the list is empty', () => {
    expect(trustProxySetting(parseTrustedProxies('').proxies)).toBe(false);
    expect(trustProxySetting(['10.0.0.1'])).toEqual(['10.0.0.1']);
  });
});
