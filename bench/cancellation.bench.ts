/**
 * npm run bench:cancellation [-- --receipts 1000000 --runs 15]
 *
 * Cancelling a booking that has been paid for (docs/cancellation.md), on the data set
 * (1M receipts over 50 tenants, 400k on the hot one), for a booking of 40 demands and 200
 * receipts:
 *
 * - the quote (GET /bookings/{id}/cancellation-quote) against its statements run alone through
 *   `pg` in a tenant transaction (the booking, the policy, the GST settings, the demands with what
 *   they were paid), alternating;
 * - the cancellation (POST /bookings/{id}/cancellations), one fresh booking per run, and beside it
 *   the SQL's own time inside the request: the server-side durations of every statement it ran
 *   (log_min_duration_statement = 0, on separate runs so the log costs the timed ones nothing).
 *
 * Targets: p50 <= 50 ms (quote) and <= 150 ms (cancellation).
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { AppConfig } from '@/platform/config/app-config';
import { TenantContext } from '@/common/tenant-context';
import {
  bookingParams,
  QUOTE_BOOKING_SQL,
  QUOTE_DEMANDS_SQL,
} from '@/cancellations/booking-cancellations.sql';
import { CANCELLATION_POLICY_SQL, tenantParams } from '@/cancellations/cancellation-policy.sql';
import { GST_SETTINGS_SQL } from '@/gst-settings/gst-settings.sql';
import { runBench, savedDataSet, startBenchEnvironment } from './bench-support';
import { alternate, contextOf, Figure, lateBooking, Owes, p50, timed } from './owes.bench';
import { benchTenants, spreadReceipts } from './receipt-data';

/** Sums the server-side durations the log printed for the service's statements. */
class DurationLog {
  private text = '';
  onLog = (chunk: string): void => {
    this.text += chunk;
  };
  async take(): Promise<number> {
    await sleep(300);
    const lines = this.text.split('\n').filter((l) => l.startsWith('@@finance-service|'));
    this.text = '';
    return lines.reduce((sum, l) => {
      const m = /duration: ([\d.]+) ms/.exec(l);
      return sum + (m ? Number(m[1]) : 0);
    }, 0);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '1000000' },
      tenants: { type: 'string', default: '50' },
      'hot-share': { type: 'string', default: '0.4' },
      runs: { type: 'string', default: '15' },
    },
  });
  const runs = Number(values.runs);
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const hotShare = Number(values['hot-share']);
  const log = new DurationLog();
  const env = await startBenchEnvironment(
    { HOUSEKEEPING_ENABLED: 'false' },
    { onLog: log.onLog, saved: savedDataSet(receipts, tenants, hotShare) },
  );
  const owes = new Owes(env, env.app.get(AppConfig));
  try {
    const created = await benchTenants(env.owner, {
      restored: env.restored,
      tenants,
      spread: spreadReceipts(receipts, tenants, hotShare),
      create: (key, name) => env.createTenant(key, name),
    });
    const { rows } = await env.owner.query<Tenant>(
      `SELECT id, key, currency, locale, timezone, fy_start_month AS "fyStartMonth"
         FROM tenants WHERE id = $1`,
      [created[0].id],
    );
    const tenant: TenantContext = contextOf(rows[0]);
    const { rows: count } = await env.owner.query<{ n: string }>(
      'SELECT count(*) AS n FROM receipts WHERE tenant_id = $1',
      [tenant.tenantId],
    );
    process.stdout.write(`Hot tenant: ${count[0].n} receipts\n`);

    const logged = 3;
    const bookings: { id: string }[] = [];
    for (let i = 0; i < runs + logged + 1; i++) {
      const booking = await lateBooking(owes, tenant, 40, 5);
      await owes.call(tenant, 'PATCH', `/bookings/${booking.id}`, {
        agreementValue: 8000000,
        allotmentDate: '2025-01-02',
      });
      bookings.push(booking);
    }
    process.stdout.write(`Made ${bookings.length} bookings of 40 demands and 200 receipts\n`);

    // The quote, against its statements alone.
    const [quoted] = bookings;
    const quotePath = `/bookings/${quoted.id}/cancellation-quote`;
    const quote: Figure = { name: 'quote', serviceMs: [], sqlMs: [], target: 0 };
    const params = bookingParams({ tenantId: tenant.tenantId, bookingId: quoted.id });
    const alone = () =>
      owes.inTenant(
        tenant,
        async (q) => {
          await q(QUOTE_BOOKING_SQL, params);
          await q(CANCELLATION_POLICY_SQL, tenantParams({ tenantId: tenant.tenantId }));
          await q(GST_SETTINGS_SQL, tenantParams({ tenantId: tenant.tenantId }));
          return q(QUOTE_DEMANDS_SQL, params);
        },
        false,
      );
    const view = await owes.call<{ refund: { amount: number }; demands: unknown[] }>(
      tenant,
      'GET',
      quotePath,
    );
    if (view.demands.length !== 40) throw new Error(`quote: ${view.demands.length} demands`);
    for (let i = 0; i < 5; i++) {
      await owes.send(tenant, 'GET', quotePath);
      await alone();
    }
    for (let i = 0; i < runs * 4; i++) {
      await alternate(quote, () => owes.send(tenant, 'GET', quotePath), alone, i);
    }

    // The cancellation: one fresh booking per timed run.
    const cancelMs: number[] = [];
    const cancel = (id: string) =>
      owes.send(tenant, 'POST', `/bookings/${id}/cancellations`, { reason: 'Bench' }, 201, {
        'idempotency-key': `bench-${id}`,
      });
    for (let i = 1; i <= runs; i++) cancelMs.push(await timed(() => cancel(bookings[i].id)));
    // Its SQL's own time, with every statement's duration logged.
    await env.owner.query(`ALTER SYSTEM SET log_line_prefix = '@@%a|%u@@ '`);
    await env.owner.query(`ALTER SYSTEM SET log_min_duration_statement = 0`);
    await env.owner.query('SELECT pg_reload_conf()');
    await sleep(500);
    const cancelSql: number[] = [];
    try {
      for (let i = runs + 1; i <= runs + logged; i++) {
        await log.take();
        await cancel(bookings[i].id);
        cancelSql.push(await log.take());
      }
    } finally {
      await env.owner.query('ALTER SYSTEM RESET log_min_duration_statement');
      await env.owner.query('ALTER SYSTEM RESET log_line_prefix');
      await env.owner.query('SELECT pg_reload_conf()');
    }

    const row = (name: string, service: number, sql: number, target: number) =>
      [
        name.padEnd(34),
        service.toFixed(1).padStart(14),
        sql.toFixed(1).padStart(10),
        `<= ${target} ms ${service <= target ? 'met' : 'MISSED'}`,
      ].join(' | ');
    process.stdout.write(
      [
        '',
        `${'figure (40 demands, 200 receipts)'.padEnd(34)} | service p50 ms | SQL p50 ms | target`,
        row('quote (SQL alone, alternating)', p50(quote.serviceMs), p50(quote.sqlMs), 50),
        row('cancellation (SQL inside it)', p50(cancelMs), p50(cancelSql), 150),
        `(quote: ${quote.serviceMs.length} runs; cancellation: ${cancelMs.length} timed runs, ${cancelSql.length} logged)`,
        '',
      ].join('\n'),
    );
  } finally {
    await owes.close();
    await env.stop();
  }
}

runBench(main);
