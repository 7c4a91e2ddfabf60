import { DataSource } from 'typeorm';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';

/**
 * What Citus needs of the schema, checked on the catalogue of the migrated database
 * (docs/scaling.md; issue 12, "The Citus path, checked"). Citus itself is not installed here:
 * these are the conditions under which `create_distributed_table(<table>, 'tenant_id')` accepts
 * every tenant-owned table and keeps a tenant's rows, and its joins, on one node.
 *
 * Adding a table makes the first test fail until it is put in one of the lists below: that is
 * the decision "distributed by tenant_id, reference table, or stays on the coordinator".
 */

/** Distributed by tenant_id, in the order docs/scaling.md distributes them (referenced first). */
const DISTRIBUTION_ORDER = [
  'bookings',
  'demands',
  'demand_splits',
  'receipts',
  'tenant_configurations',
  'tenant_configuration_history',
  'number_counters',
  'issued_numbers',
  'idempotency_keys',
  'receipt_search_versions',
  'event_sequences',
  'events',
  'webhook_subscriptions',
  'webhook_deliveries',
  'interest_policies',
  'interest_policy_history',
  'interest_waivers',
  'bank_accounts',
  'bank_statements',
  'bank_lines',
  'bank_line_matches',
  'bank_line_history',
  'reminder_policies',
  'collection_holds',
  'reminders',
  'gst_settings',
  'gst_settings_history',
  'tax_invoices',
  'credit_notes',
  'cancellation_policies',
  'cancellation_policy_history',
  'cancellations',
  'books_settings',
];
const TENANT_OWNED = [...DISTRIBUTION_ORDER].sort();

/** Replicated to every node (`create_reference_table`). */
const REFERENCE = ['tenants'];

/**
 * Tables of schema public without tenant_id: the reference tables, TypeORM's own, and the rate
 * limit's budgets (keyed by client, an anonymous one has no tenant), and the first start's seed
 * bookkeeping (seed_deferred_indexes).
 */
const WITHOUT_TENANT_ID = ['migrations', 'rate_limit_budgets', 'seed_deferred_indexes', 'tenants'];

/** Left out of the checks: not distributed, they stay on the coordinator as local tables. */
const EXCLUDED = [
  'migrations',
  'pgboss.archive',
  'pgboss.job',
  "pgboss.job partition of queue '__pgboss__send-it'",
  "pgboss.job partition of queue 'idempotency-keys.purge'",
  "pgboss.job partition of queue 'webhooks.deliver'",
  'pgboss.queue',
  'pgboss.schedule',
  'pgboss.subscription',
  'pgboss.version',
  // Unlogged, one row per client: a coordinator-local table, as the upsert runs there.
  'rate_limit_budgets',
  // The first start's seed keeps the index definitions it dropped here until it rebuilds them,
  // in one transaction (empty otherwise): local to the coordinator, where the seed runs.
  'seed_deferred_indexes',
];

/** Identity and serial columns on distributed and reference tables (docs/scaling.md). */
const IDENTITY_AND_SERIAL = ['webhook_deliveries.id: bigint GENERATED ALWAYS AS IDENTITY'];

/** Unique indexes that are partial or on expressions, on tenant-owned tables (reported). */
const PARTIAL_OR_EXPRESSION_UNIQUE: string[] = [
  // One collection account per tenant and currency: tenant_id leads, so each shard enforces it.
  'CREATE UNIQUE INDEX bank_accounts_collection_key ON public.bank_accounts USING btree (tenant_id, currency) WHERE collection',
];

interface TableRow {
  schema: string;
  name: string;
  kind: string;
  tenant_owned: boolean;
  queue: string | null;
}

interface ConstraintRow {
  table: string;
  name: string;
  type: string;
  columns: string[];
  ref_table: string | null;
  ref_columns: string[] | null;
}

interface IndexRow {
  table: string;
  name: string;
  key_columns: string[];
  partial: boolean;
  expression: boolean;
  definition: string;
}

/** A relation's name as the lists above spell it: bare in public, schema-qualified elsewhere. */
const QUALIFIED = (alias: string) =>
  `CASE WHEN ${alias}n.nspname = 'public' THEN ${alias}.relname::text
        ELSE ${alias}n.nspname || '.' || ${alias}.relname END`;

describe('Citus readiness (the catalogue, checked for distribution by tenant_id)', () => {
  let t: TestApp;
  let owner: DataSource;
  let tables: TableRow[];
  /** Tenant-owned as the catalogue says (a tenant_id column), not as the lists above say. */
  let tenantOwned: Set<string>;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
    tables = await owner.query<TableRow[]>(
      `SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
              EXISTS (SELECT 1 FROM pg_attribute a
                       WHERE a.attrelid = c.oid AND a.attname = 'tenant_id'
                         AND a.attnum > 0 AND NOT a.attisdropped) AS tenant_owned,
              (SELECT q.name FROM pgboss.queue q
                WHERE n.nspname = 'pgboss' AND q.partition_name = c.relname) AS queue
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('public', 'pgboss') AND c.relkind IN ('r', 'p')`,
    );
    tenantOwned = new Set(
      tables.filter((r) => r.schema === 'public' && r.tenant_owned).map((r) => r.name),
    );
  });
  afterAll(async () => {
    await owner.destroy();
    await t.close();
  });

  /** Every constraint of the given types on tables of public and pgboss, columns by name. */
  const constraints = (types: string[]) =>
    owner.query<ConstraintRow[]>(
      `SELECT ${QUALIFIED('s')} AS table, con.conname AS name, con.contype::text AS type,
              ARRAY(SELECT a.attname::text
                      FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                     ORDER BY k.ord) AS columns,
              CASE WHEN con.confrelid <> 0 THEN ${QUALIFIED('r')} END AS ref_table,
              CASE WHEN con.confrelid <> 0 THEN
                ARRAY(SELECT a.attname::text
                        FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                       ORDER BY k.ord) END AS ref_columns
         FROM pg_constraint con
         JOIN pg_class s ON s.oid = con.conrelid
         JOIN pg_namespace sn ON sn.oid = s.relnamespace
         LEFT JOIN pg_class r ON r.oid = con.confrelid
         LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace
        WHERE sn.nspname IN ('public', 'pgboss') AND con.contype::text = ANY($1)
        ORDER BY 1, 2`,
      [types],
    );

  it('schema public and the job queue schema are the only schemas with tables', async () => {
    const rows = await owner.query<{ nspname: string }[]>(
      `SELECT DISTINCT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'
        ORDER BY 1`,
    );
    expect(rows.map((r) => r.nspname)).toEqual(['pgboss', 'public']);
  });

  it('no views, materialized views or foreign tables in public (each would need a decision)', async () => {
    const rows = await owner.query<{ relname: string; relkind: string }[]>(
      `SELECT relname, relkind::text FROM pg_class
        WHERE relnamespace = 'public'::regnamespace AND relkind IN ('v', 'm', 'f')
        ORDER BY 1`,
    );
    expect(rows.map((r) => `${r.relname} (relkind ${r.relkind})`)).toEqual([]);
  });

  it('the tenant-owned tables, the tables without tenant_id and the excluded ones are exactly the known ones', () => {
    const inPublic = tables.filter((r) => r.schema === 'public');
    expect([...tenantOwned].sort()).toEqual(TENANT_OWNED);
    expect(
      inPublic
        .filter((r) => !r.tenant_owned)
        .map((r) => r.name)
        .sort(),
    ).toEqual(WITHOUT_TENANT_ID);
    expect(
      [...REFERENCE, 'migrations', 'rate_limit_budgets', 'seed_deferred_indexes'].sort(),
    ).toEqual(WITHOUT_TENANT_ID);

    const excluded = tables
      .filter(
        (r) =>
          r.schema === 'pgboss' ||
          r.name === 'migrations' ||
          r.name === 'rate_limit_budgets' ||
          r.name === 'seed_deferred_indexes',
      )
      .map((r) =>
        r.schema === 'public'
          ? r.name
          : r.queue !== null
            ? `pgboss.job partition of queue '${r.queue}'`
            : `pgboss.${r.name}`,
      )
      .sort();
    expect(excluded).toEqual(EXCLUDED);
  });

  it('tenant_id is uuid NOT NULL on every tenant-owned table (one distribution column type)', async () => {
    const rows = await owner.query<{ table: string; type: string; not_null: boolean }[]>(
      `SELECT c.relname AS table, format_type(a.atttypid, a.atttypmod) AS type,
              a.attnotnull AS not_null
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
          AND a.attname = 'tenant_id' AND NOT a.attisdropped`,
    );
    const violations = rows
      .filter((r) => r.type !== 'uuid' || !r.not_null)
      .map((r) => `${r.table}.tenant_id is ${r.type}${r.not_null ? ' NOT NULL' : ' nullable'}`);
    expect(violations).toEqual([]);
  });

  it('every tenant-owned table has a primary key containing tenant_id', async () => {
    const primaryKeys = new Map((await constraints(['p'])).map((c) => [c.table, c] as const));
    const violations: string[] = [];
    for (const table of [...tenantOwned].sort()) {
      const pk = primaryKeys.get(table);
      if (!pk) violations.push(`${table}: no primary key`);
      else if (!pk.columns.includes('tenant_id'))
        violations.push(
          `${table}: primary key ${pk.name} (${pk.columns.join(', ')}) lacks tenant_id`,
        );
    }
    expect(violations).toEqual([]);
  });

  it('every unique or exclusion constraint on a tenant-owned table includes tenant_id', async () => {
    const rows = (await constraints(['p', 'u', 'x'])).filter((c) => tenantOwned.has(c.table));
    expect(rows.length).toBeGreaterThanOrEqual(tenantOwned.size); // one primary key each at least
    const violations = rows
      .filter((c) => !c.columns.includes('tenant_id'))
      .map((c) => `${c.table}: constraint ${c.name} (${c.type}) on (${c.columns.join(', ')})`);
    expect(violations).toEqual([]);
  });

  it('every unique index on a tenant-owned table has tenant_id as a key column; partial and expression ones are listed', async () => {
    const rows = (
      await owner.query<IndexRow[]>(
        `SELECT t.relname AS table, i.relname AS name,
                ARRAY(SELECT CASE WHEN k.attnum = 0 THEN '(expression)' ELSE a.attname::text END
                        FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                        LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                       WHERE k.ord <= x.indnkeyatts
                       ORDER BY k.ord) AS key_columns,
                x.indpred IS NOT NULL AS partial,
                (x.indexprs IS NOT NULL) AS expression,
                pg_get_indexdef(x.indexrelid) AS definition
           FROM pg_index x
           JOIN pg_class i ON i.oid = x.indexrelid
           JOIN pg_class t ON t.oid = x.indrelid
          WHERE t.relnamespace = 'public'::regnamespace AND x.indisunique
          ORDER BY 1, 2`,
      )
    ).filter((r) => tenantOwned.has(r.table));
    expect(rows.length).toBeGreaterThanOrEqual(tenantOwned.size);
    const violations = rows
      .filter((r) => !r.key_columns.includes('tenant_id'))
      .map((r) => `${r.table}: unique index ${r.name}: ${r.definition}`);
    expect(violations).toEqual([]);
    expect(rows.filter((r) => r.partial || r.expression).map((r) => r.definition)).toEqual(
      PARTIAL_OR_EXPRESSION_UNIQUE,
    );
  });

  it('every foreign key from a tenant-owned table references tenants, or a tenant-owned table on tenant_id at the same position', async () => {
    const foreignKeys = (await constraints(['f'])).filter((c) => tenantOwned.has(c.table));
    expect(foreignKeys.length).toBeGreaterThan(0);
    const violations: string[] = [];
    for (const fk of foreignKeys) {
      const ref = fk.ref_table as string;
      const refColumns = fk.ref_columns ?? [];
      const shown = `${fk.table}: ${fk.name} (${fk.columns.join(', ')}) -> ${ref} (${refColumns.join(', ')})`;
      if (REFERENCE.includes(ref)) continue; // a reference table is on every node
      if (!tenantOwned.has(ref)) {
        violations.push(`${shown}: references a table that is neither distributed nor reference`);
        continue;
      }
      const colocated = fk.columns.some(
        (column, i) => column === 'tenant_id' && refColumns[i] === 'tenant_id',
      );
      if (!colocated) violations.push(`${shown}: tenant_id is not matched with tenant_id`);
    }
    expect(violations).toEqual([]);
  });

  it('no foreign key points at a tenant-owned table from elsewhere, and reference tables reference only reference tables', async () => {
    const violations = (await constraints(['f']))
      .filter(
        (fk) =>
          (!tenantOwned.has(fk.table) && tenantOwned.has(fk.ref_table as string)) ||
          (REFERENCE.includes(fk.table) && !REFERENCE.includes(fk.ref_table as string)),
      )
      .map((fk) => `${fk.table}: ${fk.name} -> ${fk.ref_table}`);
    expect(violations).toEqual([]);
  });

  it('the documented distribution order creates every referenced table before its referrers', async () => {
    expect([...DISTRIBUTION_ORDER].sort()).toEqual([...tenantOwned].sort());
    const violations = (await constraints(['f']))
      .filter((fk) => tenantOwned.has(fk.table) && tenantOwned.has(fk.ref_table as string))
      .filter(
        (fk) =>
          DISTRIBUTION_ORDER.indexOf(fk.ref_table as string) >=
          DISTRIBUTION_ORDER.indexOf(fk.table),
      )
      .map(
        (fk) => `${fk.table} is distributed before ${fk.ref_table}, which ${fk.name} references`,
      );
    expect(violations).toEqual([]);
  });

  it('every tenant-owned table has row-level security enabled and forced, with a policy', async () => {
    const rows = await owner.query<
      { table: string; enabled: boolean; forced: boolean; policies: number }[]
    >(
      `SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
              (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
         FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY($1)
        ORDER BY 1`,
      [[...tenantOwned]],
    );
    expect(rows.map((r) => r.table)).toEqual([...tenantOwned].sort());
    const violations = rows
      .filter((r) => !r.enabled || !r.forced || r.policies === 0)
      .map(
        (r) =>
          `${r.table}: row level security ${r.enabled ? 'enabled' : 'disabled'}, ` +
          `${r.forced ? 'forced' : 'not forced'}, ${r.policies} policies`,
      );
    expect(violations).toEqual([]);
  });

  it('identity and serial columns on distributed and reference tables are exactly the known ones', async () => {
    const rows = await owner.query<
      { table: string; column: string; type: string; identity: string; default: string | null }[]
    >(
      `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
              a.attidentity::text AS identity, pg_get_expr(d.adbin, d.adrelid) AS default
         FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
          AND a.attnum > 0 AND NOT a.attisdropped
          AND (a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%')
        ORDER BY 1, 2`,
    );
    const listed = rows
      .filter((r) => tenantOwned.has(r.table) || REFERENCE.includes(r.table))
      .map(
        (r) =>
          `${r.table}.${r.column}: ${r.type} ` +
          (r.identity === 'a'
            ? 'GENERATED ALWAYS AS IDENTITY'
            : r.identity === 'd'
              ? 'GENERATED BY DEFAULT AS IDENTITY'
              : `DEFAULT ${r.default}`),
      );
    expect(listed).toEqual(IDENTITY_AND_SERIAL);
  });
});
