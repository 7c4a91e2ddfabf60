import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { pdfText } from './support/pdf-text';
import { createBooking, createDemand, get, post, recordReceipt, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface Money {
  amount: number;
  currency: string;
  currencySymbol: string;
  formatted: string;
}
interface Letter {
  tenant: { name: string };
  letterDate: string;
  demand: { id: string; demandNumber: string; dueDate: string; remarks: string };
  booking: {
    id: string;
    bookingNumber: string;
    unit: string;
    buyerName: string;
    agreementValue: Money | null;
  };
  payer: { payerId: string; payerType: string; payerName: string } | null;
  thisDemand: Money;
  previousDues: Money;
  interestDue: Money;
  totalPayable: Money;
  dueDate: string;
  overdueSince: string | null;
  payTo: { name: string; accountNumber: string; ifsc: string | null } | null;
  tdsNote: string | null;
}

/** Demand letters, reminders and collection holds (docs/letters.md, docs/letters.md). */
describe('letters and reminders', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const newTenant = async () => (await t.createTenant()).key;

  const letter = async (key: string, demandId: string, query = ''): Promise<Letter> => {
    const res = await get(t, key, `/demands/${demandId}/letter?format=json${query}`);
    if (res.status !== 200) throw new Error(`letter: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Letter;
  };
  const pdfOf = async (key: string, demandId: string, query = '') => {
    const res = await request(t.server)
      .get(`/demands/${demandId}/letter${query}`)
      .set(as(key))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return { text: await pdfText(res.body as Buffer), headers: res.headers };
  };
  const putInterestPolicy = async (key: string) => {
    const res = await request(t.server)
      .put('/tenant/interest-policy')
      .set(as(key))
      .send({
        enabled: true,
        graceDays: 0,
        rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: 11.1 }],
        demandTypes: ['MILESTONE', 'MANUAL'],
        payerTypes: ['BUYER', 'CO_BUYER'],
      });
    expect(res.status).toBe(200);
  };
  const account = async (key: string, body: Record<string, unknown>) => {
    const res = await post(t, key, '/bank-accounts', {
      name: 'HDFC collections',
      accountNumber: `5020${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`,
      ifsc: 'HDFC0001234',
      currency: 'INR',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; accountNumber: string; collection: boolean };
  };

  describe('agreementValue on bookings', () => {
    it('is stored, shown as Money, searchable, and null when not given', async () => {
      const key = await newTenant();
      const big = await createBooking(t, key, { agreementValue: 8500000.5 });
      const none = await createBooking(t, key);
      expect((big as unknown as { agreementValue: Money }).agreementValue).toEqual({
        amount: 8500000.5,
        currency: 'INR',
        currencySymbol: '₹',
        formatted: '85,00,000.50',
      });
      expect((none as unknown as { agreementValue: Money | null }).agreementValue).toBeNull();
      expect((await get(t, key, `/bookings/${big.id}`)).body).toEqual(big);
      const found = await post(t, key, '/bookings/search', [
        { field: 'agreementValue', query: '5000000', type: 'GTE' },
      ]);
      expect(found.status).toBe(200);
      expect(found.body.content.map((b: { id: string }) => b.id)).toEqual([big.id]);
      const nulls = await post(t, key, '/bookings/search', [
        { field: 'agreementValue', type: 'IS_NULL' },
      ]);
      expect(nulls.body.content.map((b: { id: string }) => b.id)).toEqual([none.id]);
    });

    it('refuses zero, negative and three decimals with 400 naming the field', async () => {
      const key = await newTenant();
      for (const agreementValue of [0, -5, 1.005, '100']) {
        const res = await post(t, key, '/bookings', {
          unit: randomUUID(),
          buyerName: 'A',
          bookingDate: '2026-11-01',
          agreementValue,
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(JSON.stringify(res.body.errors)).toContain('agreementValue');
      }
    });
  });

  describe('the collection account', () => {
    it('is at most one per currency: setting it on another clears it; PATCH renames', async () => {
      const key = await newTenant();
      const first = await account(key, { collection: true });
      expect(first.collection).toBe(true);
      expect(first.accountNumber).toMatch(/^X+\d{4}$/);
      const second = await account(key, { collection: true });
      const list = (await get(t, key, '/bank-accounts')).body.accounts as {
        id: string;
        collection: boolean;
      }[];
      expect(list.map((a) => [a.id, a.collection])).toEqual([
        [first.id, false],
        [second.id, true],
      ]);
      const patched = await request(t.server)
        .patch(`/bank-accounts/${first.id}`)
        .set(as(key))
        .send({ name: 'Renamed', collection: true });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Renamed', collection: true });
      expect((await get(t, key, `/bank-accounts/${second.id}`)).body.collection).toBe(false);
      const events = (await get(t, key, '/events?type=bank-account.updated')).body.events as {
        data: { id: string; collection: boolean };
      }[];
      expect(events.map((e) => [e.data.id, e.data.collection])).toEqual([
        [first.id, false],
        [second.id, false],
        [first.id, true],
      ]);
    });

    it('two accounts made the collection account at once: exactly one is', async () => {
      const key = await newTenant();
      const a = await account(key, {});
      const b = await account(key, {});
      const results = await Promise.all(
        [a, b].map((x) =>
          request(t.server).patch(`/bank-accounts/${x.id}`).set(as(key)).send({ collection: true }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      const list = (await get(t, key, '/bank-accounts')).body.accounts as {
        collection: boolean;
      }[];
      expect(list.filter((x) => x.collection)).toHaveLength(1);
    });

    it("PATCH: another tenant's account is 404; without bank:write 403; bad body 400", async () => {
      const key = await newTenant();
      const other = await newTenant();
      const mine = await account(key, {});
      const cross = await request(t.server)
        .patch(`/bank-accounts/${mine.id}`)
        .set(as(other))
        .send({ collection: true });
      expect(cross.status).toBe(404);
      const scope = await request(t.server)
        .patch(`/bank-accounts/${mine.id}`)
        .set(as(key, { scope: 'bank:read' }))
        .send({ collection: true });
      expect(scope.status).toBe(403);
      const bad = await request(t.server)
        .patch(`/bank-accounts/${mine.id}`)
        .set(as(key))
        .send({ collection: 'yes' });
      expect(bad.status).toBe(400);
      const number = await request(t.server)
        .patch(`/bank-accounts/${mine.id}`)
        .set(as(key))
        .send({ accountNumber: '1234567890' });
      expect(number.status).toBe(400);
    });
  });

  describe('GET /demands/{id}/letter', () => {
    it('adds up: this demand + previous dues + interest, the same figures as ageing and interest', async () => {
      const key = await newTenant();
      await putInterestPolicy(key);
      const booking = await createBooking(t, key, { bookingDate: '2026-01-01' });
      const buyer = randomUUID();
      const coBuyer = randomUUID();
      // Overdue at asOf: two earlier demands, one partly paid.
      const old1 = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-01-01',
        dueDate: '2026-02-01',
        splits: [
          { payerType: 'BUYER', payerId: buyer, amount: 600000 },
          { payerType: 'CO_BUYER', payerId: coBuyer, amount: 400000 },
        ],
      });
      await recordReceipt(t, key, {
        demandSplit: old1.splits[0].id,
        amount: 100000,
        receivedDate: '2026-03-03',
      });
      await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-03-01',
        dueDate: '2026-04-01',
        splits: [{ payerType: 'BUYER', payerId: buyer, amount: 250000.5 }],
      });
      // Not yet due at asOf: not a previous due.
      await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-06-01',
        dueDate: '2026-07-15',
        splits: [{ payerType: 'BUYER', payerId: buyer, amount: 77 }],
      });
      const current = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-06-01',
        dueDate: '2026-06-15',
        remarks: 'Slab 5, tower B',
        splits: [
          { payerType: 'BUYER', payerId: buyer, amount: 300000 },
          { payerType: 'BANK', payerId: randomUUID(), amount: 700000 },
        ],
      });
      const asOf = '2026-06-30';
      const l = await letter(key, current.id, `&asOf=${asOf}`);

      // The ageing at asOf (one booking in the tenant): previous dues = every bucket past
      // NOT_DUE but this demand's (overdue at asOf too: 15 days, all of its 10,00,000).
      const ageing = (await get(t, key, `/receivables/ageing?asOf=${asOf}&groupBy=booking`))
        .body as { groups: { key: string; byBucket: Record<string, Money> }[] };
      const group = ageing.groups.find((g) => g.key === booking.id)!;
      const overdue = Object.entries(group.byBucket)
        .filter(([label]) => label !== 'NOT_DUE')
        .reduce((a, [, m]) => a + Math.round(m.amount * 100), 0);
      expect(Math.round(l.previousDues.amount * 100)).toBe(overdue - 100000000);
      expect(l.previousDues.amount).toBe(1150000.5);
      const interest = (await get(t, key, `/bookings/${booking.id}/interest?asOf=${asOf}`))
        .body as { totals: { due: Money }; payers: { payerId: string; due: Money }[] };
      expect(l.interestDue).toEqual(interest.totals.due);
      expect(l.interestDue.amount).toBeGreaterThan(0);
      expect(l.thisDemand.amount).toBe(1000000);
      expect(Math.round(l.totalPayable.amount * 100)).toBe(
        Math.round(l.thisDemand.amount * 100) +
          Math.round(l.previousDues.amount * 100) +
          Math.round(l.interestDue.amount * 100),
      );
      expect(l.payer).toBeNull();
      expect(l.letterDate).toBe(asOf);
      expect(l.dueDate).toBe('2026-06-15');
      expect(l.demand.id).toBe(current.id);
      expect(l.payTo).toBeNull();
      expect(l.tdsNote).toBeNull();

      // One payer: its split, its overdue on other demands, its interest.
      const mine = await letter(key, current.id, `&asOf=${asOf}&payerId=${buyer}`);
      expect(mine.payer).toEqual({
        payerId: buyer,
        payerType: 'BUYER',
        payerName: mine.booking.buyerName,
      });
      expect(mine.thisDemand.amount).toBe(300000);
      expect(mine.previousDues.amount).toBe(750000.5);
      expect(mine.interestDue).toEqual(interest.payers.find((p) => p.payerId === buyer)!.due);

      // A payment after asOf has not paid at asOf; at a later asOf it has.
      await recordReceipt(t, key, {
        demandSplit: current.splits[0].id,
        amount: 300000,
        receivedDate: '2026-07-01',
      });
      expect(
        (await letter(key, current.id, `&asOf=${asOf}&payerId=${buyer}`)).thisDemand.amount,
      ).toBe(300000);
      expect(
        (await letter(key, current.id, `&asOf=2026-07-02&payerId=${buyer}`)).thisDemand.amount,
      ).toBe(0);
    });

    it('prints DEMAND LETTER with amounts in words, pay-to in full and the TDS note', async () => {
      const key = await newTenant();
      const acct = await account(key, { collection: true, accountNumber: '50200012345678' });
      expect(acct.accountNumber).toBe('XXXXXXXXXX5678');
      const booking = await createBooking(t, key, {
        agreementValue: 5000000,
        buyerName: 'Ananya Iyer',
      });
      const buyer = randomUUID();
      const d = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-11-01',
        dueDate: '2026-12-01',
        remarks: 'Plinth completion',
        splits: [
          { payerType: 'BUYER', payerId: buyer, amount: 150000.5 },
          { payerType: 'BANK', payerId: randomUUID(), amount: 12500000 },
        ],
      });
      const json = await letter(key, d.id, `&payerId=${buyer}`);
      expect(json.payTo).toEqual({
        name: 'HDFC collections',
        accountNumber: '50200012345678',
        ifsc: 'HDFC0001234',
      });
      expect(json.tdsNote).toBe('Deduct TDS at 1 % u/s 194-IA on this payment and share Form 16B.');
      expect(json.booking.agreementValue?.amount).toBe(5000000);

      const { text, headers } = await pdfOf(key, d.id, `?payerId=${buyer}&asOf=2026-11-20`);
      expect(headers['content-disposition']).toMatch(
        /^inline; filename="letter-DMD-.+-20261120\.pdf"$/,
      );
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('DEMAND LETTER');
      expect(flat).not.toContain('REQUEST FOR DISBURSEMENT');
      expect(flat).toContain('₹ 1,50,000.50');
      expect(flat).toContain('Rupees One Lakh Fifty Thousand and Fifty Paise Only');
      expect(flat).toContain('50200012345678');
      expect(flat).toContain('HDFC0001234');
      expect(flat).toContain('Plinth completion');
      expect(flat).toContain('Deduct TDS at 1 % u/s 194-IA');
      expect(flat).toContain(d.demandNumber);
      expect(flat).toContain('Ananya Iyer');
    });

    it('for a BANK payer: REQUEST FOR DISBURSEMENT, no TDS note; without a collection account "as agreed"', async () => {
      const key = await newTenant();
      const booking = await createBooking(t, key, { agreementValue: 9000000 });
      const bank = randomUUID();
      const d = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-11-01',
        dueDate: '2026-12-01',
        splits: [
          { payerType: 'BUYER', payerId: randomUUID(), amount: 100000 },
          { payerType: 'BANK', payerId: bank, amount: 12500000 },
        ],
      });
      const json = await letter(key, d.id, `&payerId=${bank}`);
      expect(json.tdsNote).toBeNull();
      expect(json.payTo).toBeNull();
      expect(json.thisDemand.amount).toBe(12500000);
      // Without payerId the letter covers every payer, the buyer too: the note is there.
      expect((await letter(key, d.id)).tdsNote).not.toBeNull();
      const { text } = await pdfOf(key, d.id, `?payerId=${bank}`);
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('REQUEST FOR DISBURSEMENT');
      expect(flat).not.toContain('DEMAND LETTER');
      expect(flat).toContain('Rupees One Crore Twenty Five Lakh Only');
      expect(flat).toMatch(/as agreed/i);
      expect(flat).not.toContain('Deduct TDS');
    });

    it('a due date before the letter date: overdue since that date and payable now, never "on or before" it', async () => {
      // The repro: a letter dated 28 Nov 2026 said "payable on or before 15 Jul 2026".
      const key = await newTenant();
      const booking = await createBooking(t, key, { bookingDate: '2026-05-01' });
      const buyer = randomUUID();
      const bank = randomUUID();
      const d = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-06-15',
        dueDate: '2026-07-15',
        splits: [
          { payerType: 'BUYER', payerId: buyer, amount: 250000 },
          { payerType: 'BANK', payerId: bank, amount: 750000 },
        ],
      });
      const late = await letter(key, d.id, `&asOf=2026-11-28&payerId=${buyer}`);
      expect(late.dueDate).toBe('2026-07-15');
      expect(late.overdueSince).toBe('2026-07-15');
      const flat = (await pdfOf(key, d.id, `?asOf=2026-11-28&payerId=${buyer}`)).text.replace(
        /\s+/g,
        ' ',
      );
      expect(flat).toMatch(/overdue since 15 Jul 2026/i);
      expect(flat).toMatch(/payable now/i);
      expect(flat).not.toMatch(/on or before/i);
      expect(flat).not.toMatch(/by the due date/i);
      const bankText = (await pdfOf(key, d.id, `?asOf=2026-11-28&payerId=${bank}`)).text.replace(
        /\s+/g,
        ' ',
      );
      expect(bankText).toContain('REQUEST FOR DISBURSEMENT');
      expect(bankText).toMatch(/overdue since 15 Jul 2026/i);
      expect(bankText).not.toMatch(/on or before/i);

      // On the due date itself and before it, the date is still ahead: "on or before" it.
      for (const asOf of ['2026-07-15', '2026-07-01']) {
        expect((await letter(key, d.id, `&asOf=${asOf}&payerId=${buyer}`)).overdueSince).toBeNull();
        const text = (await pdfOf(key, d.id, `?asOf=${asOf}&payerId=${buyer}`)).text;
        expect(text.replace(/\s+/g, ' ')).toContain('on or before 15 Jul 2026');
        expect(text).not.toMatch(/overdue since/i);
      }
    });

    it('a letter with nothing payable is 409 NOTHING_PAYABLE, as PDF and as JSON', async () => {
      // The repro: a bank's request for disbursement of a paid demand printed "₹0.00 ... Rupees
      // Zero Only".
      const key = await newTenant();
      const booking = await createBooking(t, key, { bookingDate: '2026-05-01' });
      const buyer = randomUUID();
      const bank = randomUUID();
      const d = await createDemand(t, key, {
        booking: booking.id,
        demandDate: '2026-06-01',
        dueDate: '2026-07-01',
        splits: [
          { payerType: 'BUYER', payerId: buyer, amount: 250000 },
          { payerType: 'BANK', payerId: bank, amount: 750000 },
        ],
      });
      await recordReceipt(t, key, {
        demandSplit: d.splits[1].id,
        amount: 750000,
        receivedDate: '2026-06-20',
      });
      for (const q of [
        `?asOf=2026-06-25&payerId=${bank}`,
        `?asOf=2026-06-25&payerId=${bank}&format=json`,
      ]) {
        const res = await get(t, key, `/demands/${d.id}/letter${q}`);
        expect(res.status).toBe(409);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.code).toBe('NOTHING_PAYABLE');
      }
      // The buyer still owes: their letter stands; so does the letter for every payer.
      expect(
        (await letter(key, d.id, `&asOf=2026-06-25&payerId=${buyer}`)).totalPayable.amount,
      ).toBe(250000);
      expect((await letter(key, d.id, '&asOf=2026-06-25')).totalPayable.amount).toBe(250000);
      await recordReceipt(t, key, {
        demandSplit: d.splits[0].id,
        amount: 250000,
        receivedDate: '2026-06-21',
      });
      const paid = await get(t, key, `/demands/${d.id}/letter?asOf=2026-06-25`);
      expect(paid.status).toBe(409);
      expect(paid.body.code).toBe('NOTHING_PAYABLE');
      // Before the payments the same letter asked for the whole demand.
      expect((await letter(key, d.id, '&asOf=2026-06-10')).totalPayable.amount).toBe(1000000);
    });

    it('Accept chooses JSON or PDF where format= is not given; format= wins over it', async () => {
      const key = await newTenant();
      const d = await createDemand(t, key, { splits: [split(1000, 'BUYER')] });
      const fetch = (accept: string, query = '') =>
        request(t.server)
          .get(`/demands/${d.id}/letter${query}`)
          .set(as(key))
          .set('Accept', accept)
          .buffer(true)
          .parse((r, done) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => done(null, Buffer.concat(chunks)));
          });
      const json = await fetch('application/json');
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.headers.vary).toMatch(/Accept/i);
      expect(JSON.parse((json.body as Buffer).toString('utf8')).demand.id).toBe(d.id);
      expect((await fetch('application/pdf')).headers['content-type']).toBe('application/pdf');
      expect((await fetch('*/*')).headers['content-type']).toBe('application/pdf');
      expect(
        (await fetch('application/pdf;q=0.1, application/json')).headers['content-type'],
      ).toMatch(/^application\/json/);
      // format= wins when both are given.
      expect((await fetch('application/json', '?format=pdf')).headers['content-type']).toBe(
        'application/pdf',
      );
      expect((await fetch('application/pdf', '?format=json')).headers['content-type']).toMatch(
        /^application\/json/,
      );
      expect((await fetch('application/json', '?format=xlsx')).status).toBe(400);
    });

    it('a cancelled demand is 409; a stranger payer 404; bad parameters 400 naming them', async () => {
      const key = await newTenant();
      const d = await createDemand(t, key, { splits: [split(1000, 'BUYER')] });
      const stranger = await get(t, key, `/demands/${d.id}/letter?payerId=${randomUUID()}`);
      expect(stranger.status).toBe(404);
      expect(stranger.body.code).toBe('PAYER_NOT_FOUND');
      for (const [q, field] of [
        ['asOf=2026-02-30', 'asOf'],
        ['payerId=nope', 'payerId'],
        ['format=xlsx', 'format'],
      ]) {
        const res = await get(t, key, `/demands/${d.id}/letter?${q}`);
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      }
      expect((await get(t, key, `/demands/${d.id}/letter?bogus=1`)).status).toBe(400);
      const cancel = await post(t, key, `/demands/${d.id}/cancel`, { reason: 'duplicate' });
      expect(cancel.status).toBe(200);
      const res = await get(t, key, `/demands/${d.id}/letter`);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('DEMAND_CANCELLED');
    });

    it("another tenant's demand is 404; without receipts:read 403", async () => {
      const key = await newTenant();
      const other = await newTenant();
      const d = await createDemand(t, key);
      expect((await get(t, other, `/demands/${d.id}/letter`)).status).toBe(404);
      const res = await request(t.server)
        .get(`/demands/${d.id}/letter?format=json`)
        .set(as(key, { scope: 'receipts:write' }));
      expect(res.status).toBe(403);
    });
  });

  const today = () => formatLocalDate(localDateInZone(new Date(), 'Asia/Kolkata'));
  const addDays = (date: string, days: number) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };
  interface Due {
    content: {
      demandSplit: string;
      demand: string;
      step: string;
      daysPastDue: number;
      pending: Money;
      interestDue: Money;
      payerId: string;
      booking: string;
    }[];
    totalElements: number;
  }
  const due = async (key: string, asOf?: string): Promise<Due> => {
    const res = await get(t, key, `/reminders/due?size=500${asOf ? `&asOf=${asOf}` : ''}`);
    if (res.status !== 200) throw new Error(`due: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Due;
  };
  const run = async (key: string, asOf?: string) => {
    const res = await post(t, key, '/reminders/run', asOf ? { asOf } : {});
    if (res.status !== 200) throw new Error(`run: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { runId: string; asOf: string; sent: number; skippedHeld: number };
  };
  const sentSteps = async (key: string, demandId: string) => {
    const res = await get(t, key, `/demands/${demandId}/reminders`);
    expect(res.status).toBe(200);
    return (res.body.reminders as { step: string; demandSplit: string }[]).map((r) => r.step);
  };
  const reminderEvents = async (key: string) =>
    (await get(t, key, '/events?type=reminder.due&limit=500')).body.events as {
      data: { reminder: Due['content'][number]; letter: Letter };
    }[];
  /** A booking with one BUYER demand of `amount` due `dueDate` (dated 60 days before). */
  const owing = async (key: string, dueDate: string, amount = 100000) => {
    const booking = await createBooking(t, key, { bookingDate: addDays(dueDate, -90) });
    const demand = await createDemand(t, key, {
      booking: booking.id,
      demandDate: addDays(dueDate, -60),
      dueDate,
      splits: [split(amount, 'BUYER')],
    });
    return { booking, demand };
  };

  describe('the reminder policy', () => {
    it('defaults to the five steps; PUT replaces with ETag/If-Match and an event', async () => {
      const key = await newTenant();
      const first = await get(t, key, '/tenant/reminder-policy');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        enabled: true,
        steps: [
          { name: 'UPCOMING', offsetDays: -7 },
          { name: 'DUE', offsetDays: 0 },
          { name: 'OVERDUE_1', offsetDays: 7 },
          { name: 'OVERDUE_2', offsetDays: 15 },
          { name: 'FINAL_NOTICE', offsetDays: 30 },
        ],
      });
      const body = {
        enabled: true,
        steps: [
          { name: 'LATE', offsetDays: 3 },
          { name: 'EARLY', offsetDays: -3 },
        ],
      };
      const put = await request(t.server)
        .put('/tenant/reminder-policy')
        .set(as(key))
        .set('If-Match', first.headers.etag)
        .send(body);
      expect(put.status).toBe(200);
      expect(put.body.steps.map((s: { name: string }) => s.name)).toEqual(['EARLY', 'LATE']);
      const stale = await request(t.server)
        .put('/tenant/reminder-policy')
        .set(as(key))
        .set('If-Match', first.headers.etag)
        .send({ enabled: false, steps: [] });
      expect(stale.status).toBe(412);
      const events = (await get(t, key, '/events?type=reminder-policy.updated')).body.events;
      expect(events).toHaveLength(1);
    });

    it('refuses duplicate names, offsets out of range, 11 steps; needs tenant-config scopes', async () => {
      const key = await newTenant();
      const bad = [
        {
          enabled: true,
          steps: [
            { name: 'A', offsetDays: 1 },
            { name: 'A', offsetDays: 2 },
          ],
        },
        { enabled: true, steps: [{ name: 'A', offsetDays: -61 }] },
        { enabled: true, steps: [{ name: 'A', offsetDays: 366 }] },
        { enabled: true, steps: [{ name: 'A', offsetDays: 1.5 }] },
        {
          enabled: true,
          steps: Array.from({ length: 11 }, (_, i) => ({ name: `S${i}`, offsetDays: i })),
        },
        { enabled: true },
      ];
      for (const body of bad) {
        const res = await request(t.server).put('/tenant/reminder-policy').set(as(key)).send(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      const read = await request(t.server)
        .get('/tenant/reminder-policy')
        .set(as(key, { scope: 'receipts:read' }));
      expect(read.status).toBe(403);
      const write = await request(t.server)
        .put('/tenant/reminder-policy')
        .set(as(key, { scope: 'tenant-config:read' }))
        .send({ enabled: false, steps: [] });
      expect(write.status).toBe(403);
    });
  });

  describe('reminders', () => {
    it('sends only the latest step reached, skipping the missed ones; never again', async () => {
      const key = await newTenant();
      const now = today();
      const { demand } = await owing(key, addDays(now, -16));
      // Previewed at due + 9: UPCOMING, DUE and OVERDUE_1 reached; only OVERDUE_1 is due.
      const early = await due(key, addDays(now, -7));
      expect(early.content.map((c) => c.step)).toEqual(['OVERDUE_1']);
      expect(early.content[0].daysPastDue).toBe(9);
      expect(early.content[0].pending.amount).toBe(100000);
      // Today (due + 16): only OVERDUE_2; the four earlier steps are skipped, never sent.
      expect((await due(key)).content.map((c) => c.step)).toEqual(['OVERDUE_2']);
      expect((await run(key)).sent).toBe(1);
      expect(await sentSteps(key, demand.id)).toEqual(['OVERDUE_2']);
      expect((await run(key)).sent).toBe(0);
      expect((await due(key)).totalElements).toBe(0);
      expect((await due(key, addDays(now, -7))).totalElements).toBe(0);
      // Projected: FINAL_NOTICE at due + 30.
      expect((await due(key, addDays(now, 14))).content.map((c) => c.step)).toEqual([
        'FINAL_NOTICE',
      ]);
      const events = await reminderEvents(key);
      expect(events.map((e) => e.data.reminder.step)).toEqual(['OVERDUE_2']);
    });

    it('the UPCOMING step is due before the due date; nothing for paid, cancelled or far-off splits', async () => {
      const key = await newTenant();
      const now = today();
      const soon = await owing(key, addDays(now, 5));
      const paid = await owing(key, addDays(now, -1));
      await recordReceipt(t, key, {
        demandSplit: paid.demand.splits[0].id,
        amount: 100000,
        receivedDate: now,
      });
      const cancelled = await owing(key, addDays(now, -1));
      expect(
        (await post(t, key, `/demands/${cancelled.demand.id}/cancel`, { reason: 'x' })).status,
      ).toBe(200);
      await owing(key, addDays(now, 30));
      const list = await due(key);
      expect(list.content.map((c) => [c.demand, c.step, c.daysPastDue])).toEqual([
        [soon.demand.id, 'UPCOMING', -5],
      ]);
      // A receipt dated after asOf has not paid at asOf.
      expect((await due(key, addDays(now, -1))).content.map((c) => c.demand)).toContain(
        paid.demand.id,
      );
    });

    it('a disabled policy has nothing due', async () => {
      const key = await newTenant();
      await owing(key, addDays(today(), -3));
      expect((await due(key)).totalElements).toBe(1);
      const res = await request(t.server)
        .put('/tenant/reminder-policy')
        .set(as(key))
        .send({ enabled: false, steps: [{ name: 'DUE', offsetDays: 0 }] });
      expect(res.status).toBe(200);
      expect((await due(key)).totalElements).toBe(0);
      expect((await run(key)).sent).toBe(0);
    });

    it("each reminder.due event carries the due entry and that payer's letter (as GET shows it)", async () => {
      const key = await newTenant();
      await account(key, { collection: true });
      const now = today();
      const { demand, booking } = await owing(key, addDays(now, -8), 250000.75);
      const older = await createDemand(t, key, {
        booking: booking.id,
        demandDate: addDays(now, -90),
        dueDate: addDays(now, -40),
        splits: [{ payerType: 'BUYER', payerId: demand.splits[0].payerId, amount: 1000 }],
      });
      await recordReceipt(t, key, {
        demandSplit: older.splits[0].id,
        amount: 1000,
        receivedDate: now,
      });
      // The older demand is paid now, so only the current one is due.
      const listed = (await due(key)).content;
      expect(listed).toHaveLength(1);
      expect((await run(key)).sent).toBe(1);
      const [event] = await reminderEvents(key);
      expect(event.data.reminder).toEqual(listed[0]);
      const letterNow = await letter(
        key,
        demand.id,
        `&asOf=${now}&payerId=${demand.splits[0].payerId}`,
      );
      expect(event.data.letter).toEqual(letterNow);
      expect(event.data.letter.thisDemand.amount).toBe(250000.75);
      expect(event.data.letter.payTo?.accountNumber).toMatch(/^5020\d{10}$/);
    });

    it('two runs at once send each reminder once', async () => {
      const key = await newTenant();
      const now = today();
      for (let i = 0; i < 12; i++) await owing(key, addDays(now, -(i % 40)));
      const expected = (await due(key)).totalElements;
      expect(expected).toBe(12);
      const results = await Promise.all([run(key), run(key), run(key)]);
      expect(results.reduce((a, r) => a + r.sent, 0)).toBe(expected);
      const events = await reminderEvents(key);
      expect(events).toHaveLength(expected);
      expect(new Set(events.map((e) => e.data.reminder.demandSplit)).size).toBe(expected);
      expect((await due(key)).totalElements).toBe(0);
    });

    it('the unique key per split and step refuses a second row even outside a run', async () => {
      // The backstop the runs rely on: the constraint itself, as the database has it.
      const key = await newTenant();
      const { demand } = await owing(key, addDays(today(), -1));
      expect((await run(key)).sent).toBe(1);
      const owner = await ownerDataSource(t.ownerUrl);
      try {
        await expect(
          owner.query(
            `INSERT INTO reminders (tenant_id, demand_split_id, demand_id, step, status, as_of, run_id)
             SELECT tenant_id, demand_split_id, demand_id, step, 'SENT', as_of, gen_random_uuid()
               FROM reminders WHERE demand_id = $1`,
            [demand.id],
          ),
        ).rejects.toThrow(/reminders_split_step_key/);
      } finally {
        await owner.destroy();
      }
    });

    it('a hold keeps reminders back (skippedHeld); ending it still covers today, not tomorrow', async () => {
      const key = await newTenant();
      const now = today();
      const held = await owing(key, addDays(now, -2));
      const free = await owing(key, addDays(now, -2));
      const hold = await post(t, key, `/bookings/${held.booking.id}/collection-holds`, {
        reason: 'Disputes the slab demand',
      });
      expect(hold.status).toBe(201);
      expect(hold.body).toMatchObject({
        booking: held.booking.id,
        reason: 'Disputes the slab demand',
        from: now,
        until: null,
        createdBy: 'tester',
      });
      const again = await post(t, key, `/bookings/${held.booking.id}/collection-holds`, {
        reason: 'again',
      });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('HOLD_ACTIVE');
      expect((await due(key)).content.map((c) => c.booking)).toEqual([free.booking.id]);
      const r = await run(key);
      expect(r).toMatchObject({ sent: 1, skippedHeld: 1 });

      const ended = await request(t.server)
        .delete(`/bookings/${held.booking.id}/collection-holds/${hold.body.id}`)
        .set(as(key));
      expect(ended.status).toBe(200);
      expect(ended.body.until).toBe(now);
      expect((await run(key)).skippedHeld).toBe(1);
      expect((await due(key, addDays(now, 1))).content.map((c) => c.booking)).toEqual([
        held.booking.id,
      ]);
      const twice = await request(t.server)
        .delete(`/bookings/${held.booking.id}/collection-holds/${hold.body.id}`)
        .set(as(key));
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('HOLD_ENDED');
      // A new hold at once; one with until before today is refused.
      expect(
        (await post(t, key, `/bookings/${held.booking.id}/collection-holds`, { reason: 'new' }))
          .status,
      ).toBe(201);
      const past = await post(t, key, `/bookings/${free.booking.id}/collection-holds`, {
        reason: 'x',
        until: addDays(now, -1),
      });
      expect(past.status).toBe(400);
      const types = (await get(t, key, '/events?limit=500')).body.events.map(
        (e: { type: string }) => e.type,
      );
      expect(types.filter((x: string) => x.startsWith('collection-hold.'))).toEqual([
        'collection-hold.created',
        'collection-hold.ended',
        'collection-hold.created',
      ]);
    });

    it('GET /bookings/{id}/collection-holds lists its holds newest first; another tenant 404', async () => {
      const key = await newTenant();
      const other = await newTenant();
      const now = today();
      const { booking } = await owing(key, addDays(now, -2));
      const list = async (k: string, id = booking.id) =>
        request(t.server).get(`/bookings/${id}/collection-holds`).set(as(k));
      const empty = await list(key);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ holds: [] });

      const first = await post(t, key, `/bookings/${booking.id}/collection-holds`, {
        reason: 'Disputes the slab demand',
      });
      expect(first.status).toBe(201);
      const ended = await request(t.server)
        .delete(`/bookings/${booking.id}/collection-holds/${first.body.id}`)
        .set(as(key));
      expect(ended.status).toBe(200);
      const second = await post(t, key, `/bookings/${booking.id}/collection-holds`, {
        reason: 'Loan sanction pending',
        until: addDays(now, 30),
      });
      expect(second.status).toBe(201);
      // Another booking's hold is not this booking's.
      const elsewhere = await owing(key, addDays(now, -2));
      await post(t, key, `/bookings/${elsewhere.booking.id}/collection-holds`, { reason: 'x' });

      const res = await list(key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        holds: [
          {
            id: second.body.id,
            reason: 'Loan sanction pending',
            from: now,
            until: addDays(now, 30),
            endedOn: null,
            createdBy: 'tester',
          },
          {
            id: first.body.id,
            reason: 'Disputes the slab demand',
            from: now,
            until: now,
            endedOn: now,
            createdBy: 'tester',
          },
        ],
      });

      // Another tenant's booking is 404, as if it did not exist; so is an unknown one.
      const cross = await list(other);
      expect(cross.status).toBe(404);
      expect(cross.body.code).toBe('BOOKING_NOT_FOUND');
      expect((await list(key, randomUUID())).status).toBe(404);
      expect((await list(key, 'nope')).status).toBe(400);
      const writeOnly = await request(t.server)
        .get(`/bookings/${booking.id}/collection-holds`)
        .set(as(key, { scope: 'receipts:write' }));
      expect(writeOnly.status).toBe(403);
    });

    it('a run on any day but today is 400 naming asOf and records nothing; the due list still previews it', async () => {
      // The repro: a run for a past date after today's run sent a FINAL_NOTICE for a demand
      // paid since, and UPCOMING for dues already past.
      const key = await newTenant();
      const now = today();
      const paid = await owing(key, addDays(now, -31));
      await recordReceipt(t, key, {
        demandSplit: paid.demand.splits[0].id,
        amount: 100000,
        receivedDate: now,
      });
      await owing(key, addDays(now, -2));
      expect((await run(key)).sent).toBe(1);
      const late = await owing(key, addDays(now, -3));
      const eventsBefore = (await reminderEvents(key)).length;
      expect((await due(key, addDays(now, -1))).content.map((c) => [c.demand, c.step])).toEqual([
        [paid.demand.id, 'FINAL_NOTICE'],
        [late.demand.id, 'DUE'],
      ]);
      expect((await due(key, addDays(now, -8))).content.map((c) => [c.demand, c.step])).toEqual([
        [paid.demand.id, 'OVERDUE_2'],
        [late.demand.id, 'UPCOMING'],
      ]);
      for (const asOf of [addDays(now, -1), addDays(now, -8), '2026-11-01']) {
        const res = await post(t, key, '/reminders/run', { asOf });
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['asOf']);
      }
      expect(await sentSteps(key, paid.demand.id)).toEqual([]);
      expect(await sentSteps(key, late.demand.id)).toEqual([]);
      expect(await reminderEvents(key)).toHaveLength(eventsBefore);
      // Today, sent explicitly, is a run like the default one.
      const explicit = await run(key, now);
      expect(explicit).toMatchObject({ asOf: now, sent: 1 });
      expect(await sentSteps(key, late.demand.id)).toEqual(['DUE']);
      expect(await sentSteps(key, paid.demand.id)).toEqual([]);
    });

    it('a run: asOf after today 400; Idempotency-Key replays; bad due parameters 400', async () => {
      const key = await newTenant();
      await owing(key, addDays(today(), -1));
      const future = await post(t, key, '/reminders/run', { asOf: addDays(today(), 1) });
      expect(future.status).toBe(400);
      expect(future.body.errors[0].field).toBe('asOf');
      const idem = randomUUID();
      const a = await post(t, key, '/reminders/run', {}, { idempotencyKey: idem });
      const b = await post(t, key, '/reminders/run', {}, { idempotencyKey: idem });
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
      expect(a.body.sent).toBe(1);
      for (const q of ['asOf=2026-13-01', 'page=-1', 'size=501', 'sort=dueDate']) {
        expect((await get(t, key, `/reminders/due?${q}`)).status).toBe(400);
      }
    });

    it('cross-tenant: another tenant sees none, its demand and booking are 404; scopes are enforced', async () => {
      const key = await newTenant();
      const other = await newTenant();
      const { demand, booking } = await owing(key, addDays(today(), -1));
      expect((await due(other)).totalElements).toBe(0);
      expect((await run(other)).sent).toBe(0);
      expect((await run(key)).sent).toBe(1);
      expect(await reminderEvents(other)).toHaveLength(0);
      expect((await get(t, other, `/demands/${demand.id}/reminders`)).status).toBe(404);
      expect(
        (await post(t, other, `/bookings/${booking.id}/collection-holds`, { reason: 'x' })).status,
      ).toBe(404);
      const hold = await post(t, key, `/bookings/${booking.id}/collection-holds`, { reason: 'x' });
      const end = await request(t.server)
        .delete(`/bookings/${booking.id}/collection-holds/${hold.body.id}`)
        .set(as(other));
      expect(end.status).toBe(404);
      const readOnly = as(key, { scope: 'receipts:read' });
      expect((await request(t.server).post('/reminders/run').set(readOnly).send({})).status).toBe(
        403,
      );
      expect(
        (
          await request(t.server)
            .post(`/bookings/${booking.id}/collection-holds`)
            .set(readOnly)
            .send({ reason: 'x' })
        ).status,
      ).toBe(403);
      const writeOnly = as(key, { scope: 'receipts:write' });
      expect((await request(t.server).get('/reminders/due').set(writeOnly)).status).toBe(403);
      expect(
        (await request(t.server).get(`/demands/${demand.id}/reminders`).set(writeOnly)).status,
      ).toBe(403);
    });
  });
});
