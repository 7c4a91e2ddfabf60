import { once } from 'node:events';
import { AddressInfo, connect, Socket } from 'node:net';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Real sockets against a server started with short deadlines: a client that trickles its headers
 * or its body, or idles on a kept-alive connection, is disconnected by the server. Only the
 * outcome is asserted (408 or a closed socket), never how long it took.
 */
describe('HTTP server timeouts', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '600',
      HTTP_REQUEST_TIMEOUT_MS: '1200',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** Opens a socket, sends `first`, then one more chunk every 200 ms until the server closes it. */
  async function trickle(first: string, next: () => string): Promise<string> {
    const socket: Socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write(first);
    const timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(next());
    }, 200);
    try {
      await once(socket, 'close');
    } finally {
      clearInterval(timer);
    }
    return received;
  }

  it('closes a connection whose headers trickle in (slowloris) with 408 or a closed socket', async () => {
    let n = 0;
    const received = await trickle(
      'GET /health/live HTTP/1.1\r\nHost: localhost\r\n',
      () => `X-Pad-${n++}: a\r\n`,
    );
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('closes a connection whose body stalls (1 byte at a time)', async () => {
    const received = await trickle(
      'POST /receipts/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n[',
      () => ' ',
    );
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('closes an idle kept-alive connection after answering', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await once(socket, 'close');
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toMatch(/keep-alive/i);
  });
});
