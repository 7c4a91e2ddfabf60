import { TransactionalAdapter } from '@nestjs-cls/transactional';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

export interface RoutedTransactionOptions {
  isolationLevel?: IsolationLevel;
  /** Where the transaction runs instead of the primary: a read replica's data source. */
  dataSource?: DataSource;
}

type Work = (...args: unknown[]) => Promise<unknown>;
type SetClient = (client?: EntityManager) => void;

/**
 * nestjs-cls' TypeORM adapter (the same three functions as TransactionalAdapterTypeOrm), plus
 * one option: `withTransaction({ dataSource }, fn)` runs the transaction on another data source,
 * a read replica. Every service keeps using `txHost.tx` unchanged, so a read needs no
 * replica-aware code to be served by one.
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
      transaction(options.dataSource ?? primary, options.isolationLevel, fn, setClient),
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
