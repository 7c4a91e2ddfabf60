import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * pg-boss' timekeeper calls `create_queue('__pgboss__send-it')` on every start, whatever exists,
 * and the application role could not execute it: each start left "permission denied for function
 * create_queue" in the database log. The queue is created by the Housekeeping migration, so for
 * the application the call is a no-op (an INSERT ... ON CONFLICT DO NOTHING on pgboss.queue,
 * which it may write, then RETURN). Creating a queue that does not exist still fails: the role
 * may not create tables in the pgboss schema. test/service-log.e2e-spec.ts keeps the log clean.
 */
export class QueueStartGrant1765650000000 implements MigrationInterface {
  name = 'QueueStartGrant1765650000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`GRANT EXECUTE ON FUNCTION pgboss.create_queue(text, json) TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE EXECUTE ON FUNCTION pgboss.create_queue(text, json) FROM finance_app`);
  }
}
