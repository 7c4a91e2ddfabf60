import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Clock } from '@/platform/clock/clock';
import { get, post, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';
import { pdfText } from './support/pdf-text';
import { binaryBody } from './support/binary-body';

/**
 * Cancelling a booking that has been paid for (docs/cancellation.md): the policy, the quote's
 * worked example and its edges, the cancellation (frozen figures, partial credit notes, refund
 * due), the refund with its interest and the section 269T rule, the refunds queue, what a
 * cancelled booking's receipts may no longer do, concurrency, and other tenants.
 */
interface Money {
  amount: number;
}
interface Quote {
  days: number;
  capPercent: number;
  cap: Money;
  paid: { consideration: Money; tax: Money; total: Money };
  deduction: Money;
  taxRetained: Money;
  refund: Money;
  taxToClaim: Money;
  refundDueDate: string;
  creditNote: null | { taxableValue: Money; cgst: Money; sgst: Money; tax: Money };
  demands: {
    demand: string;
    chargeType: string;
    paid: Money;
    paidTax: Money;
    retained: Money;
    keptTax: Money;
    credit: { taxableValue: Money; cgst: Money; sgst: Money };
    refund: Money;
    taxToClaim: Money;
    timeBarred: boolean;
    invoice: { number: string; date: string } | null;
  }[];
  byPayer: { payerId: string; paid: Money; refund: Money }[];
}
interface Cancellation extends Omit<Quote, 'refund'> {
  id: string;
  cancelledOn: string;
  creditNotes: { id: string; number: string; date: string; taxableValue: Money; tax: Money }[];
  refund: {
    amount: Money;
    dueDate: string;
    status: string;
    paidOn: string | null;
    interest: Money | null;
    paidAmount: Money | null;
    voucherNumber: string | null;
  };
}

const GSTIN = '27AAPFU0939F1ZV';
const BUYER = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const a = (m: Money | null) => m?.amount;

describe('cancelling a paid-for booking', () => {
  let t: TestApp;
  let clock: Clock;

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.app.get(Clock);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t?.close());

  /** Today is `date` in Kolkata (noon there). */
  const on = (date: string) =>
    jest.spyOn(clock, 'now').mockReturnValue(new Date(`${date}T06:30:00Z`));

  const tenant = async (options: { gst?: boolean; interest?: boolean } = {}) => {
    const key = (await t.createTenant()).key;
    if (options.gst !== false) {
      const res = await request(t.server).put('/tenant/gst').set(as(key)).send({
        enabled: true,
        gstin: GSTIN,
        legalName: 'Skyline Developers Private Limited',
        address: 'Plot 7, Andheri East, Mumbai 400069',
      });
      expect(res.status).toBe(200);
    }
    if (options.interest !== false) {
      const res = await request(t.server)
        .put('/tenant/interest-policy')
        .set(as(key))
        .send({
          enabled: true,
          graceDays: 0,
          rates: [{ effectiveFrom: '2020-01-01', annualRatePercent: 11.1 }],
          demandTypes: ['MILESTONE', 'MANUAL'],
          payerTypes: ['BUYER', 'CO_BUYER'],
        });
      expect([res.status, res.body.code]).toEqual([200, undefined]);
    }
    return key;
  };
  const booking = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await post(t, key, '/bookings', {
      unit: randomUUID(),
      unitName: 'Tower B - 1203',
      buyerName: 'Ananya Iyer',
      bookingDate: '2026-04-15',
      allotmentDate: '2026-05-01',
      agreementValue: 8000000,
      buyerAddress: '12 Marine Drive, Mumbai',
      ...overrides,
    });
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    return res.body as { id: string };
  };
  const demand = async (
    key: string,
    bookingId: string,
    amount: number,
    date: string,
    overrides: Record<string, unknown> = {},
  ) => {
    const res = await post(t, key, '/demands', {
      booking: bookingId,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: amount,
      dueDate: date,
      demandDate: date,
      remarks: 'Slab',
      splits: [split(amount, 'BUYER', BUYER)],
      ...overrides,
    });
    expect([res.status, res.body.code, res.body.errors]).toEqual([201, undefined, undefined]);
    return res.body as { id: string; splits: { id: string }[]; grossAmount: Money };
  };
  const pay = async (key: string, splitId: string, amount: number, date: string, mode = 'NEFT') => {
    const res = await post(t, key, '/receipts', {
      demandSplit: splitId,
      amount,
      paymentMode: mode,
      transactionRef: `UTR${randomUUID().slice(0, 8)}`,
      receivedDate: date,
    });
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    return res.body as { id: string };
  };
  const quote = (key: string, bookingId: string, query = '') =>
    get(t, key, `/bookings/${bookingId}/cancellation-quote${query}`);
  const cancel = (key: string, bookingId: string, body: Record<string, unknown> = {}) =>
    post(t, key, `/bookings/${bookingId}/cancellations`, { reason: 'Buyer withdrew', ...body });

  /** The worked example: D1 paid in full, D2 half, D3 (OTHER_CHARGES) in full. */
  const workedExample = async (key: string) => {
    on('2026-06-20');
    const b = await booking(key);
    const d1 = await demand(key, b.id, 800000, '2026-05-02');
    const d2 = await demand(key, b.id, 1000000, '2026-06-05');
    const d3 = await demand(key, b.id, 50000, '2026-06-05', { chargeType: 'OTHER_CHARGES' });
    const receipts = [
      await pay(key, d1.splits[0].id, 840000, '2026-05-02'),
      await pay(key, d2.splits[0].id, 525000, '2026-06-05'),
      await pay(key, d3.splits[0].id, 59000, '2026-06-05'),
    ];
    return { booking: b.id, demands: [d1, d2, d3], receipts };
  };

  describe('the worked example', () => {
    let key: string;
    let example: Awaited<ReturnType<typeof workedExample>>;
    let cancellation: Cancellation;

    beforeAll(async () => {
      key = await tenant();
      example = await workedExample(key);
    });

    it('quotes every figure, changing nothing', async () => {
      on('2026-06-20');
      const res = await quote(key, example.booking, '?requestedOn=2026-06-20');
      expect(res.status).toBe(200);
      const q = res.body as Quote;
      expect([q.days, q.capPercent, a(q.cap)]).toEqual([50, 1.5, 120000]);
      expect([a(q.paid.total), a(q.paid.tax), a(q.paid.consideration)]).toEqual([
        1424000, 74000, 1350000,
      ]);
      expect([a(q.deduction), a(q.taxRetained), a(q.refund), a(q.taxToClaim)]).toEqual([
        120000, 6000, 1298000, 0,
      ]);
      expect(
        q.demands.map((d) => [
          a(d.retained),
          a(d.keptTax),
          a(d.credit.cgst),
          a(d.credit.sgst),
          a(d.refund),
        ]),
      ).toEqual([
        [120000, 6000, 17000, 17000, 714000],
        [0, 0, 25000, 25000, 525000],
        [0, 0, 4500, 4500, 59000],
      ]);
      expect(q.demands[1].paidTax.amount).toBe(25000);
      expect([a(q.creditNote!.taxableValue), a(q.creditNote!.tax)]).toEqual([1170000, 93000]);
      expect(q.refundDueDate).toBe('2026-08-04');
      expect(q.byPayer).toEqual([
        expect.objectContaining({
          payerId: BUYER,
          paid: expect.objectContaining({ amount: 1424000 }),
        }),
      ]);
      expect(q.byPayer[0].refund.amount).toBe(1298000);
      const b = await get(t, key, `/bookings/${example.booking}`);
      expect(b.body.status).toBe('ACTIVE');
    });

    it('cancels: figures frozen, everything CANCELLED but the receipts, one credit note', async () => {
      on('2026-06-20');
      const res = await cancel(key, example.booking, { requestedOn: '2026-06-20' });
      expect([res.status, res.body.code]).toEqual([201, undefined]);
      cancellation = res.body as Cancellation;
      expect(cancellation.cancelledOn).toBe('2026-06-20');
      expect(a(cancellation.deduction)).toBe(120000);
      expect(cancellation.refund).toMatchObject({
        amount: { amount: 1298000 },
        dueDate: '2026-08-04',
        status: 'DUE',
        paidOn: null,
        voucherNumber: null,
      });
      expect(cancellation.creditNotes).toHaveLength(1);
      expect(cancellation.creditNotes[0]).toMatchObject({
        date: '2026-06-20',
        taxableValue: { amount: 1170000 },
        tax: { amount: 93000 },
      });
      const note = await get(t, key, `/credit-notes/${cancellation.creditNotes[0].id}?format=json`);
      expect(note.status).toBe(200);
      expect(note.body.lines).toHaveLength(3);
      expect(note.body.lines[0]).toMatchObject({
        consideration: { amount: 680000 },
        cgst: { amount: 17000 },
      });

      const b = await get(t, key, `/bookings/${example.booking}`);
      expect(b.body.status).toBe('CANCELLED');
      for (const d of example.demands) {
        const demand = await get(t, key, `/demands/${d.id}`);
        expect(demand.body.status).toBe('CANCELLED');
        expect(demand.body.splits[0].status).toBe('CANCELLED');
      }
      for (const r of example.receipts) {
        const receipt = await get(t, key, `/receipts/${r.id}`);
        expect([receipt.body.status, receipt.body.refundedOn]).toEqual(['ACTIVE', null]);
      }
      expect((await get(t, key, `/cancellations/${cancellation.id}`)).body).toEqual(cancellation);
      expect((await get(t, key, `/bookings/${example.booking}/cancellation`)).body).toEqual(
        cancellation,
      );
    });

    it("refuses to cancel or bounce the booking's receipts, or to cancel it again", async () => {
      on('2026-06-21');
      const cancelled = await post(t, key, `/receipts/${example.receipts[0].id}/cancel`, {
        reason: 'typo',
      });
      expect([cancelled.status, cancelled.body.code]).toEqual([409, 'BOOKING_CANCELLED']);
      const again = await cancel(key, example.booking);
      expect([again.status, again.body.code]).toEqual([409, 'ALREADY_CANCELLED']);
      const quoted = await quote(key, example.booking);
      expect([quoted.status, quoted.body.code]).toEqual([409, 'ALREADY_CANCELLED']);
    });

    it('pays the refund ten days late with 3,947.34 interest; receipts carry refundedOn', async () => {
      on('2026-08-14');
      const cash = await post(t, key, `/cancellations/${cancellation.id}/refund`, {
        paidOn: '2026-08-14',
        paymentMode: 'CASH',
        transactionRef: '',
      });
      expect([cash.status, cash.body.code]).toEqual([422, 'REFUND_MODE_NOT_ALLOWED']);
      const queue = await get(t, key, '/refunds?status=OVERDUE');
      expect(queue.body.content).toEqual([
        expect.objectContaining({
          cancellation: cancellation.id,
          daysOverdue: 10,
          interestToday: expect.objectContaining({ amount: 3947.34 }),
          status: 'OVERDUE',
        }),
      ]);
      const res = await post(t, key, `/cancellations/${cancellation.id}/refund`, {
        paidOn: '2026-08-14',
        paymentMode: 'NEFT',
        transactionRef: 'UTR1',
      });
      expect([res.status, res.body.code]).toEqual([200, undefined]);
      expect(res.body.refund).toMatchObject({
        status: 'PAID',
        paidOn: '2026-08-14',
        interest: { amount: 3947.34 },
        paidAmount: { amount: 1301947.34 },
        paymentMode: 'NEFT',
      });
      expect(res.body.refund.voucherNumber).toMatch(/^RFD/);
      for (const r of example.receipts) {
        expect((await get(t, key, `/receipts/${r.id}`)).body.refundedOn).toBe('2026-08-14');
      }
      const twice = await post(t, key, `/cancellations/${cancellation.id}/refund`, {
        paidOn: '2026-08-14',
        paymentMode: 'NEFT',
        transactionRef: 'UTR2',
      });
      expect([twice.status, twice.body.code]).toEqual([409, 'REFUND_ALREADY_PAID']);
      const events = await get(
        t,
        key,
        '/events?after=0&limit=500&type=booking.cancelled,demand.cancelled,credit-note.issued,refund.paid',
      );
      const types = (events.body.events as { type: string; data: Record<string, unknown> }[]).map(
        (e) => e.type,
      );
      expect(types).toEqual([
        'credit-note.issued',
        'booking.cancelled',
        'demand.cancelled',
        'demand.cancelled',
        'demand.cancelled',
        'refund.paid',
      ]);
      const data = (events.body.events as { data: Record<string, unknown> }[]).map((e) => e.data);
      expect(data[1]).toMatchObject({
        id: example.booking,
        status: 'CANCELLED',
        cancellation: { id: cancellation.id },
      });
      expect(data[5]).toMatchObject({ id: cancellation.id, refund: { status: 'PAID' } });
      const paid = await get(t, key, '/refunds?status=PAID');
      expect(paid.body.totalElements).toBe(1);
      expect((await get(t, key, '/refunds')).body.totalElements).toBe(0);
    });

    it('the statement: CANCELLATION to minus the refund, then its interest and payment to 0', async () => {
      on('2026-08-20');
      const statement = async (query: string) => {
        const res = await get(t, key, `/bookings/${example.booking}/statement?format=json${query}`);
        expect(res.status).toBe(200);
        return res.body as {
          entries: {
            kind: string;
            credit: Money | null;
            debit: Money | null;
            balance: Money;
            particulars: string;
            ref: { type: string };
          }[];
          closingBalance: Money;
          totals: Record<string, Money>;
        };
      };
      const kinds = (s: { entries: { kind: string }[] }) => s.entries.map((e) => e.kind);
      const between = await statement('&asOf=2026-07-01');
      expect(kinds(between)).toEqual([
        'DEMAND',
        'RECEIPT',
        'DEMAND',
        'DEMAND',
        'RECEIPT',
        'RECEIPT',
        'CANCELLATION',
      ]);
      const cancelled = between.entries[6];
      expect([a(cancelled.credit), a(cancelled.balance), cancelled.ref.type]).toEqual([
        1823000,
        -1298000,
        'cancellation',
      ]);
      expect(cancelled.particulars).toContain(
        'deduction 120000.00 retained, GST 93000.00 credited',
      );
      expect(between.totals).toMatchObject({
        demanded: { amount: 126000 },
        received: { amount: 1424000 },
        outstanding: { amount: -1298000 },
        overdue: { amount: 0 },
        notYetDue: { amount: 0 },
      });
      const before = await statement('&asOf=2026-06-19');
      expect(kinds(before)).not.toContain('CANCELLATION');
      expect(before.totals.outstanding.amount).toBe(525000);

      const after = await statement('');
      expect(kinds(after).slice(-3)).toEqual(['CANCELLATION', 'REFUND_INTEREST', 'REFUND']);
      expect(after.entries.slice(-2).map((e) => [a(e.credit), a(e.debit)])).toEqual([
        [3947.34, undefined],
        [undefined, 1301947.34],
      ]);
      expect(after.closingBalance.amount).toBe(0);
      expect(after.totals).toMatchObject({
        demanded: { amount: 126000 },
        received: { amount: 126000 },
        outstanding: { amount: 0 },
      });
      for (const format of ['pdf', 'xlsx']) {
        const printed = await request(t.server)
          .get(`/bookings/${example.booking}/statement?format=${format}`)
          .set(as(key))
          .buffer(true)
          .parse(binaryBody);
        expect([format, printed.status, (printed.body as Buffer).length > 1000]).toEqual([
          format,
          200,
          true,
        ]);
      }
      const pdf = await request(t.server)
        .get(`/bookings/${example.booking}/statement?format=pdf`)
        .set(as(key))
        .buffer(true)
        .parse(binaryBody);
      expect(await pdfText(pdf.body as Buffer)).toContain('Booking cancelled: deduction');
      const payer = await statement(`&payerId=${BUYER}`);
      expect(payer.closingBalance.amount).toBe(0);
      expect(kinds(payer)).toEqual(kinds(after));
    });

    it('owes nothing from cancelledOn: ageing, interest and reminders', async () => {
      on('2026-08-20');
      const ageing = async (asOf: string) =>
        (await get(t, key, `/receivables/ageing?asOf=${asOf}`)).body.total.outstanding.amount;
      expect(await ageing('2026-06-19')).toBe(525000);
      expect(await ageing('2026-06-20')).toBe(0);
      expect(await ageing('2026-08-20')).toBe(0);
      const interest = await get(t, key, `/bookings/${example.booking}/interest`);
      expect(interest.body.totals.due.amount).toBe(0);
      for (const asOf of ['2026-06-10', '2026-08-20']) {
        const due = await get(t, key, `/reminders/due?size=500&asOf=${asOf}`);
        expect([asOf, due.status, due.body.totalElements]).toEqual([asOf, 200, 0]);
      }
    });

    it('another tenant can neither see nor touch the cancellation', async () => {
      const other = await tenant({ gst: false, interest: false });
      for (const path of [
        `/cancellations/${cancellation.id}`,
        `/cancellations/${cancellation.id}/letter?format=json`,
        `/bookings/${example.booking}/cancellation`,
        `/bookings/${example.booking}/cancellation-quote`,
      ]) {
        expect((await get(t, other, path)).status).toBe(404);
      }
      expect((await cancel(other, example.booking)).status).toBe(404);
      const refund = await post(t, other, `/cancellations/${cancellation.id}/refund`, {
        paidOn: '2026-08-14',
        paymentMode: 'NEFT',
        transactionRef: 'x',
      });
      expect([refund.status, refund.body.code]).toEqual([404, 'CANCELLATION_NOT_FOUND']);
      expect((await get(t, other, '/refunds?status=PAID')).body.totalElements).toBe(0);
    });
  });

  it('PROMOTER_DEFAULT keeps nothing and pays 38,999.01 interest from each payment', async () => {
    const key = await tenant();
    const example = await workedExample(key);
    on('2026-06-20');
    const res = await cancel(key, example.booking, {
      requestedOn: '2026-06-20',
      initiatedBy: 'PROMOTER_DEFAULT',
    });
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    expect([a(res.body.deduction), res.body.refund.amount.amount]).toEqual([0, 1424000]);
    expect(a(res.body.creditNote.tax)).toBe(99000);
    on('2026-08-14');
    const paid = await post(t, key, `/cancellations/${res.body.id}/refund`, {
      paidOn: '2026-08-14',
      paymentMode: 'RTGS',
      transactionRef: 'UTR9',
    });
    expect(paid.body.refund.interest.amount).toBe(38999.01);
    expect(paid.body.refund.paidAmount.amount).toBe(1462999.01);
  });

  it('the MahaRERA bands turn at 15/16, 30/31 and 60/61 days since allotment', async () => {
    const key = await tenant();
    on('2026-09-01');
    const b = await booking(key);
    const d = await demand(key, b.id, 800000, '2026-05-02');
    await pay(key, d.splits[0].id, 840000, '2026-05-02');
    const caps: number[] = [];
    for (const requestedOn of [
      '2026-05-16',
      '2026-05-17',
      '2026-05-31',
      '2026-06-01',
      '2026-06-30',
      '2026-07-01',
    ]) {
      const q = (await quote(key, b.id, `?requestedOn=${requestedOn}`)).body as Quote;
      caps.push(q.days, q.capPercent);
    }
    expect(caps).toEqual([15, 0, 16, 1, 30, 1, 31, 1.5, 60, 1.5, 61, 2]);
  });

  it('a policy of its own: PERCENT_OF_VALUE and BANDS, with history and If-Match', async () => {
    const key = await tenant();
    const initial = await get(t, key, '/tenant/cancellation-policy');
    expect(initial.body).toEqual({ rule: 'MAHARERA_2022', percent: 10, bands: [], refundDays: 45 });
    const stale = await request(t.server)
      .put('/tenant/cancellation-policy')
      .set(as(key))
      .set('If-Match', '"nope"')
      .send({ rule: 'PERCENT_OF_VALUE' });
    expect([stale.status, stale.body.code]).toEqual([412, 'CANCELLATION_POLICY_CHANGED']);
    for (const bad of [
      { rule: 'HALF' },
      { percent: 100.5 },
      { percent: 1.234 },
      { refundDays: 0 },
      { rule: 'BANDS' },
      { rule: 'BANDS', bands: [{ fromDay: 1, percent: 1 }] },
      {
        rule: 'BANDS',
        bands: [
          { fromDay: 0, percent: 1 },
          { fromDay: 0, percent: 2 },
        ],
      },
    ]) {
      const res = await request(t.server).put('/tenant/cancellation-policy').set(as(key)).send(bad);
      expect([JSON.stringify(bad), res.status, res.body.code]).toEqual([
        JSON.stringify(bad),
        400,
        'VALIDATION_FAILED',
      ]);
    }
    const put = await request(t.server)
      .put('/tenant/cancellation-policy')
      .set(as(key))
      .set('If-Match', initial.headers.etag)
      .send({ rule: 'PERCENT_OF_VALUE', percent: 10, refundDays: 30 });
    expect(put.status).toBe(200);
    on('2026-09-01');
    const b = await booking(key);
    const d = await demand(key, b.id, 800000, '2026-05-02');
    await pay(key, d.splits[0].id, 420000, '2026-05-02');
    const q = (await quote(key, b.id, '?requestedOn=2026-06-20')).body as Quote;
    // 10 % of 80,00,000 is more than the 4,00,000 paid consideration of the CONSTRUCTION demand.
    expect([a(q.cap), a(q.deduction), q.refundDueDate]).toEqual([800000, 400000, '2026-07-20']);
    await request(t.server)
      .put('/tenant/cancellation-policy')
      .set(as(key))
      .send({
        rule: 'BANDS',
        bands: [
          { fromDay: 0, percent: 0 },
          { fromDay: 40, percent: 0.5 },
        ],
      })
      .expect(200);
    const banded = (await quote(key, b.id, '?requestedOn=2026-06-20')).body as Quote;
    expect([banded.capPercent, a(banded.cap)]).toEqual([0.5, 40000]);
    const history = await get(t, key, '/tenant/cancellation-policy/history');
    expect(history.body.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const other = await tenant({ gst: false, interest: false });
    expect((await get(t, other, '/tenant/cancellation-policy')).body.rule).toBe('MAHARERA_2022');
    expect((await get(t, other, '/tenant/cancellation-policy/history')).body).toEqual([]);
  });

  it('a credit note one day inside the section 34 window; one day past it, taxToClaim', async () => {
    const key = await tenant();
    on('2026-03-10');
    const inside = await booking(key, { bookingDate: '2026-01-10', allotmentDate: '2026-01-10' });
    const past = await booking(key, { bookingDate: '2026-01-10', allotmentDate: '2026-01-10' });
    for (const b of [inside, past]) {
      const d = await demand(key, b.id, 1000000, '2026-03-10');
      await pay(key, d.splits[0].id, 1050000, '2026-03-10');
    }
    on('2026-11-30');
    const ok = await cancel(key, inside.id);
    expect([ok.status, ok.body.demands[0].timeBarred]).toEqual([201, false]);
    expect(ok.body.creditNotes).toHaveLength(1);
    on('2026-12-01');
    const barred = await cancel(key, past.id);
    expect(barred.status).toBe(201);
    const d = (barred.body as Cancellation).demands[0];
    expect(d.timeBarred).toBe(true);
    // 2 % of 80,00,000 kept; its tax 3.75 % + 3.75 % of two thirds of it.
    expect([a(d.retained), a(d.keptTax), a(d.taxToClaim)]).toEqual([160000, 8000, 42000]);
    expect(a(d.refund)).toBe(1000000 - 160000);
    expect([barred.body.creditNotes, barred.body.creditNote]).toEqual([[], null]);
    expect(a(barred.body.taxToClaim)).toBe(42000);

    // The letter tells a buyer without a GSTIN how to claim it; one inside the window does not.
    const letter = await get(t, key, `/cancellations/${barred.body.id}/letter?format=json`);
    expect(letter.status).toBe(200);
    expect(letter.body.claimNote).toContain('Circular No. 188/20/2022-GST');
    const pdf = await request(t.server)
      .get(`/cancellations/${barred.body.id}/letter`)
      .set(as(key))
      .buffer(true)
      .parse(binaryBody);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.body as Buffer);
    expect(text).toContain('CANCELLATION OF ALLOTMENT');
    expect(text).toContain('188/20/2022-GST');
    const okLetter = await get(t, key, `/cancellations/${ok.body.id}/letter?format=json`);
    expect([okLetter.body.claimNote, okLetter.body.creditNotes]).toEqual([
      null,
      [ok.body.creditNotes[0].number],
    ]);
  });

  it('an INTEREST demand is kept when the buyer withdraws, and refunded when the developer is at fault', async () => {
    const key = await tenant();
    on('2026-06-20');
    const quoted: number[][] = [];
    for (const initiatedBy of ['BUYER', 'PROMOTER_DEFAULT']) {
      const b = await booking(key);
      const d = await demand(key, b.id, 100000, '2026-05-02');
      await pay(key, d.splits[0].id, 105000, '2026-05-02');
      const i = await demand(key, b.id, 8917.81, '2026-06-01', {
        demandType: 'INTEREST',
        chargeType: 'INTEREST',
      });
      await pay(key, i.splits[0].id, i.grossAmount.amount, '2026-06-02');
      const q = (await quote(key, b.id, `?requestedOn=2026-06-20&initiatedBy=${initiatedBy}`))
        .body as Quote;
      const interest = q.demands.find((x) => x.chargeType === 'INTEREST')!;
      quoted.push([a(interest.retained)!, a(interest.refund)!, a(interest.credit.cgst)!]);
    }
    // 8,917.81 at 5 % (2.5 % + 2.5 %) is 9,363.71 gross; kept whole, its tax is kept too.
    // Refunded, its whole tax is credited: 222.95 + 222.95.
    expect(quoted).toEqual([
      [8917.81, 0, 0],
      [0, 9363.71, 222.95],
    ]);
  });

  it('an EXEMPT booking and a tenant without GST: no tax, no credit note', async () => {
    for (const [gst, overrides] of [
      [true, { gstExempt: true }],
      [false, {}],
    ] as const) {
      const key = await tenant({ gst });
      on('2026-06-20');
      const b = await booking(key, overrides);
      const d = await demand(key, b.id, 800000, '2026-05-02');
      await pay(key, d.splits[0].id, 800000, '2026-05-02');
      const res = await cancel(key, b.id, { requestedOn: '2026-06-20' });
      expect(res.status).toBe(201);
      expect([a(res.body.paid.tax), a(res.body.deduction), res.body.refund.amount.amount]).toEqual([
        0, 120000, 680000,
      ]);
      expect([res.body.creditNote, res.body.creditNotes, res.body.demands[0].invoice]).toEqual([
        null,
        [],
        null,
      ]);
    }
  });

  it('a booking with no receipts: nothing to refund, PAID on the day; the tax credited whole', async () => {
    const key = await tenant();
    on('2026-06-20');
    const b = await booking(key);
    await demand(key, b.id, 1000000, '2026-06-05');
    const res = await cancel(key, b.id);
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    expect(res.body.refund).toMatchObject({
      amount: { amount: 0 },
      status: 'PAID',
      paidOn: '2026-06-20',
      interest: { amount: 0 },
      voucherNumber: null,
    });
    expect(res.body.creditNotes[0].tax.amount).toBe(50000);
    const again = await post(t, key, `/cancellations/${res.body.id}/refund`, {
      paidOn: '2026-06-20',
      paymentMode: 'NEFT',
      transactionRef: '',
    });
    expect(again.body.code).toBe('REFUND_ALREADY_PAID');
  });

  it('refuses bad asks: dates, initiatedBy, no agreementValue, another cancellation at once', async () => {
    const key = await tenant();
    on('2026-06-20');
    const b = await booking(key);
    const d = await demand(key, b.id, 100000, '2026-06-05');
    await pay(key, d.splits[0].id, 105000, '2026-06-05');
    for (const query of [
      '?requestedOn=2026-06-21',
      '?requestedOn=2026-04-14',
      '?initiatedBy=X',
      '?requestedOn=2026-02-30',
    ]) {
      const res = await quote(key, b.id, query);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
    const bad = await cancel(key, b.id, { requestedOn: '2026-06-21' });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const noValue = await booking(key, { agreementValue: undefined });
    const refused = await cancel(key, noValue.id);
    expect([refused.status, refused.body.code]).toEqual([422, 'AGREEMENT_VALUE_REQUIRED']);
    const atFault = await quote(key, noValue.id, '?initiatedBy=PROMOTER_DEFAULT');
    expect(atFault.status).toBe(200);

    const results = await Promise.all([cancel(key, b.id), cancel(key, b.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('ALREADY_CANCELLED');
    const owner = await ownerDataSource(t.ownerUrl);
    try {
      const rows = await owner.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM cancellations WHERE booking_id = $1`,
        [b.id],
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await owner.destroy();
    }
  });
});
