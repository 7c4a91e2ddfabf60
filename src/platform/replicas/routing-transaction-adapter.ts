import { TransactionalAdapter } from '@nestjs-cls/transactional';
import type { PoolClient } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { positionOfCommit } from '@/platform/replicas/consistency-token';
import { COMMIT_RETURNING_POSITION_SQL } from '@/platform/replicas/replicas.sql';

export interface RoutedTransactionOptions {
  isolationLevel?: IsolationLevel;
  /** Where the transaction runs instead of the primary: a read replica's data source. */
  dataSource?: DataSource;
  /**
   * A write that answers with X-Consistency-Token: its COMMIT also returns the primary's WAL
   * position after it (COMMIT_RETURNING_POSITION_SQL), handed to this callback once committed.
   */
  onCommitted?: (position: bigint) => void;
}

type Work = (...args: unknown[]) => Promise<unknown>;
type SetClient = (client?: EntityManager) => void;

/**
 * nestjs-cls' TypeORM adapter (the same three functions as TransactionalAdapterTypeOrm), plus
 * two options: `withTransaction({ dataSource }, fn)` runs the transaction on another data
 * source, a read replica, and `onCommitted` receives a write's commit position. Every service
 * keeps using `txHost.tx` unchanged, so a read needs no replica-aware code to be served by one.
 */
export class RoutingTransactionAdapter implements TransactionalAdapter<
  DataSource,
  EntityManager,
  RoutedTransactionOptions
> {
  constructor(private readonly options: { dataSourceToken: unknown }) {}

  get connectionToken(): unknown {
    return this.options.dataSourceToken;
  }

  optionsFactory = (primary: DataSource) => ({
    wrapWithTransaction: (options: RoutedTransactionOptions, fn: Work, setClient: SetClient) =>
      options.onCommitted
        ? transactionReturningPosition(primary, options, fn, setClient)
        : transaction(options.dataSource ?? primary, options.isolationLevel, fn, setClient),
    wrapWithNestedTransaction: (
      options: RoutedTransactionOptions,
      fn: Work,
      setClient: SetClient,
      client: EntityManager,
    ) => transaction(client, options.isolationLevel, fn, setClient),
    getFallbackInstance: () => primary.manager,
  });
}

function transaction(
  on: DataSource | EntityManager,
  isolationLevel: IsolationLevel | undefined,
  fn: Work,
  setClient: SetClient,
): Promise<unknown> {
  const run = (trx: EntityManager) => {
    setClient(trx);
    return fn();
  };
  return isolationLevel ? on.transaction(isolationLevel, run) : on.transaction(run);
}

/**
 * EntityManager.transaction (start, run, commit or roll back, release), except that the commit
 * is COMMIT_RETURNING_POSITION_SQL on the runner's own connection. TypeORM's bookkeeping is
 * kept: the runner is in a transaction while `fn` runs (so TypeORM never opens one of its own
 * inside), and not after the commit (so release() does not roll back).
 */
async function transactionReturningPosition(
  primary: DataSource,
  options: RoutedTransactionOptions,
  fn: Work,
  setClient: SetClient,
): Promise<unknown> {
  const runner = (options.dataSource ?? primary).createQueryRunner();
  try {
    await runner.startTransaction(options.isolationLevel);
    setClient(runner.manager);
    const result = await fn();
    const connection = (await runner.connect()) as PoolClient;
    const position = positionOfCommit(await connection.query(COMMIT_RETURNING_POSITION_SQL));
    endTransaction(runner);
    options.onCommitted?.(position);
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/** What QueryRunner.commitTransaction() records after its COMMIT at the outermost level. */
function endTransaction(runner: QueryRunner): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = false;
  state.transactionDepth = 0;
}
