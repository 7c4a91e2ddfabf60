import { ConfigError, loadConfig } from '@/platform/config/app-config';

/** DEMO_RECEIPTS_PER_TENANT: the demo size, exactly, or the start stops naming the variable. */
describe('DEMO_RECEIPTS_PER_TENANT', () => {
  const load = (value?: string) =>
    loadConfig(value === undefined ? {} : { DEMO_RECEIPTS_PER_TENANT: value });

  it('defaults to 3000 and takes any whole number from 1 to 1,000,000', () => {
    expect(load().demoReceiptsPerTenant).toBe(3000);
    for (const n of [1, 7, 200_000, 1_000_000]) {
      expect(load(String(n)).demoReceiptsPerTenant).toBe(n);
    }
  });

  it.each(['0', '-5', '1.5', 'lots', '1000001', '50000000'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => load(value)).toThrow(ConfigError);
      expect(() => load(value)).toThrow(/DEMO_RECEIPTS_PER_TENANT=/);
    },
  );
});
