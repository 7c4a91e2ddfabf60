import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import Decimal from 'decimal.js';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import {
  cancelReceipt,
  createBooking,
  createDemand,
  DemandView,
  get,
  post,
  recordReceipt,
  ReceiptView,
  split,
} from './support/factories';
import { binaryBody } from './support/binary-body';
import { pdfText } from './support/pdf-text';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface Money {
  amount: number;
  currency: string;
  currencySymbol: string;
  formatted: string;
}
interface Entry {
  date: string;
  kind: string;
  documentNumber: string;
  particulars: string;
  dueDate: string;
  debit: Money | null;
  credit: Money | null;
  balance: Money;
  ref: { type: string; id: string };
}
interface Statement {
  booking: { id: string; bookingNumber: string; unit: string; buyerName: string };
  from: string;
  to: string;
  asOf: string;
  openingBalance: Money;
  entries: Entry[];
  closingBalance: Money;
  totals: Record<
    | 'demanded'
    | 'received'
    | 'outstanding'
    | 'overdue'
    | 'notYetDue'
    | 'interestAccrued'
    | 'interestDemanded'
    | 'interestWaived',
    Money
  >;
}

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const todayIn = (zone: string) => formatLocalDate(localDateInZone(new Date(), zone));
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** GET /bookings/{id}/statement (docs/statement.md, contract §10.1). */
describe('GET /bookings/{id}/statement', () => {
  let t: TestApp;
  let owner: DataSource;
  const today = todayIn('Asia/Kolkata');

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
  });
  afterAll(async () => {
    await owner?.destroy();
    await t?.close();
  });

  const newTenant = async () => (await t.createTenant()).key;

  const statement = async (key: string, booking: string, query = ''): Promise<Statement> => {
    const res = await get(t, key, `/bookings/${booking}/statement${query ? `?${query}` : ''}`);
    if (res.status !== 200)
      throw new Error(`statement ${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Statement;
  };
  const fileOf = (key: string, booking: string, query: string) =>
    request(t.server)
      .get(`/bookings/${booking}/statement?${query}`)
      .set(as(key))
      .buffer(true)
      .parse(binaryBody);
  /** Kind, date, debit, credit, balance of each entry. */
  const lines = (s: Statement) =>
    s.entries.map((e) => [
      e.kind,
      e.date,
      e.debit?.amount ?? null,
      e.credit?.amount ?? null,
      e.balance.amount,
    ]);
  const bounce = (key: string, id: string, bouncedOn: string, reason = 'Insufficient funds') =>
    post(t, key, `/receipts/${id}/bounce`, { reason, bouncedOn });
  const cancelDemand = async (key: string, id: string, reason = 'Raised in error') => {
    const res = await post(t, key, `/demands/${id}/cancel`, { reason });
    if (res.status !== 200) throw new Error(`cancel demand: ${JSON.stringify(res.body)}`);
  };
  const receipt = (key: string, split: string, amount: number, receivedDate: string, more = {}) =>
    recordReceipt(t, key, { demandSplit: split, amount, receivedDate, ...more });

  describe('entries', () => {
    it('debits demands (INTEREST ones too) on their date, credits receipts, with a running balance, oldest first', async () => {
      const key = await newTenant();
      const booking = await createBooking(t, key, { buyerName: 'Ananya Iyer' });
      const milestone = randomUUID();
      const plinth = await createDemand(t, key, {
        booking: booking.id,
        demandType: 'MILESTONE',
        milestone,
        remarks: 'Plinth',
        demandDate: '2026-02-01',
        dueDate: '2026-02-15',
        splits: [split(150_000.5)],
      });
      const noRemarks = await createDemand(t, key, {
        booking: booking.id,
        demandType: 'MILESTONE',
        milestone,
        remarks: '',
        demandDate: '2026-03-01',
        dueDate: '2026-03-15',
        splits: [split(1000)],
      });
      const interest = await createDemand(t, key, {
        booking: booking.id,
        demandType: 'INTEREST',
        remarks: 'Interest on late payment, 2026-02-16 to 2026-03-31',
        demandDate: '2026-04-01',
        dueDate: '2026-04-15',
        splits: [split(1234.56)],
      });
      const paid = await receipt(key, plinth.splits[0].id, 50_000, '2026-02-10', {
        paymentMode: 'NEFT',
        transactionRef: 'UTR2026021000042',
      });

      const s = await statement(key, booking.id, 'asOf=2026-06-30');
      expect(s.booking).toEqual({
        id: booking.id,
        bookingNumber: booking.bookingNumber,
        unit: booking.unit,
        buyerName: 'Ananya Iyer',
      });
      expect(s).toMatchObject({ from: '2026-02-01', to: '2026-06-30', asOf: '2026-06-30' });
      expect(lines(s)).toEqual([
        ['DEMAND', '2026-02-01', 150_000.5, null, 150_000.5],
        ['RECEIPT', '2026-02-10', null, 50_000, 100_000.5],
        ['DEMAND', '2026-03-01', 1000, null, 101_000.5],
        ['DEMAND', '2026-04-01', 1234.56, null, 102_235.06],
      ]);
      expect(s.entries[0]).toEqual({
        date: '2026-02-01',
        kind: 'DEMAND',
        documentNumber: plinth.demandNumber,
        particulars: 'Plinth',
        dueDate: '2026-02-15',
        debit: {
          amount: 150_000.5,
          currency: 'INR',
          currencySymbol: '₹',
          formatted: '1,50,000.50',
        },
        credit: null,
        balance: {
          amount: 150_000.5,
          currency: 'INR',
          currencySymbol: '₹',
          formatted: '1,50,000.50',
        },
        ref: { type: 'demand', id: plinth.id },
      });
      expect(s.entries[1]).toMatchObject({
        documentNumber: paid.receiptNumber,
        particulars: 'NEFT UTR2026021000042 from Ananya Iyer',
        dueDate: '2026-02-15',
        ref: { type: 'receipt', id: paid.id },
      });
      expect(s.entries[2]).toMatchObject({
        particulars: `Milestone ${milestone}`,
        ref: { id: noRemarks.id },
      });
      expect(s.entries[3]).toMatchObject({
        particulars: 'Interest on late payment, 2026-02-16 to 2026-03-31',
        documentNumber: interest.demandNumber,
      });
      expect(s.openingBalance.amount).toBe(0);
      expect(s.closingBalance).toEqual(s.entries[3].balance);
    });

    it('orders one date: demands, then receipts, then reversals; then by document number', async () => {
      const key = await newTenant();
      const booking = (await createBooking(t, key)).id;
      const day = '2026-05-05';
      const first = await createDemand(t, key, {
        booking,
        demandDate: '2026-05-01',
        splits: [split(100_000)],
      });
      const cheque = await receipt(key, first.splits[0].id, 10_000, '2026-05-02', {
        paymentMode: 'CHEQUE',
        transactionRef: '004512',
      });
      const r1 = await receipt(key, first.splits[0].id, 1000, day);
      const r2 = await receipt(key, first.splits[0].id, 2000, day);
      const r3 = await receipt(key, first.splits[0].id, 3000, day);
      expect((await bounce(key, cheque.id, day)).status).toBe(200);
      const later = await createDemand(t, key, { booking, demandDate: day, splits: [split(500)] });
      // The first receipt recorded gets a number that sorts after the others: numbers, not the
      // order of writing, decide.
      await owner.query(`UPDATE receipts SET receipt_number = $2 WHERE id = $1`, [
        r1.id,
        `${r1.receiptNumber.replace(/\d+$/, '')}99999`,
      ]);

      const s = await statement(key, booking, `asOf=${day}`);
      expect(s.entries.filter((e) => e.date === day).map((e) => [e.kind, e.ref.id])).toEqual([
        ['DEMAND', later.id],
        ['RECEIPT', r2.id],
        ['RECEIPT', r3.id],
        ['RECEIPT', r1.id],
        ['RECEIPT_REVERSED', cheque.id],
      ]);
    });

    it('a cancelled or bounced receipt shows twice: its receipt, and its reversal (a debit) on statusChangedOn saying why', async () => {
      const key = await newTenant();
      const demand = await createDemand(t, key, {
        demandDate: '2026-03-01',
        splits: [split(90_000)],
      });
      const cheque = await receipt(key, demand.splits[0].id, 40_000, '2026-03-05', {
        paymentMode: 'CHEQUE',
        transactionRef: '004512',
      });
      expect((await bounce(key, cheque.id, '2026-03-12', 'Funds insufficient')).status).toBe(200);
      const mistake = await receipt(key, demand.splits[0].id, 5000, '2026-03-06');
      await cancelReceipt(t, key, mistake.id, 'Entered twice');

      const s = await statement(key, demand.booking, `asOf=${today}`);
      expect(lines(s)).toEqual([
        ['DEMAND', '2026-03-01', 90_000, null, 90_000],
        ['RECEIPT', '2026-03-05', null, 40_000, 50_000],
        ['RECEIPT', '2026-03-06', null, 5000, 45_000],
        ['RECEIPT_REVERSED', '2026-03-12', 40_000, null, 85_000],
        ['RECEIPT_REVERSED', today, 5000, null, 90_000],
      ]);
      expect(s.entries[3]).toMatchObject({
        documentNumber: cheque.receiptNumber,
        particulars: `Receipt ${cheque.receiptNumber} bounced: Funds insufficient`,
        ref: { type: 'receipt', id: cheque.id },
      });
      expect(s.entries[4].particulars).toBe(
        `Receipt ${mistake.receiptNumber} cancelled: Entered twice`,
      );
      expect(s.totals.received.amount).toBe(0);
    });

    it("a cancelled demand is credited (DEMAND_CANCELLED) on its cancel date in the tenant's zone", async () => {
      // UTC+14: for most of the day its date is not the UTC date.
      const key = (await t.createTenant({ timezone: 'Pacific/Kiritimati' })).key;
      const kept = await createDemand(t, key, { demandDate: '2026-01-10', splits: [split(700)] });
      const dropped = await createDemand(t, key, {
        booking: kept.booking,
        demandDate: '2026-01-20',
        splits: [split(5000)],
      });
      await cancelDemand(key, dropped.id, 'Wrong unit');
      const cancelDay = todayIn('Pacific/Kiritimati');

      const s = await statement(key, kept.booking);
      expect(s.asOf).toBe(cancelDay);
      expect(lines(s)).toEqual([
        ['DEMAND', '2026-01-10', 700, null, 700],
        ['DEMAND', '2026-01-20', 5000, null, 5700],
        ['DEMAND_CANCELLED', cancelDay, null, 5000, 700],
      ]);
      expect(s.entries[2]).toMatchObject({
        documentNumber: dropped.demandNumber,
        particulars: 'Demand cancelled: Wrong unit',
        ref: { type: 'demand', id: dropped.id },
      });
      expect(s.totals.demanded.amount).toBe(700);
      // The day before, it still owed.
      const before = await statement(key, kept.booking, `asOf=${addDays(cancelDay, -1)}`);
      expect(before.entries.map((e) => e.kind)).toEqual(['DEMAND', 'DEMAND']);
      expect(before.closingBalance.amount).toBe(5700);
    });

    it('a TDS receipt reads "TDS deducted u/s 194-IA, 26QB <ack>"', async () => {
      const key = await newTenant();
      const demand = await createDemand(t, key, {
        demandDate: '2026-04-01',
        splits: [split(1_000_000)],
      });
      await receipt(key, demand.splits[0].id, 990_000, '2026-04-10', { transactionRef: 'UTR77' });
      await receipt(key, demand.splits[0].id, 10_000, '2026-04-10', {
        paymentMode: 'TDS',
        transactionRef: 'AB12345678',
      });
      const s = await statement(key, demand.booking, 'asOf=2026-04-30');
      expect(s.entries.map((e) => e.particulars)).toEqual([
        'Test demand',
        'NEFT UTR77 from Ananya Iyer',
        'TDS deducted u/s 194-IA, 26QB AB12345678',
      ]);
      expect(s.closingBalance.amount).toBe(0);
    });
  });

  describe('period', () => {
    /** Three demands (Jan, Feb, Mar) of 1000 each and a receipt of 400 in Feb. */
    const history = async (key: string) => {
      const jan = await createDemand(t, key, { demandDate: '2026-01-15', splits: [split(1000)] });
      const booking = jan.booking;
      await createDemand(t, key, { booking, demandDate: '2026-02-15', splits: [split(1000)] });
      await receipt(key, jan.splits[0].id, 400, '2026-02-20');
      await createDemand(t, key, { booking, demandDate: '2026-03-15', splits: [split(1000)] });
      return booking;
    };

    it("from: what is dated before it is the opening balance; without it, the first entry's date and 0", async () => {
      const key = await newTenant();
      const booking = await history(key);
      const all = await statement(key, booking, 'asOf=2026-06-30');
      expect(all.from).toBe('2026-01-15');
      expect(all.openingBalance.amount).toBe(0);
      expect(all.closingBalance.amount).toBe(2600);

      const feb = await statement(key, booking, 'from=2026-02-16&asOf=2026-06-30');
      expect(feb.from).toBe('2026-02-16');
      expect(feb.openingBalance.amount).toBe(2000);
      expect(lines(feb)).toEqual([
        ['RECEIPT', '2026-02-20', null, 400, 1600],
        ['DEMAND', '2026-03-15', 1000, null, 2600],
      ]);
      expect(feb.closingBalance.amount).toBe(2600);
      // Totals run from the first entry, whatever from is.
      expect(feb.totals.demanded.amount).toBe(3000);
      expect(feb.totals.outstanding.amount).toBe(2600);
    });

    it('to defaults to asOf; entries after to are left out and totals stop at to', async () => {
      const key = await newTenant();
      const booking = await history(key);
      expect((await statement(key, booking, 'asOf=2026-03-01')).to).toBe('2026-03-01');
      expect((await statement(key, booking)).to).toBe(today);

      const s = await statement(key, booking, 'to=2026-02-28&asOf=2026-06-30');
      expect(s).toMatchObject({ from: '2026-01-15', to: '2026-02-28', asOf: '2026-06-30' });
      expect(lines(s).map((l) => l[1])).toEqual(['2026-01-15', '2026-02-15', '2026-02-20']);
      expect(s.closingBalance.amount).toBe(1600);
      expect(s.totals.outstanding.amount).toBe(1600);
    });

    it('asOf in the past: later demands and receipts do not exist, later cancels and bounces have not happened', async () => {
      const key = await newTenant();
      const demand = await createDemand(t, key, {
        demandDate: '2026-03-01',
        splits: [split(9000)],
      });
      const booking = demand.booking;
      const cheque = await receipt(key, demand.splits[0].id, 3000, '2026-03-10', {
        paymentMode: 'CHEQUE',
      });
      expect((await bounce(key, cheque.id, '2026-03-20')).status).toBe(200);
      const neft = await receipt(key, demand.splits[0].id, 2000, '2026-03-15');
      await cancelReceipt(t, key, neft.id, 'Wrong booking');
      const april = await createDemand(t, key, {
        booking,
        demandDate: '2026-04-01',
        splits: [split(100)],
      });
      await cancelDemand(key, april.id);

      const kinds = async (asOf: string) =>
        (await statement(key, booking, `asOf=${asOf}`)).entries.map((e) => e.kind);
      expect(await kinds('2026-02-28')).toEqual([]);
      expect(await kinds('2026-03-12')).toEqual(['DEMAND', 'RECEIPT']);
      const mid = await statement(key, booking, 'asOf=2026-03-19');
      expect(lines(mid)).toEqual([
        ['DEMAND', '2026-03-01', 9000, null, 9000],
        ['RECEIPT', '2026-03-10', null, 3000, 6000],
        ['RECEIPT', '2026-03-15', null, 2000, 4000],
      ]);
      expect(mid.totals.received.amount).toBe(5000);
      expect(await kinds('2026-03-20')).toEqual([
        'DEMAND',
        'RECEIPT',
        'RECEIPT',
        'RECEIPT_REVERSED',
      ]);
      const yesterday = await statement(key, booking, `asOf=${addDays(today, -1)}`);
      expect(yesterday.entries.map((e) => e.kind)).toEqual([
        'DEMAND',
        'RECEIPT',
        'RECEIPT',
        'RECEIPT_REVERSED',
        'DEMAND',
      ]);
      expect(yesterday.closingBalance.amount).toBe(7100);
      const now = await statement(key, booking, `asOf=${today}`);
      expect(now.entries.map((e) => e.kind).slice(-2)).toEqual([
        'RECEIPT_REVERSED',
        'DEMAND_CANCELLED',
      ]);
      expect(now.closingBalance.amount).toBe(9000);
    });
  });

  describe('payerId and totals', () => {
    it("payerId: only that payer's splits and receipts; a demand's debit is the payer's share", async () => {
      const key = await newTenant();
      const buyer = randomUUID();
      const bank = randomUUID();
      const demand = await createDemand(t, key, {
        demandDate: '2026-05-01',
        splits: [split(60_000, 'BUYER', buyer), split(40_000, 'BANK', bank)],
      });
      const buyerOnly = await createDemand(t, key, {
        booking: demand.booking,
        demandDate: '2026-05-02',
        splits: [split(500, 'BUYER', buyer)],
      });
      await receipt(key, demand.splits[0].id, 10_000, '2026-05-10');
      await receipt(key, demand.splits[1].id, 40_000, '2026-05-11', { paymentMode: 'RTGS' });

      const whole = await statement(key, demand.booking, 'asOf=2026-06-30');
      expect(lines(whole)).toEqual([
        ['DEMAND', '2026-05-01', 100_000, null, 100_000],
        ['DEMAND', '2026-05-02', 500, null, 100_500],
        ['RECEIPT', '2026-05-10', null, 10_000, 90_500],
        ['RECEIPT', '2026-05-11', null, 40_000, 50_500],
      ]);
      expect(whole.entries[3].particulars).toMatch(/^RTGS UTR\d+ from Home-loan bank$/);

      const mine = await statement(key, demand.booking, `asOf=2026-06-30&payerId=${buyer}`);
      expect(lines(mine)).toEqual([
        ['DEMAND', '2026-05-01', 60_000, null, 60_000],
        ['DEMAND', '2026-05-02', 500, null, 60_500],
        ['RECEIPT', '2026-05-10', null, 10_000, 50_500],
      ]);
      const banks = await statement(
        key,
        demand.booking,
        `asOf=2026-06-30&payerId=${bank.toUpperCase()}`,
      );
      expect(lines(banks)).toEqual([
        ['DEMAND', '2026-05-01', 40_000, null, 40_000],
        ['RECEIPT', '2026-05-11', null, 40_000, 0],
      ]);
      expect(banks.entries[0].ref.id).toBe(demand.id);
      expect(mine.closingBalance.amount + banks.closingBalance.amount).toBe(
        whole.closingBalance.amount,
      );
      expect(buyerOnly.splits).toHaveLength(1);
      const nobody = await statement(key, demand.booking, `payerId=${randomUUID()}`);
      expect(nobody.entries).toEqual([]);
      expect(nobody.closingBalance.amount).toBe(0);
    });

    it('totals: demanded, received, outstanding (= closing), overdue and not yet due at asOf, and the interest accrued, demanded and waived at asOf', async () => {
      const key = await newTenant();
      const policy = await request(t.server)
        .put('/tenant/interest-policy')
        .set(as(key))
        .send({
          enabled: true,
          graceDays: 0,
          rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: 11.1 }],
          demandTypes: ['MILESTONE', 'MANUAL'],
          payerTypes: ['BUYER', 'CO_BUYER'],
        });
      expect(policy.status).toBe(200);
      // The worked example of §10.3: 12,772.60 of interest.
      const buyer = randomUUID();
      const late = await createDemand(t, key, {
        demandDate: '2025-12-01',
        dueDate: '2026-01-01',
        splits: [split(1_000_000, 'BUYER', buyer)],
      });
      const booking = late.booking;
      await receipt(key, late.splits[0].id, 600_000, '2026-01-31');
      await receipt(key, late.splits[0].id, 400_000, '2026-03-02');
      const open = await createDemand(t, key, {
        booking,
        demandDate: '2026-03-01',
        dueDate: '2026-04-30',
        splits: [split(300_000, 'BUYER', buyer)],
      });
      await receipt(key, open.splits[0].id, 100_000, '2026-03-20');
      const waived = await post(t, key, `/bookings/${booking}/interest-waivers`, {
        payerId: buyer,
        amount: 772.6,
        reason: 'Goodwill',
      });
      expect(waived.status).toBe(201);
      const raised = await post(t, key, `/bookings/${booking}/interest-demands`, {
        asOf: '2026-03-31',
        dueDate: addDays(today, 15),
      });
      expect(raised.status).toBe(201);
      const interestDemand = raised.body as DemandView;

      // Before the open demand's due date: its 2,00,000 is not yet due.
      const april = await statement(key, booking, 'asOf=2026-04-15');
      expect(april.totals.demanded.amount).toBe(1_300_000);
      expect(april.totals.received.amount).toBe(1_100_000);
      expect(april.totals.outstanding.amount).toBe(200_000);
      expect(april.totals.overdue.amount).toBe(0);
      expect(april.totals.notYetDue.amount).toBe(200_000);
      expect(april.closingBalance).toEqual(april.totals.outstanding);

      const now = await statement(key, booking, `asOf=${today}`);
      const interest = await get(t, key, `/bookings/${booking}/interest?asOf=${today}`);
      expect(now.entries.at(-1)).toMatchObject({
        kind: 'DEMAND',
        date: today,
        documentNumber: interestDemand.demandNumber,
        debit: { amount: 12_000 },
        particulars: 'Interest on late payment, 2026-01-02 to 2026-03-31',
      });
      expect(now.totals).toMatchObject({
        demanded: { amount: 1_312_000 },
        received: { amount: 1_100_000 },
        outstanding: { amount: 212_000 },
        overdue: { amount: 200_000 },
        notYetDue: { amount: 12_000 },
        interestAccrued: { amount: expect.any(Number) },
        interestDemanded: { amount: 12_000, formatted: '12,000.00' },
        interestWaived: { amount: 772.6, formatted: '772.60' },
      });
      expect(now.totals.interestAccrued).toEqual(interest.body.totals.accrued);
      expect(now.totals.interestAccrued.amount).toBeGreaterThan(12_772.6);
      expect(now.closingBalance).toEqual(now.totals.outstanding);
      // At asOf 2026-03-31: the demand (dated today) and the waiver (today) had not happened.
      const march = await statement(key, booking, 'asOf=2026-03-31');
      expect(march.totals).toMatchObject({
        interestDemanded: { amount: 0 },
        interestWaived: { amount: 0 },
      });
      expect(march.totals.interestAccrued.amount).toBe(12_772.6);
      // The payer's figures with payerId; another payer's are zero.
      const payer = await statement(key, booking, `asOf=${today}&payerId=${buyer}`);
      expect(payer.totals.interestWaived.amount).toBe(772.6);
      const other = await statement(key, booking, `asOf=${today}&payerId=${randomUUID()}`);
      expect(other.totals.interestAccrued.amount).toBe(0);
      expect(other.totals.interestDemanded.amount).toBe(0);
    });
  });

  describe('files', () => {
    it('format=pdf: an A4 STATEMENT OF ACCOUNT with tenant, booking, unit, buyer, period, every entry, closing balance and totals as text', async () => {
      const tenant = await t.createTenant();
      const demand = await createDemand(t, tenant.key, {
        demandDate: '2026-04-01',
        remarks: 'Slab casting, 4th floor',
        splits: [split(250_000)],
      });
      const cheque = await receipt(tenant.key, demand.splits[0].id, 100_000, '2026-04-10', {
        paymentMode: 'CHEQUE',
        transactionRef: '004512',
      });
      expect((await bounce(tenant.key, cheque.id, '2026-04-15')).status).toBe(200);
      await receipt(tenant.key, demand.splits[0].id, 2500, '2026-04-20', {
        paymentMode: 'TDS',
        transactionRef: 'AB12345678',
      });
      const json = await statement(tenant.key, demand.booking, 'asOf=2026-06-30');

      const res = await fileOf(tenant.key, demand.booking, 'asOf=2026-06-30&format=pdf');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="statement-${json.booking.bookingNumber.replace(/\//g, '-')}-20260630.pdf"`,
      );
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
      const text = await pdfText(pdf);
      for (const expected of [
        'Test Realty',
        'STATEMENT OF ACCOUNT',
        json.booking.bookingNumber,
        json.booking.unit,
        'Ananya Iyer',
        '1 Apr 2026 to 30 Jun 2026',
        demand.demandNumber,
        'Slab casting, 4th floor',
        cheque.receiptNumber,
        // Particulars wrap in their column: their words, not whole lines.
        'bounced:',
        'Insufficient funds',
        'TDS deducted u/s',
        'AB12345678',
        'Closing balance',
        '2,47,500.00',
        'Outstanding',
        '₹ 2,47,500.00',
        'Interest accrued',
        'Page 1 of 1',
      ]) {
        expect(text).toContain(expected);
      }
    });

    it('format=xlsx: the entries as a worksheet, money as numeric cells and dates as date cells', async () => {
      const key = await newTenant();
      const demand = await createDemand(t, key, {
        demandDate: '2026-04-01',
        remarks: '=HYPERLINK("x")',
        splits: [split(1500.5)],
      });
      const paid = await receipt(key, demand.splits[0].id, 500.25, '2026-04-10', {
        transactionRef: 'UTR9',
      });
      const json = await statement(key, demand.booking, 'asOf=2026-06-30');
      const res = await fileOf(key, demand.booking, 'asOf=2026-06-30&format=xlsx');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="statement-.+-20260630\.xlsx"$/,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(new Uint8Array(res.body as Buffer).buffer);
      const sheet = workbook.worksheets[0];
      // The headings sit below the header block (tested on its own below).
      let top = 1;
      while (top < 20 && sheet.getRow(top).getCell(1).value !== 'date') top++;
      const header = (sheet.getRow(top).values as unknown[]).slice(1);
      expect(header).toEqual([
        'date',
        'kind',
        'documentNumber',
        'particulars',
        'dueDate',
        'debit',
        'credit',
        'balance',
        'currency',
        'refType',
        'refId',
      ]);
      // The opening row, the entries (from row top + 2), the closing row.
      expect(sheet.rowCount).toBe(top + 1 + json.entries.length + 1);
      const cell = (row: number, name: string) =>
        sheet.getRow(top + row).getCell(header.indexOf(name) + 1);
      expect(cell(2, 'date').value).toEqual(new Date('2026-04-01T00:00:00Z'));
      expect(cell(2, 'date').numFmt).toBe('yyyy-mm-dd');
      expect(cell(2, 'dueDate').value).toBeInstanceOf(Date);
      expect(cell(2, 'debit').value).toBe(1500.5);
      expect(cell(2, 'debit').numFmt).toBe('0.00');
      expect(cell(2, 'credit').value).toBeNull();
      expect(cell(3, 'kind').value).toBe('RECEIPT');
      expect(cell(3, 'credit').value).toBe(500.25);
      expect(cell(3, 'balance').value).toBe(1000.25);
      expect(typeof cell(3, 'balance').value).toBe('number');
      expect(cell(3, 'refId').value).toBe(paid.id);
      expect(cell(3, 'particulars').value).toBe('NEFT UTR9 from Ananya Iyer');
      // Text that starts like a formula stays text.
      expect(cell(2, 'particulars').value).toBe(`'=HYPERLINK("x")`);
    });
  });

  describe('files', () => {
    it('format=xlsx: a header block, then an opening row and a closing row, so a statement with from= adds up on its own', async () => {
      const key = await newTenant();
      const booking = await createBooking(t, key, { buyerName: 'Kavya Singh' });
      const first = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-03-01',
        dueDate: '2026-03-15',
        splits: [split(100_000.5)],
      });
      await receipt(key, first.splits[0].id, 40_000.25, '2026-03-20');
      const second = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-05-01',
        dueDate: '2026-05-15',
        splits: [split(250_000)],
      });
      await receipt(key, second.splits[0].id, 100_000, '2026-05-20');
      await receipt(key, first.splits[0].id, 10_000, '2026-05-21');
      const query = 'from=2026-04-01&to=2026-05-31&asOf=2026-06-30';
      const json = await statement(key, booking.id, query);
      expect(json.openingBalance.amount).toBe(60_000.25);
      const res = await fileOf(key, booking.id, `${query}&format=xlsx`);
      expect(res.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(new Uint8Array(res.body as Buffer).buffer);
      const sheet = workbook.worksheets[0];
      // Row 0 and empty rows are holes in exceljs's array: Array.from makes them undefined.
      const rows = Array.from(sheet.getSheetValues() as (unknown[] | undefined)[], (r) =>
        (r ?? []).slice(1),
      ).slice(1);

      // The header block: what the statement is of, above the entries.
      const headerAt = rows.findIndex((r) => r[0] === 'date' && r[1] === 'kind');
      expect(headerAt).toBeGreaterThan(0);
      const block = new Map(
        rows
          .slice(0, headerAt)
          .filter((r) => r.length > 0)
          .map((r) => [r[0], r[1]]),
      );
      expect(Object.fromEntries(block)).toEqual({
        tenant: 'Test Realty',
        bookingNumber: booking.bookingNumber,
        unit: booking.unit,
        buyer: 'Kavya Singh',
        period: '2026-04-01 to 2026-05-31',
        asOf: '2026-06-30',
      });
      const header = rows[headerAt] as string[];
      const col = (name: string) => header.indexOf(name);
      const body = rows.slice(headerAt + 1).filter((r) => r.length > 0);
      expect(body.map((r) => r[col('kind')])).toEqual([
        'OPENING_BALANCE',
        ...json.entries.map((e) => e.kind),
        'CLOSING_BALANCE',
      ]);
      const opening = body[0];
      const closing = body[body.length - 1];
      expect(opening[col('date')]).toEqual(new Date('2026-04-01T00:00:00Z'));
      expect(closing[col('date')]).toEqual(new Date('2026-05-31T00:00:00Z'));
      // Adds up from the file alone: opening + debits - credits = closing (in paise).
      const paise = (v: unknown) => Math.round(((v as number | null) ?? 0) * 100);
      const debits = body.reduce((a, r) => a + paise(r[col('debit')]), 0);
      const credits = body.reduce((a, r) => a + paise(r[col('credit')]), 0);
      expect(paise(opening[col('balance')])).toBe(6_000_025);
      expect(paise(opening[col('balance')]) + debits - credits).toBe(
        paise(closing[col('balance')]),
      );
      expect(paise(closing[col('balance')])).toBe(Math.round(json.closingBalance.amount * 100));
    });

    it('Accept chooses the file where format= is not given; format= wins over it', async () => {
      const key = await newTenant();
      const demand = await createDemand(t, key, { splits: [split(1000)] });
      const as_ = (accept: string, query = '') =>
        request(t.server)
          .get(`/bookings/${demand.booking}/statement${query}`)
          .set(as(key))
          .set('Accept', accept)
          .buffer(true)
          .parse(binaryBody);
      const pdf = await as_('application/pdf');
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers.vary).toMatch(/Accept/i);
      expect(await pdfText(pdf.body as Buffer)).toContain('STATEMENT OF ACCOUNT');
      const xlsx = await as_(XLSX);
      expect(xlsx.headers['content-type']).toBe(XLSX);
      expect((await as_('application/json')).headers['content-type']).toMatch(/^application\/json/);
      expect((await as_('*/*')).headers['content-type']).toMatch(/^application\/json/);
      expect(
        (await as_('text/html,application/xhtml+xml,*/*;q=0.8')).headers['content-type'],
      ).toMatch(/^application\/json/);
      expect((await as_(`application/json;q=0.5, ${XLSX}`)).headers['content-type']).toBe(XLSX);
      // format= wins when both are given.
      expect((await as_('application/pdf', '?format=json')).headers['content-type']).toMatch(
        /^application\/json/,
      );
      expect((await as_('application/json', '?format=xlsx')).headers['content-type']).toBe(XLSX);
      // A bad format= is still 400 whatever Accept says.
      expect((await as_('application/pdf', '?format=csv')).status).toBe(400);
    });
  });

  describe('refusals', () => {
    it.each([
      ['asOf=2026-02-30', 'asOf'],
      ['asOf=30-06-2026', 'asOf'],
      ['to=2026-13-01', 'to'],
      ['from=yesterday', 'from'],
      ['from=2026-05-01&to=2026-04-30', 'from'],
      ['to=2026-07-01&asOf=2026-06-30', 'to'],
      ['format=csv', 'format'],
      ['format=', 'format'],
      ['payerId=buyer', 'payerId'],
    ])('400 VALIDATION_FAILED naming the parameter: %s', async (query, field) => {
      const key = await newTenant();
      const booking = (await createBooking(t, key)).id;
      const res = await get(t, key, `/bookings/${booking}/statement?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([{ field, message: expect.any(String) }]);
    });

    it("404 for another tenant's booking, exactly as for one that does not exist; 400 for a bad id", async () => {
      const key = await newTenant();
      const other = await newTenant();
      const demand = await createDemand(t, key, { splits: [split(100)] });
      const theirs = await get(t, other, `/bookings/${demand.booking}/statement`);
      const unknown = await get(t, other, `/bookings/${randomUUID()}/statement`);
      expect(theirs.status).toBe(404);
      expect(theirs.body.code).toBe('BOOKING_NOT_FOUND');
      expect(unknown.body.code).toBe(theirs.body.code);
      for (const format of ['pdf', 'xlsx']) {
        const file = await get(t, other, `/bookings/${demand.booking}/statement?format=${format}`);
        expect(file.status).toBe(404);
      }
      expect((await get(t, key, '/bookings/nope/statement')).status).toBe(400);
    });

    it('403 without receipts:read', async () => {
      const key = await newTenant();
      const booking = (await createBooking(t, key)).id;
      const res = await request(t.server)
        .get(`/bookings/${booking}/statement`)
        .set(as(key, { scope: 'receipts:write tenant-config:read' }));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
      const allowed = await request(t.server)
        .get(`/bookings/${booking}/statement`)
        .set(as(key, { scope: 'receipts:read' }));
      expect(allowed.status).toBe(200);
    });
  });

  /**
   * Random histories on real PostgreSQL: demands (MILESTONE, MANUAL, INTEREST) split between a
   * buyer and a bank, receipts (NEFT, CHEQUE, TDS), some cancelled or bounced, some demands
   * cancelled once their receipts are gone. Tenant A records the whole history; tenant B only
   * the records dated by a random asOf, with the cancels and bounces dated by then. A's statement
   * at asOf must be B's (ids and numbers aside) and add up.
   */
  describe('property: random histories', () => {
    interface Plan {
      demands: { type: string; date: number; due: number; buyer: number; bank: number }[];
      receipts: {
        demand: number;
        bank: boolean;
        date: number;
        share: number;
        mode: string;
        reversal: { kind: 'cancel' | 'bounce'; after: number } | null;
      }[];
      /** Demands cancelled (their receipts all reversed first), days after the last reversal. */
      cancels: { demand: number; after: number }[];
      /** asOf: a few days around one of the history's dates (where a difference would show). */
      asOf: { pick: number; shift: number };
      payer: boolean;
    }
    const SPAN = 120;
    /** Days after `base`; the last is yesterday, so no receipt, bounce or cancel is in the future. */
    const LAST = SPAN + 39;
    const base = addDays(today, -LAST - 1);
    const clamp = (n: number) => Math.min(n, LAST);
    const dayOf = (n: number) => addDays(base, n);

    const planArb: fc.Arbitrary<Plan> = fc
      .record({
        demands: fc.array(
          fc.record({
            type: fc.constantFrom('MILESTONE', 'MANUAL', 'INTEREST'),
            date: fc.integer({ min: 0, max: SPAN }),
            due: fc.integer({ min: 0, max: 30 }),
            buyer: fc.integer({ min: 1, max: 9000 }),
            bank: fc.integer({ min: 0, max: 9000 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        asOf: fc.record({ pick: fc.nat(), shift: fc.integer({ min: -2, max: 2 }) }),
        payer: fc.boolean(),
      })
      .chain((p) =>
        fc.record({
          demands: fc.constant(p.demands.map((d) => ({ ...d, due: d.date + d.due }))),
          asOf: fc.constant(p.asOf),
          payer: fc.constant(p.payer),
          receipts: fc.array(
            fc.record({
              demand: fc.integer({ min: 0, max: p.demands.length - 1 }),
              bank: fc.boolean(),
              date: fc.integer({ min: 0, max: 20 }),
              share: fc.integer({ min: 1, max: 30 }),
              mode: fc.constantFrom('NEFT', 'CHEQUE', 'TDS'),
              reversal: fc.option(
                fc.record({
                  kind: fc.constantFrom('cancel' as const, 'bounce' as const),
                  after: fc.integer({ min: 0, max: 15 }),
                }),
                { nil: null },
              ),
            }),
            { maxLength: 4 },
          ),
          cancels: fc.array(
            fc.record({
              demand: fc.integer({ min: 0, max: p.demands.length - 1 }),
              after: fc.integer({ min: 0, max: 10 }),
            }),
            { maxLength: 1 },
          ),
        }),
      );

    /**
     * The day of each record: receipts after their demand; a reversal (a bounce or cancel, and
     * every receipt of a demand that is cancelled) after its receipt; a demand's cancel after all
     * of its receipts' reversals. Never after LAST (yesterday).
     */
    const schedule = (plan: Plan) => {
      const received = plan.receipts.map((r) => clamp(plan.demands[r.demand].date + r.date));
      const reversed = plan.receipts.map((r, i) => {
        const cancelled = plan.cancels.some((c) => c.demand === r.demand);
        const after = r.reversal?.after ?? (cancelled ? 0 : null);
        return after === null ? null : clamp(received[i] + after);
      });
      const cancelled = plan.cancels.map((c) =>
        clamp(
          Math.max(
            plan.demands[c.demand].date,
            ...plan.receipts.flatMap((r, i) => (r.demand === c.demand ? [reversed[i] ?? 0] : [])),
          ) + c.after,
        ),
      );
      const days = [
        ...plan.demands.map((d) => d.date),
        ...received,
        ...reversed.flatMap((d) => (d === null ? [] : [d])),
        ...cancelled,
      ];
      const asOf = Math.max(0, clamp(days[plan.asOf.pick % days.length] + plan.asOf.shift));
      return { received, reversed, cancelled, asOf };
    };

    /** Records `plan` (all of it, or as it stood on day `until`) on a new booking of `key`. */
    const record = async (key: string, unit: string, plan: Plan, until: number) => {
      const ids = new Map<string, { id: string; number: string }>();
      const buyerId = '11111111-1111-4111-8111-111111111111';
      const bankId = '22222222-2222-4222-8222-222222222222';
      const booking = (await createBooking(t, key, { unit, buyerName: 'Ananya Iyer' })).id;
      const demands: (DemandView | null)[] = [];
      for (const [i, d] of plan.demands.entries()) {
        if (d.date > until) {
          demands.push(null);
          continue;
        }
        const view = await createDemand(t, key, {
          booking,
          demandType: d.type,
          milestone: d.type === 'MILESTONE' ? '33333333-3333-4333-8333-333333333333' : null,
          demandDate: dayOf(d.date),
          dueDate: dayOf(d.due),
          remarks: `${d.type} ${i}`,
          splits: [
            split(d.buyer, 'BUYER', buyerId),
            ...(d.bank > 0 ? [split(d.bank, 'BANK', bankId)] : []),
          ],
        });
        demands.push(view);
        ids.set(`d${i}`, { id: view.id, number: view.demandNumber });
      }
      const days = schedule(plan);
      for (const [i, r] of plan.receipts.entries()) {
        const d = plan.demands[r.demand];
        const view = demands[r.demand];
        const date = days.received[i];
        const splitOf = view?.splits[r.bank && d.bank > 0 ? 1 : 0];
        if (!view || !splitOf || date > until) continue;
        // At most a quarter of the split each, four at most: every subset of them fits the split.
        const amount = new Decimal(splitOf.amount.amount)
          .times(r.share)
          .div(120)
          .toDecimalPlaces(2);
        if (amount.lte(0)) continue;
        const mode = r.mode === 'TDS' && splitOf.payerType === 'BANK' ? 'NEFT' : r.mode;
        const made: ReceiptView = await receipt(key, splitOf.id, amount.toNumber(), dayOf(date), {
          paymentMode: mode,
          transactionRef: `REF${i}`,
        });
        ids.set(`r${i}`, { id: made.id, number: made.receiptNumber });
        const on = days.reversed[i];
        if (on === null || on > until) continue;
        if (r.reversal?.kind === 'bounce' && mode === 'CHEQUE') {
          const res = await bounce(key, made.id, dayOf(on), `Returned ${i}`);
          if (res.status !== 200) throw new Error(`bounce: ${JSON.stringify(res.body)}`);
        } else {
          await cancelReceipt(t, key, made.id, `Cancelled ${i}`);
          await owner.query(`UPDATE receipts SET status_changed_on = $2 WHERE id = $1`, [
            made.id,
            dayOf(on),
          ]);
        }
      }
      for (const [i, c] of plan.cancels.entries()) {
        const view = demands[c.demand];
        if (!view) continue;
        const on = days.cancelled[i];
        if (on > until) continue;
        await cancelDemand(key, view.id, `Cancelled demand ${c.demand}`);
        await owner.query(
          `UPDATE demands SET cancelled_at = ($2::date + time '12:00') AT TIME ZONE 'Asia/Kolkata'
            WHERE id = $1`,
          [view.id, dayOf(on)],
        );
      }
      return { booking, ids, buyerId };
    };

    /** The statement with ids and numbers replaced by the plan's own names (d0, r3...). */
    const normalised = (s: Statement, ids: Map<string, { id: string; number: string }>) => {
      let text = JSON.stringify({ ...s, booking: { ...s.booking, id: '', bookingNumber: '' } });
      for (const [name, { id, number }] of ids) {
        text = text.split(id).join(name).split(number).join(name);
      }
      return JSON.parse(text) as Statement;
    };

    it('closing = opening + debits - credits = outstanding, and the statement at asOf is the one of only the records dated by then', async () => {
      const a = await newTenant();
      const b = await newTenant();
      for (const key of [a, b]) {
        const res = await request(t.server)
          .put('/tenant/interest-policy')
          .set(as(key))
          .send({
            enabled: true,
            graceDays: 0,
            rates: [{ effectiveFrom: '2020-01-01', annualRatePercent: 12 }],
            demandTypes: ['MILESTONE', 'MANUAL'],
            payerTypes: ['BUYER', 'CO_BUYER'],
          });
        expect(res.status).toBe(200);
      }
      await fc.assert(
        fc.asyncProperty(planArb, async (plan) => {
          const unit = randomUUID();
          const whole = await record(a, unit, plan, Number.MAX_SAFE_INTEGER);
          const x = schedule(plan).asOf;
          const then = await record(b, unit, plan, x);
          const asOf = dayOf(x);
          const query = `asOf=${asOf}${plan.payer ? `&payerId=${whole.buyerId}` : ''}`;
          const fromWhole = await statement(a, whole.booking, query);
          const fromThen = await statement(b, then.booking, query);

          const sum = (pick: (e: Entry) => Money | null) =>
            fromWhole.entries.reduce((x, e) => x.plus(pick(e)?.amount ?? 0), new Decimal(0));
          expect(
            new Decimal(fromWhole.openingBalance.amount)
              .plus(sum((e) => e.debit))
              .minus(sum((e) => e.credit))
              .toNumber(),
          ).toBe(fromWhole.closingBalance.amount);
          expect(fromWhole.totals.outstanding).toEqual(fromWhole.closingBalance);
          expect(
            new Decimal(fromWhole.totals.overdue.amount)
              .plus(fromWhole.totals.notYetDue.amount)
              .toNumber(),
          ).toBe(fromWhole.totals.outstanding.amount);
          expect(normalised(fromWhole, whole.ids)).toEqual(normalised(fromThen, then.ids));
        }),
        { numRuns: 20, seed: 20261130, endOnFailure: true },
      );
    }, 180_000);
  });
});
