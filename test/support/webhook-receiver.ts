import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the receiver does with one request: answer with a status, reset, or never answer. */
export type ReceiverAction = number | 'reset' | 'hang';

export interface ReceivedWebhook {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; sequence: number; type: string } & Record<string, unknown>;
  at: number;
}

/**
 * A real HTTP receiver on loopback for webhook tests. Each path has a script of actions for its
 * next requests (then 200); every request that reaches it is recorded, whatever it answered.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, ReceiverAction[]>();
  private readonly defaults = new Map<string, ReceiverAction>();
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  url(path: string): string {
    const { port } = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${port}${path}`;
  }

  /** The next requests to `path` get these actions, in order. */
  script(path: string, ...actions: ReceiverAction[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...actions]);
  }

  /** Every request to `path` gets `action` once its script is used up (default 200). */
  always(path: string, action: ReceiverAction): void {
    this.defaults.set(path, action);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `path` has received `count` requests (or fails after `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) {
        throw new Error(`${path}: ${this.at(path).length} of ${count} webhooks in ${timeoutMs} ms`);
      }
      await sleep(25);
    }
    return this.at(path);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.socket?.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    this.received.push({
      path,
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
      body,
      event: JSON.parse(body) as ReceivedWebhook['event'],
      at: Date.now(),
    });
    const script = this.scripts.get(path) ?? [];
    const action = script.shift() ?? this.defaults.get(path) ?? 200;
    if (action === 'reset') {
      req.socket.destroy();
    } else if (action === 'hang') {
      this.hanging.add(res);
    } else {
      res.writeHead(action).end();
    }
  }
}
