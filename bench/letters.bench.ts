/**
 * Letters and reminders (issue 31 "Speed"), on the issue's data set (1M receipts over 50 tenants,
 * 400k on the hot one), the service running in-process (bench/owes.bench.ts's helpers):
 *
 * - POST /reminders/run for the hot tenant with ~5,000 reminders due: before the figures, the hot
 *   tenant's demands are moved (owner connection) so that `--due` splits are at OVERDUE_1 today
 *   (their UPCOMING and DUE steps are then recorded as skipped) and every other demand is due
 *   beyond any step. Each timed run starts from no reminder (the tenant's reminders deleted, not
 *   timed). Beside it, the finding statement (RUN_SQL: it finds and records the due reminders of
 *   the whole tenant) replayed alone through `pg` in a tenant transaction, alternated with the
 *   service in the same run; and the second statement a run needs, the interest of the bookings
 *   of the reminders sent (INTEREST_SQL, as InterestService.computeMany runs it), alone. Then the
 *   finding statement's EXPLAIN (ANALYZE, BUFFERS) as the application login.
 * - A demand letter of the hot tenant, PDF against JSON (GET /demands/{id}/letter), alternated.
 *
 * Run: npm run bench:letters [-- --help]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { TenantContext } from '@/common/tenant-context';
import { TENANT_SETUP_SQL } from '@/http/tenancy/tenant-setup.sql';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { AppConfig } from '@/platform/config/app-config';
import { INTEREST_SQL, bookingsInterestParams } from '@/interest/interest.sql';
import { DEFAULT_REMINDER_POLICY } from '@/letters/reminders.service';
import { RUN_SQL, runParams, RunRow } from '@/letters/letters.sql';
import { runBench, startBenchEnvironment } from './bench-support';
import { alternate, contextOf, Figure, Owes, p50, timed } from './owes.bench';
import { loadSpread, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:letters [-- options]

  --receipts N     receipts in total                      (default 1000000)
  --tenants T      tenants they are spread over           (default 50)
  --hot-share F    share of N on the first ("hot") tenant (default 0.4)
  --due D          reminders due in the hot tenant's run  (default 5000)
  --runs R         timed runs per side of the reminder run (default 5; letters: 10 x R)
  --help           this text

The issue's data set is the default (400,000 receipts on the hot tenant).
`;

const RUN_TARGET_MS = 5000;
const PDF_TARGET = 4;

/**
 * Makes `due` splits of the hot tenant due at OVERDUE_1 on `today`: whole demands (2 splits
 * each, one demand per booking) due 7 days ago, every other demand due 60 days ahead (beyond the
 * UPCOMING step). The data set's own dates are all in the past, so without this every split
 * would be due. Answers one of the due demands (for the letters).
 */
async function makeDue(owner: Client, tenantId: string, today: string, due: number) {
  await owner.query(`UPDATE demands SET due_date = $2::date + 60 WHERE tenant_id = $1`, [
    tenantId,
    today,
  ]);
  const { rows } = await owner.query<{ id: string }>(
    `UPDATE demands d SET due_date = $2::date - 7
       FROM (SELECT DISTINCT ON (booking_id) id FROM demands WHERE tenant_id = $1
              ORDER BY booking_id, demand_number LIMIT $3) x
      WHERE d.tenant_id = $1 AND d.id = x.id
      RETURNING d.id`,
    [tenantId, today, Math.ceil(due / 2)],
  );
  await owner.query('VACUUM ANALYZE demands');
  return rows[0].id;
}

/** Forgets every reminder of the tenant (not timed), so each run sends the same ones. */
async function resetReminders(owner: Client, tenantId: string): Promise<void> {
  await owner.query('DELETE FROM reminders WHERE tenant_id = $1', [tenantId]);
  await owner.query('VACUUM reminders');
}

async function reminderRun(
  owes: Owes,
  owner: Client,
  config: AppConfig,
  tenant: TenantContext,
  today: string,
  runs: number,
  expected: number,
): Promise<{ figure: Figure; interestMs: number[] }> {
  const params = () =>
    runParams({
      tenantId: tenant.tenantId,
      asOf: today,
      defaultSteps: DEFAULT_REMINDER_POLICY.steps,
      timezone: tenant.timezone,
      runId: randomUUID(),
    });
  const service = async () => {
    const answer = await owes.call<{ sent: number }>(
      tenant,
      'POST',
      '/reminders/run',
      { asOf: today },
      200,
      { 'idempotency-key': randomUUID() },
    );
    if (answer.sent !== expected) throw new Error(`run: sent ${answer.sent}, not ${expected}`);
  };
  let bookings: string[] = [];
  const alone = async () => {
    const { result } = await owes.inTenant(tenant, (q) => q<RunRow>(RUN_SQL, params()), true);
    const sent = result.filter((r) => r.split_id !== null);
    if (sent.length !== expected) throw new Error(`run (pg): ${sent.length}, not ${expected}`);
    bookings = [...new Set(sent.map((r) => r.booking_id))];
  };
  const reset = () => resetReminders(owner, tenant.tenantId);

  // Untimed: both sides once (warm), and the bookings whose interest a run's letters need.
  await reset();
  await service();
  await reset();
  await alone();

  const figure: Figure = { name: 'POST /reminders/run', serviceMs: [], sqlMs: [], target: 0 };
  const interestMs: number[] = [];
  const interest = () =>
    owes.inTenant(
      tenant,
      (q) =>
        q(
          INTEREST_SQL,
          bookingsInterestParams({ tenantId: tenant.tenantId, bookingIds: bookings }),
        ),
      false,
    );
  for (let i = 0; i < runs; i++) {
    await alternate(figure, service, alone, i, reset);
    interestMs.push(await timed(interest));
  }

  // Where the finding statement's time goes: its plan as the service runs it (RLS on).
  await reset();
  const app = new Client({ connectionString: owes.appUrl });
  await app.connect();
  try {
    await app.query('BEGIN');
    await app.query(TENANT_SETUP_SQL, [
      tenant.tenantId,
      `${config.dbLockTimeoutMs}ms`,
      `${config.dbStatementTimeoutMs}ms`,
    ]);
    const { rows } = await app.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${RUN_SQL}`,
      params(),
    );
    await app.query('ROLLBACK');
    process.stdout.write(
      `\nEXPLAIN (ANALYZE, BUFFERS) of the run's finding statement (RUN_SQL) as finance_app, hot tenant:\n${rows
        .map((r) => r['QUERY PLAN'])
        .join('\n')}\n\n`,
    );
  } finally {
    await app.end();
  }
  return { figure, interestMs };
}

/** One due demand's letter (to its buyer), JSON and PDF, alternated. */
async function letter(
  owes: Owes,
  tenant: TenantContext,
  demandId: string,
  today: string,
  runs: number,
): Promise<Figure> {
  const { splits } = await owes.call<{ splits: { payerId: string; payerType: string }[] }>(
    tenant,
    'GET',
    `/demands/${demandId}`,
  );
  const payer = splits.find((s) => s.payerType === 'BUYER') ?? splits[0];
  const path = (format: string) =>
    `/demands/${demandId}/letter?asOf=${today}&payerId=${payer.payerId}&format=${format}`;
  const json = () => owes.send(tenant, 'GET', path('json'));
  const pdf = () => owes.send(tenant, 'GET', path('pdf'));
  const view = await owes.call<{ totalPayable: { formatted: string } }>(
    tenant,
    'GET',
    path('json'),
  );
  process.stdout.write(`Letter of ${demandId}: total payable ${view.totalPayable.formatted}\n`);
  await pdf();
  // serviceMs: PDF, sqlMs: JSON (the figure's two sides).
  const figure: Figure = { name: 'letter PDF vs JSON', serviceMs: [], sqlMs: [], target: 0 };
  for (let i = 0; i < 10 * runs; i++) await alternate(figure, pdf, json, i);
  return figure;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '1000000' },
      tenants: { type: 'string', default: '50' },
      'hot-share': { type: 'string', default: '0.4' },
      due: { type: 'string', default: '5000' },
      runs: { type: 'string', default: '5' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const runs = Number(values.runs);
  const tenants = Number(values.tenants);
  const { hot, other } = spreadReceipts(
    Number(values.receipts),
    tenants,
    Number(values['hot-share']),
  );
  const env = await startBenchEnvironment({ HOUSEKEEPING_ENABLED: 'false' });
  const config = env.app.get(AppConfig);
  const owes = new Owes(env, config);
  try {
    const created: Tenant[] = [];
    for (let i = 0; i < tenants; i++)
      created.push(await env.createTenant(`t${i}`, `Bench Realty ${i}`));
    await loadSpread(
      env.owner,
      created.map((t) => t.id),
      { hot, other },
    );
    const tenant = contextOf(created[0]);
    const today = formatLocalDate(localDateInZone(new Date(), tenant.timezone));
    const demandId = await makeDue(env.owner, tenant.tenantId, today, Number(values.due));
    const { rows } = await env.owner.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM demand_splits s JOIN demands d ON d.id = s.demand_id
        WHERE s.tenant_id = $1 AND d.due_date = $2::date - 7`,
      [tenant.tenantId, today],
    );
    const expected = rows[0].n;
    process.stdout.write(`Hot tenant: ${expected} splits due at OVERDUE_1 on ${today}\n`);

    const { figure: run, interestMs } = await reminderRun(
      owes,
      env.owner,
      config,
      tenant,
      today,
      runs,
      expected,
    );
    const letters = await letter(owes, tenant, demandId, today, runs);

    const [runMs, findMs, pdfMs, jsonMs] = [
      p50(run.serviceMs),
      p50(run.sqlMs),
      p50(letters.serviceMs),
      p50(letters.sqlMs),
    ];
    const line = (name: string, value: string, beside: string, target: string) =>
      `${name.padEnd(44)} | ${value.padStart(12)} | ${beside.padEnd(44)} | ${target}`;
    process.stdout.write(
      `${[
        line('figure (p50, ms)', 'value', 'beside it', 'target'),
        line(
          `POST /reminders/run, ${expected} sent (${runs} runs)`,
          runMs.toFixed(0),
          `finding statement alone ${findMs.toFixed(0)}; interest ${p50(interestMs).toFixed(0)}`,
          `<= ${RUN_TARGET_MS} ms ${runMs <= RUN_TARGET_MS ? 'met' : 'MISSED'}`,
        ),
        line(
          `letter PDF / JSON (${10 * runs} each)`,
          `${(pdfMs / jsonMs).toFixed(2)}x`,
          `PDF ${pdfMs.toFixed(1)}, JSON ${jsonMs.toFixed(1)}`,
          `<= ${PDF_TARGET}x ${pdfMs / jsonMs <= PDF_TARGET ? 'met' : 'MISSED'}`,
        ),
      ].join('\n')}\n`,
    );
  } finally {
    await owes.close();
    await env.stop();
  }
}

runBench(main);
