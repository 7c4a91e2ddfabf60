import { createServer, get, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { GracefulShutdown } from '@/platform/lifecycle/graceful-shutdown';
import { LifecycleState } from '@/platform/lifecycle/lifecycle-state';

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

function fetchRaw(port: number, path: string): Promise<IncomingMessage & { text: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(Object.assign(res, { text })));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe(GracefulShutdown.name, () => {
  let server: Server;
  let port: number;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') {
        release = () => res.end('slow done');
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  it('turns readiness 503, finishes in-flight requests with Connection: close, then closes the app and the database in order', async () => {
    const state = new LifecycleState();
    const steps: string[] = [];
    let exited: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    const shutdown = new GracefulShutdown({
      drainMs: 0,
      timeoutMs: 30_000,
      state,
      logger: quiet,
      exit: (code) => exited(code),
    });
    shutdown.attachServer(server);
    shutdown.setApplication(() => {
      steps.push(server.listening ? 'app closed while listening' : 'app closed');
      return Promise.resolve();
    });
    shutdown.setDatabase(() => {
      steps.push('database stopped');
      return Promise.resolve();
    });

    const slow = fetchRaw(port, '/slow');
    await new Promise((r) => setTimeout(r, 50)); // the request is in flight
    const done = shutdown.shutdown('SIGTERM received', 0);
    expect(state.readinessProblem).toMatch(/shutting down/);
    expect(state.livenessProblem).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(steps).toEqual([]); // waits for the in-flight request
    release();
    const answer = await slow;
    expect(answer.text).toBe('slow done');
    expect(answer.headers.connection).toBe('close');
    await done;
    expect(steps).toEqual(['app closed', 'database stopped']);
    expect(await exitCode).toBe(0);
  });

  it('cuts requests still running after the timeout, and a failing step makes the exit code 1', async () => {
    const exit = jest.fn();
    const shutdown = new GracefulShutdown({
      drainMs: 0,
      timeoutMs: 100,
      state: new LifecycleState(),
      logger: quiet,
      exit,
    });
    shutdown.attachServer(server);
    shutdown.setApplication(() => Promise.reject(new Error('pool would not close')));
    const slow = fetchRaw(port, '/slow').then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 50));
    await shutdown.shutdown('SIGTERM received', 0);
    expect(await slow).toBe('cut');
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits at once on a second signal, with 128 + the signal number', () => {
    const exit = jest.fn();
    const shutdown = new GracefulShutdown({
      drainMs: 600_000,
      timeoutMs: 1000,
      state: new LifecycleState(),
      logger: quiet,
      exit,
    });
    shutdown.attachServer(server);
    shutdown.onSignal('SIGTERM');
    expect(exit).not.toHaveBeenCalled();
    shutdown.onSignal('SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
  });
});
