import { prettyLogTransport } from '@/platform/logging/log-format';

describe(prettyLogTransport.name, () => {
  it('is pretty on a terminal and JSON (no transport) otherwise, unless forced', () => {
    expect(prettyLogTransport('auto', true)?.target).toBe('pino-pretty');
    expect(prettyLogTransport('auto', false)).toBeUndefined();
    expect(prettyLogTransport('json', true)).toBeUndefined();
    expect(prettyLogTransport('pretty', false)?.target).toBe('pino-pretty');
  });

  it('names a transport that is installed', () => {
    expect(() => require.resolve(prettyLogTransport('pretty', false)!.target)).not.toThrow();
  });
});
