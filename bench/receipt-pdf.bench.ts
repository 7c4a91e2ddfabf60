/**
 * The printed receipt's render alone (no database, no HTTP): ms per PDF over N renders of a
 * realistic receipt, after a warm-up, plus p50/p95 and the size. For layout changes; the
 * end-to-end figure (HTTP, reads, render) is in bench:finance.
 * Run: npx nest build && node dist/bench/receipt-pdf.bench.js [--renders N] [--status CANCELLED]
 */
import { parseArgs } from 'node:util';
import { renderReceiptPdf } from '@/documents/receipt-pdf';
import type { ReceiptView } from '@/receipts/dto/receipt.view';

const { values } = parseArgs({
  options: {
    renders: { type: 'string', default: '200' },
    status: { type: 'string', default: 'ACTIVE' },
  },
});
const renders = Number(values.renders);
if (!Number.isInteger(renders) || renders < 1) throw new Error('--renders: a positive integer');
const status = values.status ?? 'ACTIVE';

const receipt = {
  id: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b',
  demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
  demand: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  booking: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  payerType: 'BANK',
  receiptNumber: 'RCT/26-27/00042',
  amount: { amount: 1250000.5, currency: 'INR', currencySymbol: '₹', formatted: '12,50,000.50' },
  paymentMode: 'CHEQUE',
  transactionRef: 'CHQ 004512 HDFC Bank',
  receivedDate: '2026-11-22',
  status,
  statusReason: status === 'ACTIVE' ? null : 'Insufficient funds',
  statusChangedOn: status === 'ACTIVE' ? null : '2026-11-25',
  statusChangedBy: status === 'ACTIVE' ? null : 'accounts@acme.example',
  demandSplitMeta: {},
  demandMeta: {
    buyerName: 'Ananya Iyer',
    unit: '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f',
    demandNumber: 'DMD/26-27/00017',
    demandType: 'MILESTONE',
  },
} as unknown as ReceiptView;

async function main(): Promise<void> {
  const input = {
    receipt,
    names: {
      bookingNumber: 'BKG/26-27/00031',
      unitName: 'Tower B – 1203',
      buyerName: 'Ananya Iyer',
      payerName: null,
    },
    tenantName: 'Shree Ganesh Realty Private Limited',
    locale: 'en-IN',
    issuedAt: new Date('2026-11-22T10:15:00.000Z'),
  };
  for (let i = 0; i < 20; i++) await renderReceiptPdf(input); // warm-up: JIT, font parsing
  const times: number[] = [];
  let bytes = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < renders; i++) {
    const t0 = process.hrtime.bigint();
    bytes = (await renderReceiptPdf(input)).length;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const total = Number(process.hrtime.bigint() - started) / 1e6;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(
    `${renders} renders (${status}): ${(total / renders).toFixed(1)} ms/render mean, ` +
      `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ${bytes} bytes`,
  );
}

void main();
