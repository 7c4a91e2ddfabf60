import { Pool, PoolConfig } from 'pg';

/**
 * A node-postgres pool beside TypeORM's (exports, webhook delivery) that a broken connection
 * cannot take the process down with: neither an idle one (the pool's 'error') nor one held
 * between queries, by an export while its client drains or by a webhook worker while it waits
 * for a receiver (the connection's own 'error'; the holder's next query fails instead).
 */
export function sidePool(config: PoolConfig): Pool {
  const pool = new Pool(config);
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
