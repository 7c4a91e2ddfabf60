import { MigrationInterface, QueryRunner } from 'typeorm';

const NEW_EVENTS = ['gst-settings.updated', 'booking.updated'];

const TENANT_ONLY = `tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)`;

/** What PATCH /bookings/{id} may change. */
const PATCHABLE_BOOKING_COLUMNS = [
  'unit_name',
  'agreement_value',
  'carpet_area_sqm',
  'metro_city',
  'gst_exempt',
  'buyer_address',
  'buyer_gstin',
  'allotment_date',
];

/**
 * GST settings and the booking's tax class (docs/gst.md).
 *
 * - `gst_settings`: the tenant's settings in force, one row per tenant (none until the first PUT:
 *   the defaults). Annual returns are a small JSON array read whole with the settings. Enabled
 *   settings always name the supplier (`gst_settings_complete_check`), as the API requires.
 * - `gst_settings_history`: every stored version, append-only, with who and when.
 * - Bookings gain what their tax class is derived from (carpet area, metro city, exempt), what an
 *   invoice prints of the buyer (address, GSTIN) and the allotment date. `allotment_date` null
 *   means the booking date: rows written before (and by any writer that does not know the column)
 *   need no backfill. The application may now update these columns, `unit_name` and
 *   `agreement_value` (PATCH /bookings/{id}), and nothing else it could not before.
 * - Events: `gst-settings.updated` and `booking.updated`.
 */
export class GstSettings1765630000000 implements MigrationInterface {
  name = 'GstSettings1765630000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gst_settings (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id),
        version integer NOT NULL,
        enabled boolean NOT NULL,
        gstin text,
        legal_name text,
        address text,
        other_charges_sac text NOT NULL
          CONSTRAINT gst_settings_other_charges_sac_check CHECK (other_charges_sac ~ '^[0-9]{6}$'),
        interest_tax text NOT NULL
          CONSTRAINT gst_settings_interest_tax_check
          CHECK (interest_tax IN ('AS_PRINCIPAL', 'STANDARD_18')),
        locked_through text
          CONSTRAINT gst_settings_locked_through_check
          CHECK (locked_through ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
        annual_returns jsonb NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        modified_by text NOT NULL,
        CONSTRAINT gst_settings_complete_check
          CHECK (NOT enabled OR (gstin IS NOT NULL AND legal_name IS NOT NULL AND address IS NOT NULL))
      )`);
    await q.query(`
      CREATE TABLE gst_settings_history (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        version integer NOT NULL,
        settings jsonb NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        changed_by text NOT NULL,
        PRIMARY KEY (tenant_id, version)
      )`);
    for (const table of ['gst_settings', 'gst_settings_history']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (${TENANT_ONLY})
          WITH CHECK (${TENANT_ONLY})`);
    }
    await q.query(`GRANT SELECT, INSERT, UPDATE ON gst_settings TO finance_app`);
    // The history is append-only for the application.
    await q.query(`GRANT SELECT, INSERT ON gst_settings_history TO finance_app`);

    await q.query(`ALTER TABLE bookings
      ADD COLUMN carpet_area_sqm numeric(10,2)
        CONSTRAINT bookings_carpet_area_sqm_check CHECK (carpet_area_sqm > 0),
      ADD COLUMN metro_city boolean NOT NULL DEFAULT false,
      ADD COLUMN gst_exempt boolean NOT NULL DEFAULT false,
      ADD COLUMN buyer_address text,
      ADD COLUMN buyer_gstin text,
      ADD COLUMN allotment_date date
        CONSTRAINT bookings_allotment_date_check CHECK (allotment_date >= booking_date)`);
    await q.query(
      `GRANT UPDATE (${PATCHABLE_BOOKING_COLUMNS.join(', ')}) ON bookings TO finance_app`,
    );

    await this.eventTypes(q, (types) => [...new Set([...types, ...NEW_EVENTS])]);
  }

  public async down(q: QueryRunner): Promise<void> {
    // Fails while events of the new types exist, on purpose: it cannot drop them silently.
    await this.eventTypes(q, (types) => types.filter((t) => !NEW_EVENTS.includes(t)));
    // agreement_value keeps the grant an earlier migration gave it.
    await q.query(
      `REVOKE UPDATE (${PATCHABLE_BOOKING_COLUMNS.filter((c) => c !== 'agreement_value').join(', ')}) ON bookings FROM finance_app`,
    );
    await q.query(`ALTER TABLE bookings
      DROP COLUMN carpet_area_sqm, DROP COLUMN metro_city, DROP COLUMN gst_exempt,
      DROP COLUMN buyer_address, DROP COLUMN buyer_gstin, DROP COLUMN allotment_date`);
    await q.query(`DROP TABLE gst_settings_history`);
    await q.query(`DROP TABLE gst_settings`);
  }

  /** Rewrites the events type CHECK from the types it lists now (other migrations add theirs). */
  private async eventTypes(q: QueryRunner, change: (types: string[]) => string[]): Promise<void> {
    const [row] = (await q.query(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'events'::regclass AND conname = 'events_type_check'`,
    )) as { def: string }[];
    const current = [...(row?.def ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const types = change(current)
      .map((t) => `'${t.replace(/'/g, "''")}'`)
      .join(', ');
    await q.query(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    await q.query(`ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (${types}))`);
  }
}
