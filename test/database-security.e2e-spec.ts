import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { assertUnprivileged } from '@/database/database-bootstrap';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';

const TENANT_OWNED = [
  'tenant_configurations',
  'tenant_configuration_history',
  'number_counters',
  'issued_numbers',
  'bookings',
  'demands',
  'demand_splits',
  'receipts',
  'idempotency_keys',
  'receipt_search_versions',
  'bank_accounts',
  'bank_statements',
  'bank_lines',
];

/** Isolation enforced by PostgreSQL itself, independent of the application's predicates. */
describe('database security', () => {
  let t: TestApp;
  let owner: DataSource;
  let app: Client;
  let tenantA: Tenant;
  let tenantB: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
    tenantA = await t.createTenant();
    tenantB = await t.createTenant();
    app = new Client({ connectionString: t.appUrl });
    await app.connect();
  });
  afterAll(async () => {
    await app.end();
    await owner.destroy();
    await t.close();
  });

  it('the application role is not superuser, has no BYPASSRLS and owns no table', async () => {
    const { rows } = await app.query(
      `SELECT r.rolsuper, r.rolbypassrls,
              (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owned
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, owned: 0 });
  });

  it('refuses to start on a connection that row-level security would not apply to', async () => {
    await expect(assertUnprivileged(t.ownerUrl)).rejects.toThrow(
      /superuser, has BYPASSRLS or owns tables/,
    );
    await expect(assertUnprivileged(t.appUrl)).resolves.toBeUndefined();
  });

  it('every tenant-owned table has row-level security enabled and forced, with a policy', async () => {
    const rows = await owner.query<
      { relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean; policies: number }[]
    >(
      `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
              (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
         FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY($1)`,
      [TENANT_OWNED],
    );
    expect(rows.map((r) => r.relname).sort()).toEqual([...TENANT_OWNED].sort());
    for (const r of rows) {
      expect({
        table: r.relname,
        enabled: r.relrowsecurity,
        forced: r.relforcerowsecurity,
        hasPolicy: r.policies > 0,
      }).toEqual({
        table: r.relname,
        enabled: true,
        forced: true,
        hasPolicy: true,
      });
    }
  });

  it('every tenant-owned table leads its primary key with tenant_id', async () => {
    const rows = await owner.query<{ relname: string; attname: string }[]>(
      `SELECT c.relname, a.attname
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
        WHERE i.indisprimary AND c.relname = ANY($1)`,
      [TENANT_OWNED],
    );
    expect(rows).toHaveLength(TENANT_OWNED.length);
    for (const r of rows) expect(`${r.relname}.${r.attname}`).toBe(`${r.relname}.tenant_id`);
  });

  it('without app.tenant_id the application role sees no rows', async () => {
    const counts = await owner.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM tenant_configurations',
    );
    expect(counts[0].n).toBeGreaterThanOrEqual(2);
    for (const table of TENANT_OWNED) {
      const { rows } = await app.query(`SELECT count(*)::int AS n FROM ${table}`);
      expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
    }
  });

  it('after a transaction the setting is gone (transaction-local), so nothing leaks to the next use of the connection', async () => {
    await app.query('BEGIN');
    await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantA.id]);
    const inside = await app.query('SELECT count(*)::int AS n FROM tenant_configurations');
    await app.query('COMMIT');
    const after = await app.query('SELECT count(*)::int AS n FROM tenant_configurations');
    expect(inside.rows[0].n).toBe(1);
    expect(after.rows[0].n).toBe(0);
  });

  it("with tenant A set, tenant B's rows are invisible and cannot be written", async () => {
    await app.query('BEGIN');
    try {
      await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantA.id]);
      const { rows } = await app.query('SELECT tenant_id FROM tenant_configurations');
      expect(rows.map((r: { tenant_id: string }) => r.tenant_id)).toEqual([tenantA.id]);
      const updated = await app.query(
        `UPDATE tenant_configurations SET separator = '-' WHERE tenant_id = $1`,
        [tenantB.id],
      );
      expect(updated.rowCount).toBe(0);
      await expect(
        app.query(
          `INSERT INTO bookings (tenant_id, booking_number, unit_id, buyer_name, booking_date, created_by)
           VALUES ($1, 'X-1', gen_random_uuid(), 'Intruder', '2026-01-01', 'x')`,
          [tenantB.id],
        ),
      ).rejects.toThrow(/row-level security/);
    } finally {
      await app.query('ROLLBACK');
    }
  });

  it('the application role cannot change the schema or delete receipts', async () => {
    await expect(app.query('DROP TABLE receipts')).rejects.toThrow(
      /must be owner|permission denied/,
    );
    await expect(app.query('DELETE FROM receipts')).rejects.toThrow(/permission denied/);
  });
});
