/**
 * Creates a booking, a demand split between the buyer and the bank, and a receipt, then searches
 * for the receipt. Type-checked in CI (`npm run client:check`); to run it against a local service:
 *
 *   TOKEN=$(npm run -s token -- --tenant demo) npm --prefix clients/typescript run example
 */
import { createFinanceClient, idempotencyKey, type Schemas } from './src/client.js';

const api = createFinanceClient({
  baseUrl: process.env.BASE_URL ?? 'http://localhost:3000',
  token: process.env.TOKEN ?? '',
  tenant: process.env.TENANT ?? 'demo',
});

function fail(step: string, error: unknown): never {
  throw new Error(`${step} failed: ${JSON.stringify(error)}`);
}

const booking = await api.POST('/bookings', {
  params: { header: { 'Idempotency-Key': idempotencyKey() } },
  body: {
    unit: crypto.randomUUID(),
    buyerName: 'Ananya Iyer',
    buyerId: crypto.randomUUID(),
    bookingDate: '2026-11-22',
  },
});
if (!booking.data) fail('POST /bookings', booking.error);

const split = (payerType: 'BUYER' | 'BANK', amount: number) => ({
  payerType,
  payerId: crypto.randomUUID(),
  amount,
});
const demand = await api.POST('/demands', {
  params: { header: { 'Idempotency-Key': idempotencyKey() } },
  body: {
    booking: booking.data.id,
    milestone: null,
    demandType: 'MANUAL',
    totalAmount: 250000,
    dueDate: '2026-12-15',
    remarks: 'Plinth completion, tower B',
    splits: [split('BUYER', 50000), split('BANK', 200000)],
  },
});
if (!demand.data) fail('POST /demands', demand.error);
const buyerSplit = demand.data.splits.find((s) => s.payerType === 'BUYER');
if (!buyerSplit) throw new Error('the demand has no BUYER split');

const receipt = await api.POST('/receipts', {
  params: { header: { 'Idempotency-Key': idempotencyKey() } },
  body: {
    demandSplit: buyerSplit.id,
    amount: 50000,
    paymentMode: 'NEFT',
    transactionRef: `UTR${Date.now()}`,
    receivedDate: '2026-11-22',
  },
});
if (!receipt.data) fail('POST /receipts', receipt.error);
const recorded: Schemas['ReceiptView'] = receipt.data;

const found = await api.POST('/receipts/search', {
  params: { query: { size: 20, sort: ['receivedDate,desc'] } },
  body: [{ field: 'booking', query: booking.data.id, type: 'EQUALS' }],
});
if (!found.data) fail('POST /receipts/search', found.error);

console.log(
  `${recorded.receiptNumber} for ${recorded.amount.formatted}; ` +
    `${found.data.totalElements} receipt(s) on booking ${booking.data.id}`,
);
