import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, Table } from 'typeorm';
import { dataSourceOptions } from '@/database/data-source-options';
import { runMigrations } from '@/database/migrate';
import { ENTITIES } from '@/entities';
import { withDatabase } from './support/database-url';

/**
 * The entities of src/entities.ts say what the hand-written migrations (migrations/*.ts, the
 * source of truth) make: a fresh database is migrated and TypeORM's schema builder, given the
 * entities, must find nothing to change. An entity that disagrees changes; a migration never does
 * for this test, and synchronize stays off everywhere.
 *
 * TypeORM compares columns (type, length, precision, scale, nullability, default, generated
 * expression), primary keys, indexes (by name: uniqueness, method, set of columns), checks,
 * unique constraints and foreign keys (by name and referenced table). The tests after the first
 * compare what it leaves out: which columns foreign keys and unique constraints pair, and the
 * order of index keys.
 */

/**
 * Indexes TypeORM cannot describe, declared on their entity as `@Index(name, { synchronize: false })`
 * (named, never compared), each with the reason. Nothing else may opt out.
 */
const UNDESCRIBED_INDEXES: Record<string, string> = {
  bookings_text_trgm_idx: 'GIN with gin_trgm_ops operator classes',
  demands_text_trgm_idx: 'GIN with gin_trgm_ops operator classes',
  receipts_text_trgm_idx: 'GIN with gin_trgm_ops operator classes',
  receipts_default_sort_idx: 'descending keys and INCLUDE columns',
  receipts_mode_date_idx: 'INCLUDE columns',
  receipts_left_active_idx: 'INCLUDE columns and a partial-index predicate',
  receipts_number_lower_idx: 'an expression key, lower(receipt_number)',
  receipts_bank_ref_idx: 'an expression key, bank_reference_key(transaction_ref), and a predicate',
  receipts_active_amount_idx: 'an expression key, amount_paise(amount), and a predicate',
  bank_lines_open_idx: 'a partial-index predicate',
};

/** Tables of the design: each has an entity in src/entities.ts. */
const ENTITY_TABLES = [
  'bank_accounts',
  'bank_line_history',
  'bank_line_matches',
  'bank_lines',
  'bank_statements',
  'bookings',
  'books_settings',
  'cancellation_policies',
  'cancellation_policy_history',
  'cancellations',
  'collection_holds',
  'credit_notes',
  'demand_splits',
  'demands',
  'gst_settings',
  'gst_settings_history',
  'idempotency_keys',
  'interest_policies',
  'interest_policy_history',
  'interest_waivers',
  'issued_numbers',
  'number_counters',
  'receipts',
  'reminder_policies',
  'reminders',
  'tax_invoices',
  'tenant_configuration_history',
  'tenant_configurations',
  'tenants',
];

/** Tables of schema public without an entity, and why (read and written with SQL only). */
const WITHOUT_ENTITY: Record<string, string> = {
  migrations: "TypeORM's record of the migrations run",
  receipt_search_versions: 'the count caches of receipt search (search/exact-counts.ts)',
  event_sequences: "the outbox's per-tenant sequence",
  events: 'the outbox and its feed',
  webhook_subscriptions: 'webhooks',
  webhook_deliveries: 'webhooks',
  rate_limit_budgets: 'the shared rate-limit budgets (http/throttling/rate-limit.sql.ts)',
  seed_deferred_indexes:
    "the demo seed's indexes and foreign keys built after its rows (seed/demo-seed.sql.ts)",
  typeorm_metadata: 'made by this test (describeGeneratedColumns)',
};

/**
 * TypeORM reads a generated column's expression from its own `typeorm_metadata` table, which only
 * its synchronize and generated migrations fill: hand-written migrations leave it absent, and
 * loading a table with a generated column then fails. The test creates it (in its own database
 * only) and copies in each generated column's expression as PostgreSQL's catalogue renders it, so
 * an entity's `asExpression` is compared with what the migrations really made.
 */
async function describeGeneratedColumns(client: Client): Promise<void> {
  await client.query(`
    CREATE TABLE typeorm_metadata (
      type varchar NOT NULL, database varchar, schema varchar, "table" varchar,
      name varchar, value text
    )`);
  await client.query(`
    INSERT INTO typeorm_metadata (type, database, schema, "table", name, value)
    SELECT 'GENERATED_COLUMN', current_database(), table_schema, table_name, column_name,
           generation_expression
      FROM information_schema.columns
     WHERE is_generated = 'ALWAYS' AND table_schema = 'public'`);
}

interface ForeignKeyShape {
  name?: string;
  columnNames: string[];
  referencedTable: string;
  referencedColumnNames: string[];
}

const pairs = (columns: string[], referenced: string[]) =>
  columns.map((c, i) => `${c}->${referenced[i]}`).sort();
const unqualified = (table: string) => table.replace(/^.*\./, '');

describe('entities against the migrated schema', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const database = `finance_entities_${randomBytes(4).toString('hex')}`;
  let admin: Client;
  let client: Client;
  let ds: DataSource;
  let tables: Table[];

  beforeAll(async () => {
    if (!serverUrl) throw new Error('TEST_DATABASE_URL not set (global setup)');
    admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = withDatabase(serverUrl, database);
    await runMigrations(url);
    client = new Client({ connectionString: url });
    await client.connect();
    await describeGeneratedColumns(client);
    ds = await new DataSource(dataSourceOptions(url, 2, 3000, ENTITIES)).initialize();
    const runner = ds.createQueryRunner();
    try {
      tables = await runner.getTables(ds.entityMetadatas.map((m) => m.tablePath));
    } finally {
      await runner.release();
    }
  });

  afterAll(async () => {
    await ds?.destroy();
    await client?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin?.end();
  });

  const tableOf = (name: string) => {
    const table = tables.find((t) => unqualified(t.name) === name);
    if (!table) throw new Error(`table ${name} not loaded`);
    return table;
  };

  it('leaves TypeORM nothing to change', async () => {
    const sql = await ds.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('has an entity for every table of the design, and none opts out', async () => {
    expect(ds.entityMetadatas.map((m) => m.tableName).sort()).toEqual(ENTITY_TABLES);
    expect(ds.entityMetadatas.filter((m) => !m.synchronize).map((m) => m.tableName)).toEqual([]);
    const { rows } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual(
      [...ENTITY_TABLES, ...Object.keys(WITHOUT_ENTITY)].sort(),
    );
  });

  it('leaves out of the comparison only the listed indexes, each of which exists', () => {
    const skipped = ds.entityMetadatas.flatMap((m) =>
      m.indices.filter((i) => !i.synchronize).map((i) => i.name),
    );
    expect(skipped.sort()).toEqual(Object.keys(UNDESCRIBED_INDEXES).sort());
    const existing = tables.flatMap((t) => t.indices.map((i) => i.name));
    expect(skipped.filter((name) => !existing.includes(name))).toEqual([]);
  });

  // Below, what an entity says is the received value and what the migrations made the expected.
  it('pairs the same columns in foreign keys and unique constraints', () => {
    const foreignKeys = (list: ForeignKeyShape[]) =>
      list
        .map((fk) => {
          const columns = pairs(fk.columnNames, fk.referencedColumnNames).join(', ');
          return `${fk.name} -> ${unqualified(fk.referencedTable)} (${columns})`;
        })
        .sort();
    const uniques = (list: { name?: string; columnNames: string[] }[]) =>
      list.map((u) => `${u.name} (${[...u.columnNames].sort().join(', ')})`).sort();
    for (const metadata of ds.entityMetadatas) {
      const table = tableOf(metadata.tableName);
      expect(
        foreignKeys(
          metadata.foreignKeys.map((fk) => ({ ...fk, referencedTable: fk.referencedTablePath })),
        ),
      ).toEqual(
        foreignKeys(
          table.foreignKeys.map((fk) => ({ ...fk, referencedTable: fk.referencedTableName })),
        ),
      );
      expect(
        uniques(
          metadata.uniques.map((u) => ({
            name: u.name,
            columnNames: u.columns.map((c) => c.databaseName),
          })),
        ),
      ).toEqual(uniques(table.uniques));
    }
  });

  it('lists index keys in the order of the migrations', async () => {
    const { rows } = await client.query<{ name: string; keys: string[] }>(`
      SELECT i.relname AS name,
             array(SELECT pg_get_indexdef(x.indexrelid, k, true)
                     FROM generate_series(1, x.indnkeyatts) k ORDER BY k) AS keys
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        JOIN pg_namespace n ON n.oid = i.relnamespace
       WHERE n.nspname = 'public'`);
    const keysOf = new Map(rows.map((r) => [r.name, r.keys]));
    const described = ds.entityMetadatas.flatMap((m) => m.indices.filter((i) => i.synchronize));
    expect(
      described.map((i) => `${i.name} (${i.columns.map((c) => c.databaseName).join(', ')})`),
    ).toEqual(described.map((i) => `${i.name} (${keysOf.get(i.name)?.join(', ')})`));
  });
});
