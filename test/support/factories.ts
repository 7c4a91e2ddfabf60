/**
 * HTTP factories for e2e tests: each creates one record through the public API (so numbering,
 * validation and row-level security are exercised as in production) and returns the parsed
 * 201 body, failing loudly with the problem body on any other status. Body builders are
 * exported too, for tests that want to send a variation and assert the error themselves.
 */
import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import request, { Response } from 'supertest';
import type { BookingView } from '@/bookings/dto/booking.view';
import type { DemandView } from '@/demands/dto/demand.view';
import type { ReceiptView } from '@/receipts/dto/receipt.view';
import type { TestApp } from './test-app';
import { as } from './tokens';

export type { BookingView, DemandView, ReceiptView };

export interface BookingBody {
  unit: string;
  buyerName: string;
  buyerId?: string | null;
  bookingDate: string;
  agreementValue?: number | null;
  unitName?: string | null;
  carpetAreaSqm?: number | null;
  metroCity?: boolean;
  gstExempt?: boolean;
  buyerAddress?: string | null;
  buyerGstin?: string | null;
  allotmentDate?: string | null;
}

export interface DemandSplitBody {
  payerType: string;
  payerId: string;
  amount: number;
}

export interface DemandBody {
  booking: string;
  milestone: string | null;
  demandType: string;
  totalAmount: number;
  dueDate: string;
  demandDate?: string;
  remarks: string;
  splits: DemandSplitBody[];
}

export interface ReceiptBody {
  demandSplit: string;
  amount: number;
  paymentMode: string;
  transactionRef: string;
  receivedDate: string;
}

export interface RequestOptions {
  /** Sent as the Idempotency-Key header. */
  idempotencyKey?: string;
}

export function bookingBody(overrides: Partial<BookingBody> = {}): BookingBody {
  return {
    unit: randomUUID(),
    buyerName: 'Ananya Iyer',
    buyerId: randomUUID(),
    // Early enough for every demand date the suites use: a demand is never dated before its booking.
    bookingDate: '2025-04-01',
    ...overrides,
  };
}

/** A split of `amount` for a new payer (BUYER unless told otherwise). */
export function split(
  amount: number,
  payerType = 'BUYER',
  payerId: string = randomUUID(),
): DemandSplitBody {
  return { payerType, payerId, amount };
}

/** Defaults: one BUYER split of 100000, totalAmount = the exact sum of the splits. */
export function demandBody(booking: string, overrides: Partial<DemandBody> = {}): DemandBody {
  const splits = overrides.splits ?? [split(100000)];
  const total = splits.reduce((sum, s) => sum.plus(String(s.amount)), new Decimal(0));
  return {
    booking,
    milestone: null,
    demandType: 'MANUAL',
    totalAmount: total.toNumber(),
    dueDate: '2026-12-15',
    // A demand is never due before it is raised: one due earlier is raised on its due date.
    demandDate:
      overrides.dueDate !== undefined && overrides.dueDate < '2026-11-22'
        ? overrides.dueDate
        : '2026-11-22',
    remarks: 'Test demand',
    ...overrides,
    splits,
  };
}

export function receiptBody(
  demandSplit: string,
  overrides: Partial<ReceiptBody> = {},
): ReceiptBody {
  return {
    demandSplit,
    amount: 1000,
    paymentMode: 'NEFT',
    transactionRef: `UTR${Date.now()}`,
    receivedDate: '2026-11-22',
    ...overrides,
  };
}

/** POST as a member of `tenantKey` with every scope; returns the raw response. */
export function post(
  t: TestApp,
  tenantKey: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
) {
  const req = request(t.server).post(path).set(as(tenantKey));
  if (options.idempotencyKey !== undefined) req.set('Idempotency-Key', options.idempotencyKey);
  return req.send(body as object);
}

export function get(t: TestApp, tenantKey: string, path: string) {
  return request(t.server).get(path).set(as(tenantKey));
}

function expectStatus<T>(res: Response, status: number, what: string): T {
  if (res.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res.body as T;
}

export async function createBooking(
  t: TestApp,
  tenantKey: string,
  overrides: Partial<BookingBody> = {},
  options: RequestOptions = {},
): Promise<BookingView> {
  const res = await post(t, tenantKey, '/bookings', bookingBody(overrides), options);
  return expectStatus<BookingView>(res, 201, 'POST /bookings');
}

/**
 * Creates a demand; without `booking` in the overrides a new booking is created first. Send
 * `splits` to shape it (totalAmount defaults to their exact sum).
 */
export async function createDemand(
  t: TestApp,
  tenantKey: string,
  overrides: Partial<DemandBody> = {},
  options: RequestOptions = {},
): Promise<DemandView> {
  const booking = overrides.booking ?? (await createBooking(t, tenantKey)).id;
  const res = await post(t, tenantKey, '/demands', demandBody(booking, overrides), options);
  return expectStatus<DemandView>(res, 201, 'POST /demands');
}

/**
 * Records a receipt; without `demandSplit` in the overrides a new demand (one split of 100000)
 * is created first and its split is paid.
 */
export async function recordReceipt(
  t: TestApp,
  tenantKey: string,
  overrides: Partial<ReceiptBody> = {},
  options: RequestOptions = {},
): Promise<ReceiptView> {
  const demandSplit = overrides.demandSplit ?? (await createDemand(t, tenantKey)).splits[0].id;
  const res = await post(t, tenantKey, '/receipts', receiptBody(demandSplit, overrides), options);
  return expectStatus<ReceiptView>(res, 201, 'POST /receipts');
}

export async function cancelReceipt(
  t: TestApp,
  tenantKey: string,
  id: string,
  reason = 'Cheque bounced',
  options: RequestOptions = {},
): Promise<ReceiptView> {
  const res = await post(t, tenantKey, `/receipts/${id}/cancel`, { reason }, options);
  return expectStatus<ReceiptView>(res, 200, `POST /receipts/${id}/cancel`);
}

/** Receipts matching `filters` (POST /receipts/search), up to 500. */
export async function searchReceipts(
  t: TestApp,
  tenantKey: string,
  filters: { field: string; query?: string; type: string }[],
): Promise<ReceiptView[]> {
  const res = await request(t.server)
    .post('/receipts/search?size=500')
    .set(as(tenantKey))
    .send(filters);
  return expectStatus<{ content: ReceiptView[] }>(res, 200, 'POST /receipts/search').content;
}
