import { TransactionHost } from '@nestjs-cls/transactional';
import { ClsService } from 'nestjs-cls';
import { TenantContext } from '@/common/tenant-context';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { IDEMPOTENCY_STORE_SQL } from '@/platform/idempotency/idempotency.sql';
import {
  APPEND_EVENTS_AND_IDEMPOTENCY_SQL,
  APPEND_EVENTS_SQL,
  appendMadeEventsSql,
} from './outbox.sql';
import { EVENTS_PER_STATEMENT, OutboxService } from './outbox.service';

const tenant: TenantContext = {
  tenantId: '00000000-0000-4000-8000-000000000001',
  tenantKey: 'acme',
  currency: 'INR',
  locale: 'en-IN',
  timezone: 'Asia/Kolkata',
  fyStartMonth: 4,
  actor: 'desk',
};

/** The outbox on a fake request context and a transaction that records its statements. */
function outbox() {
  const store = new Map<string, unknown>();
  const cls = {
    get: (key: string) => store.get(key),
    set: (key: string, value: unknown) => store.set(key, value),
  } as unknown as ClsService;
  const statements: { sql: string; params: unknown[] }[] = [];
  const txHost = {
    tx: {
      query: (sql: string, params: unknown[]) => {
        statements.push({ sql, params });
        return Promise.resolve([]);
      },
    },
  } as unknown as TransactionHost<RoutingTransactionAdapter>;
  return { service: new OutboxService(cls, txHost), statements };
}

describe('OutboxService.flush', () => {
  it('writes many events in statements of EVENTS_PER_STATEMENT, in order, the key with the last', async () => {
    const { service, statements } = outbox();
    service.begin();
    const count = 2 * EVENTS_PER_STATEMENT + 7;
    for (let i = 0; i < count; i++) service.record('receipt.realised', { n: i });
    service.deferIdempotencyRecord({
      key: 'k1',
      hash: 'h',
      status: 201,
      body: '{}',
      secrets: null,
    });

    const types = await service.flush(tenant);

    expect(types).toHaveLength(count);
    expect(statements.map((s) => s.sql)).toEqual([
      APPEND_EVENTS_SQL,
      APPEND_EVENTS_SQL,
      APPEND_EVENTS_AND_IDEMPOTENCY_SQL,
    ]);
    const data = statements.flatMap((s) => s.params[3] as string[]);
    expect(data).toEqual(Array.from({ length: count }, (_, i) => JSON.stringify({ n: i })));
    expect(statements.map((s) => s.params.length)).toEqual([4, 4, 9]);
    expect(statements[2].params[4]).toBe('k1');
  });

  it('keeps the data as it was when recorded', async () => {
    const { service, statements } = outbox();
    service.begin();
    const record = { status: 'ACTIVE' };
    service.record('receipt.recorded', record);
    record.status = 'CANCELLED';
    await service.flush(tenant);
    expect(statements[0].params[3]).toEqual([JSON.stringify({ status: 'ACTIVE' })]);
  });

  it('writes events made by a query in their place, its types counted, the key stored after it', async () => {
    const { service, statements } = outbox();
    service.begin();
    service.record('receipt.recorded', { n: 1 });
    service.recordQuery(['bank-line.matched', 'receipt.realised'], 'SELECT made', ['ids']);
    service.recordQuery([], 'SELECT nothing', []);
    service.deferIdempotencyRecord({
      key: 'k2',
      hash: 'h',
      status: 201,
      body: '{}',
      secrets: null,
    });

    const types = await service.flush(tenant);

    expect(types).toEqual(['receipt.recorded', 'bank-line.matched', 'receipt.realised']);
    expect(statements.map((s) => s.sql)).toEqual([
      APPEND_EVENTS_SQL,
      appendMadeEventsSql('SELECT made'),
      IDEMPOTENCY_STORE_SQL,
    ]);
    expect(statements[1].params).toEqual([tenant.tenantId, tenant.actor, 'ids']);
    expect(statements[2].params[1]).toBe('k2');
  });
});
