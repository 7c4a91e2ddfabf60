/**
 * Work that grows with tenants (issue 30.5): what one call of each cross-tenant function costs
 * with many tenants of which only a few use the feature. The webhook dispatcher's poll
 * (`webhook_due_subscriptions()`, every WEBHOOK_POLL_MS on every instance) and each housekeeping
 * purge call (idempotency keys, events, webhook deliveries: every HOUSEKEEPING_CRON slot), run
 * as the application login as the service runs them.
 *
 * Data: `--tenants` active tenants, each with an event counter and a few recent (unexpired)
 * events and idempotency keys; `--subscribed` of them have one enabled webhook subscription with
 * undelivered events (due) and one delivery attempt each. The poll must find exactly those.
 * Run: npm run bench:tenant-walk [-- --tenants 500 --subscribed 5 --calls 200]
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { runBench, startBenchDatabase } from './bench-support';

const HELP = `npm run bench:tenant-walk [-- options]

  --tenants N      active tenants                               (default 500)
  --subscribed S   of them with a due webhook subscription      (default 5)
  --calls C        timed calls of each function                 (default 200)
  --help           this text
`;

const STATEMENTS: Array<[string, string]> = [
  ['webhook_due_subscriptions() (dispatcher poll)', 'SELECT * FROM webhook_due_subscriptions()'],
  [
    'purge_expired_idempotency_keys (one batch)',
    `SELECT purge_expired_idempotency_keys('24 hours', 1000)`,
  ],
  ['purge_expired_events (one batch)', `SELECT purge_expired_events('90 days', 1000)`],
  [
    'purge_expired_webhook_deliveries (one batch)',
    `SELECT purge_expired_webhook_deliveries('90 days', 1000)`,
  ],
];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenants: { type: 'string', default: '500' },
      subscribed: { type: 'string', default: '5' },
      calls: { type: 'string', default: '200' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const tenants = Number(values.tenants);
  const subscribed = Number(values.subscribed);
  const calls = Number(values.calls);
  const db = await startBenchDatabase();
  const owner = new Client({ connectionString: db.ownerUrl });
  const app = new Client({ connectionString: db.appUrl });
  await owner.connect();
  await app.connect();
  try {
    await owner.query(
      `INSERT INTO tenants (key, name) SELECT 'walk-' || g, 'Walk ' || g
         FROM generate_series(1, $1::int) g`,
      [tenants],
    );
    await owner.query(`INSERT INTO event_sequences (tenant_id, last_sequence)
      SELECT id, 3 FROM tenants`);
    await owner.query(`INSERT INTO events (tenant_id, sequence, type, actor, data)
      SELECT t.id, k, 'booking.created', 'bench', '{}'::json
        FROM tenants t CROSS JOIN generate_series(1, 3) k`);
    await owner.query(`INSERT INTO idempotency_keys
        (tenant_id, key, request_hash, response_status, response_body)
      SELECT t.id, 'k' || k, 'h', 201, '{}'
        FROM tenants t CROSS JOIN generate_series(1, 3) k`);
    const { rows: chosen } = await owner.query<{ id: string }>(
      `WITH s AS (
         INSERT INTO webhook_subscriptions
           (tenant_id, url, event_types, secret, delivered_sequence, created_by) -- a sealed-shaped secret (69 bytes, version 1), never opened here
         SELECT id, 'https://example.test/hook', '{*}', '\\x01'::bytea || decode(repeat('00', 68), 'hex'), 0, 'bench'
           FROM tenants ORDER BY key LIMIT $1 RETURNING tenant_id, id)
       INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_sequence,
                                       event_type, attempt, outcome, duration_ms, attempted_at)
       SELECT tenant_id, id, gen_random_uuid(), 1, 'booking.created', 1, 'RETRYING', 5, now()
         FROM s RETURNING tenant_id AS id`,
      [subscribed],
    );
    await owner.query('VACUUM ANALYZE');
    const expected = new Set(chosen.map((r) => r.id));

    const lines = [
      `| function (as the application login) | rows | p50 ms | p95 ms |`,
      '|---|---|---|---|',
    ];
    for (const [name, sql] of STATEMENTS) {
      const times: number[] = [];
      let rows: Record<string, unknown>[] = [];
      for (let i = 0; i < calls + 5; i++) {
        const start = process.hrtime.bigint();
        rows = (await app.query<Record<string, unknown>>(sql)).rows;
        if (i >= 5) times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      if (sql.includes('webhook_due_subscriptions')) {
        const found = new Set(rows.map((r) => String(r.tenant_id)));
        if (found.size !== expected.size || [...expected].some((id) => !found.has(id))) {
          throw new Error(`the poll found ${found.size} tenants, expected ${expected.size}`);
        }
      }
      const shown = sql.includes('purge') ? String(Object.values(rows[0])[0]) : `${rows.length}`;
      lines.push(
        `| ${name} | ${shown} | ${quantile(times, 0.5).toFixed(2)} | ${quantile(times, 0.95).toFixed(2)} |`,
      );
    }
    process.stdout.write(
      `\n${tenants} active tenants, ${subscribed} with a due webhook subscription; ${calls} calls each (node ${process.version})\n\n${lines.join('\n')}\n`,
    );
  } finally {
    await app.end();
    await owner.end();
    await db.stop();
  }
}

runBench(main);
