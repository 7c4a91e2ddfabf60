import { Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { LifecycleState } from '@/platform/lifecycle/lifecycle-state';

export interface GracefulShutdownOptions {
  /** How long the listener keeps accepting after the signal while readiness already says 503. */
  drainMs: number;
  /** How long in-flight requests may take once the listener is closed; then they are cut. */
  timeoutMs: number;
  state: LifecycleState;
  exit?: (code: number) => void;
  logger?: Pick<Logger, 'log' | 'warn' | 'error'>;
}

/** Slack for closing Nest and stopping the database before the backstop exits anyway. */
const AFTER_HTTP_BACKSTOP_MS = 30_000;
const IDLE_SWEEP_MS = 25;
/** A connection accepted just before the listener closed gets this long to send its request. */
const FIRST_REQUEST_GRACE_MS = 1000;

interface ConnectionState {
  since: number;
  /** Requests in flight on it. */
  active: number;
  served: number;
}

/**
 * Shutdown in the order a Kubernetes-style balancer needs: readiness 503 at once, keep serving
 * for `drainMs` so balancers stop routing here, then stop accepting, let in-flight requests
 * finish (answered with `Connection: close`; idle keep-alive connections closed), cut what is
 * left after `timeoutMs`, then close the application (background work, pool) and only then the
 * embedded database. A second signal exits at once.
 *
 * The HTTP part is Node's own (close the listener, destroy idle sockets) with connection tracking
 * so that a connection accepted just before the listener closed still gets its answer.
 * http-terminator was not used: it keeps the listener open while it waits and resets every new
 * connection, where a closed listener refuses it cleanly (the client can go elsewhere); and like
 * Node's `server.close()` it drops such just-accepted connections.
 */
export class GracefulShutdown {
  private server?: Server;
  private readonly connections = new Map<Socket, ConnectionState>();
  private closeApp?: () => Promise<void>;
  private stopDatabase?: () => Promise<void>;
  private running?: Promise<void>;
  private readonly exit: (code: number) => void;
  private readonly logger: Pick<Logger, 'log' | 'warn' | 'error'>;

  constructor(private readonly options: GracefulShutdownOptions) {
    this.exit = options.exit ?? ((code) => process.exit(code));
    this.logger = options.logger ?? new Logger('Shutdown');
  }

  /** Listens for SIGTERM and SIGINT. */
  installSignalHandlers(): this {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => this.onSignal(signal));
    }
    return this;
  }

  /** The listening server; from the signal on, every response asks the client to reconnect. */
  attachServer(server: Server): void {
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { since: Date.now(), active: 0, served: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    // Prepended so it runs before Express answers: clients that keep connections alive move to
    // another instance during the drain instead of being cut when the listener closes.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const connection = this.connections.get(req.socket);
      if (connection) {
        connection.active += 1;
        res.once('close', () => {
          connection.active -= 1;
          connection.served += 1;
        });
      }
      if (this.options.state.shuttingDown && !res.headersSent) res.setHeader('Connection', 'close');
    });
  }

  /** Closes Nest: its shutdown hooks (background work), then the pool. */
  setApplication(close: () => Promise<void>): void {
    this.closeApp = close;
  }

  /** Stops a database this process started; runs last. */
  setDatabase(stop: () => Promise<void>): void {
    this.stopDatabase = stop;
  }

  get started(): boolean {
    return this.running !== undefined;
  }

  onSignal(signal: NodeJS.Signals): void {
    if (this.running) {
      this.logger.warn(`${signal} received again: exiting at once`);
      this.exit(128 + (constants.signals[signal] ?? 1));
      return;
    }
    void this.shutdown(`${signal} received`, 0);
  }

  /** Runs the whole sequence once and exits with `exitCode` (1 if a step failed). */
  shutdown(reason: string, exitCode: number): Promise<void> {
    this.running ??= this.run(reason, exitCode);
    return this.running;
  }

  private async run(reason: string, exitCode: number): Promise<void> {
    const { state, drainMs, timeoutMs } = this.options;
    const t0 = Date.now();
    state.beginShutdown(`shutting down (${reason})`);
    const backstop = setTimeout(
      () => {
        this.logger.error('shutdown did not finish in time; exiting');
        this.exit(1);
      },
      drainMs + timeoutMs + AFTER_HTTP_BACKSTOP_MS,
    );
    backstop.unref();
    let code = exitCode;
    if (this.server?.listening) {
      this.logger.log(
        `${reason}: readiness answers 503; accepting for ${drainMs} ms more, then draining (up to ${timeoutMs} ms)`,
      );
      // Unref: the listening server keeps the process alive, not this wait.
      if (drainMs > 0) await sleep(drainMs, undefined, { ref: false });
      await this.closeHttp(this.server, timeoutMs);
      this.logger.log(`HTTP drained ${Date.now() - t0} ms after the signal`);
    } else {
      this.logger.log(`${reason}: shutting down`);
    }
    for (const [what, step] of [
      ['application', this.closeApp],
      ['database', this.stopDatabase],
    ] as const) {
      if (!step) continue;
      try {
        await step();
      } catch (error) {
        code = code || 1;
        this.logger.error(`closing the ${what} failed: ${describe(error)}`);
      }
    }
    clearTimeout(backstop);
    this.logger.log(`shut down in ${Date.now() - t0} ms; exit code ${code}`);
    this.exit(code);
  }

  private async closeHttp(server: Server, timeoutMs: number): Promise<void> {
    // net.Server's close only stops accepting. http.Server's own close() would also drop every
    // connection without a request in flight at once, including ones accepted a moment ago
    // whose first request is still on its way: their clients would see a reset.
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(server, () => resolve()),
    );
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, c] of this.connections) {
        const idleKeptAlive = c.active === 0 && c.served > 0;
        const neverUsed =
          c.active === 0 && c.served === 0 && now - c.since > FIRST_REQUEST_GRACE_MS;
        if (idleKeptAlive || neverUsed) socket.destroy();
      }
    }, IDLE_SWEEP_MS);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    clearInterval(sweep);
    if (timedOut) {
      this.logger.warn(
        `${this.connections.size} connection(s) still busy after ${timeoutMs} ms; closing them`,
      );
      for (const socket of this.connections.keys()) socket.destroy();
      await closed;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
