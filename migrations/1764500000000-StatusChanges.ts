import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bounced cheques and cancelled bookings and demands (docs/api.md, the finance desk).
 *
 * - Receipts may be BOUNCED. Why a receipt left ACTIVE, when (the business date: the day it was
 *   cancelled in the tenant's zone, or the day the cheque bounced) and by whom are kept for
 *   every such change, so the cancel columns become status columns.
 * - Bookings and demands keep why, when and by whom they were cancelled.
 * - The application role may update exactly those columns (least privilege, as before).
 */
export class StatusChanges1764500000000 implements MigrationInterface {
  name = 'StatusChanges1764500000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE receipts DROP CONSTRAINT receipts_status_check`);
    await q.query(`ALTER TABLE receipts ADD CONSTRAINT receipts_status_check
      CHECK (status IN ('ACTIVE', 'CANCELLED', 'BOUNCED'))`);
    await q.query(`ALTER TABLE receipts RENAME COLUMN cancel_reason TO status_reason`);
    await q.query(`ALTER TABLE receipts RENAME COLUMN cancelled_at TO status_changed_at`);
    await q.query(`ALTER TABLE receipts RENAME COLUMN cancelled_by TO status_changed_by`);
    await q.query(`ALTER TABLE receipts ADD COLUMN status_changed_on date`);
    // Receipts cancelled before: the day of the cancel in the tenant's zone. Row-level security
    // is forced even on the owner; lift it for this one backfill across tenants.
    await q.query(`ALTER TABLE receipts NO FORCE ROW LEVEL SECURITY`);
    await q.query(`
      UPDATE receipts r SET status_changed_on = (r.status_changed_at AT TIME ZONE t.timezone)::date
        FROM tenants t
       WHERE t.id = r.tenant_id AND r.status_changed_at IS NOT NULL`);
    await q.query(`ALTER TABLE receipts FORCE ROW LEVEL SECURITY`);
    await q.query(`GRANT UPDATE (status_changed_on) ON receipts TO finance_app`);

    for (const table of ['bookings', 'demands']) {
      await q.query(`ALTER TABLE ${table}
        ADD COLUMN cancel_reason text,
        ADD COLUMN cancelled_at timestamptz,
        ADD COLUMN cancelled_by text`);
    }
    await q.query(`GRANT UPDATE (status, cancel_reason, cancelled_at, cancelled_by)
      ON bookings TO finance_app`);
    await q.query(
      `GRANT UPDATE (cancel_reason, cancelled_at, cancelled_by) ON demands TO finance_app`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE UPDATE ON bookings FROM finance_app`);
    await q.query(
      `REVOKE UPDATE (cancel_reason, cancelled_at, cancelled_by) ON demands FROM finance_app`,
    );
    for (const table of ['bookings', 'demands']) {
      await q.query(`ALTER TABLE ${table}
        DROP COLUMN cancel_reason, DROP COLUMN cancelled_at, DROP COLUMN cancelled_by`);
    }
    await q.query(`ALTER TABLE receipts DROP COLUMN status_changed_on`);
    await q.query(`ALTER TABLE receipts RENAME COLUMN status_changed_by TO cancelled_by`);
    await q.query(`ALTER TABLE receipts RENAME COLUMN status_changed_at TO cancelled_at`);
    await q.query(`ALTER TABLE receipts RENAME COLUMN status_reason TO cancel_reason`);
    await q.query(`ALTER TABLE receipts DROP CONSTRAINT receipts_status_check`);
    await q.query(`ALTER TABLE receipts ADD CONSTRAINT receipts_status_check
      CHECK (status IN ('ACTIVE', 'CANCELLED'))`);
  }
}
