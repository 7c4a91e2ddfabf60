/**
 * What the process as a whole is doing, for the health endpoints: shutting down (readiness 503),
 * restarting its embedded database (readiness 503), or unable to recover (liveness 503 too).
 * Signals and child processes are process-wide, so there is one instance per process.
 */
export class LifecycleState {
  private shutdownReason?: string;
  private databaseProblem?: string;
  private fatalReason?: string;

  get shuttingDown(): boolean {
    return this.shutdownReason !== undefined;
  }

  beginShutdown(reason: string): void {
    this.shutdownReason ??= reason;
  }

  /** The embedded database is down and being restarted (`undefined` once it is back). */
  setDatabaseProblem(problem: string | undefined): void {
    this.databaseProblem = problem;
  }

  /** The service cannot recover by itself; a supervisor has to restart it. */
  markUnrecoverable(reason: string): void {
    this.fatalReason ??= reason;
  }

  /** Why the service must not receive new traffic, if it must not. */
  get readinessProblem(): string | undefined {
    return this.fatalReason ?? this.shutdownReason ?? this.databaseProblem;
  }

  /** Why the process should be restarted, if it should. */
  get livenessProblem(): string | undefined {
    return this.fatalReason;
  }
}

export const lifecycleState = new LifecycleState();
