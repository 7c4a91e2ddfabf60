import { randomUUID } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import request from 'supertest';
import { Clock } from '@/platform/clock/clock';
import { get, post, split } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * The books (docs/returns-and-books.md, "Books"): the settings, and the vouchers of real
 * histories (demands, receipts, a bounce, §7.5 cancels taxed, untaxed and time-barred, a §14
 * cancellation with its credit note and refund, a time-barred §14 cancellation) checked against
 * the statement of account: every voucher balances, each booking's party ledger closes where its
 * statement does, and CGST / SGST net to the invoices less the credit notes.
 */
interface Money {
  amount: number;
}
interface CsvLine {
  date: string;
  voucherType: string;
  voucherNumber: string;
  documentId: string;
  ledger: string;
  debit: string;
  credit: string;
  narration: string;
  booking: string;
}

const GSTIN = '27AAPFU0939F1ZV';
const BUYER = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const ODD_NAME = 'Rao & Sons <HUF> "Anu"';
const paise = (m: Money | number) => Math.round((typeof m === 'number' ? m : m.amount) * 100);
const cents = (text: string) => (text === '' ? 0 : Math.round(Number(text) * 100));

/** RFC 4180 rows of `text` (CRLF ends, quoted cells), the header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('the last row does not end in CRLF');
  return rows;
}

describe('the books: vouchers for TallyPrime and as CSV', () => {
  let t: TestApp;
  let clock: Clock;
  let key: string;
  let other: string;
  const bookings: { id: string; buyerName: string; bookingNumber: string }[] = [];
  const otherIds: string[] = [];

  const on = (date: string) =>
    jest.spyOn(clock, 'now').mockReturnValue(new Date(`${date}T06:30:00Z`));

  const ok = <T>(res: request.Response, status = 201): T => {
    expect([res.status, res.body.code, res.body.errors]).toEqual([status, undefined, undefined]);
    return res.body as T;
  };
  const booking = async (tenant: string, overrides: Record<string, unknown> = {}) => {
    const b = ok<{ id: string; buyerName: string; bookingNumber: string }>(
      await post(t, tenant, '/bookings', {
        unit: randomUUID(),
        unitName: 'Tower B - 1203',
        buyerName: 'Ananya Iyer',
        bookingDate: '2026-01-10',
        allotmentDate: '2026-05-01',
        agreementValue: 8000000,
        buyerAddress: '12 Marine Drive, Mumbai',
        ...overrides,
      }),
    );
    if (tenant === key) bookings.push(b);
    return b;
  };
  const demand = async (
    tenant: string,
    bookingId: string,
    amount: number,
    date: string,
    overrides: Record<string, unknown> = {},
  ) =>
    ok<{ id: string; splits: { id: string }[] }>(
      await post(t, tenant, '/demands', {
        booking: bookingId,
        milestone: null,
        demandType: 'MANUAL',
        totalAmount: amount,
        dueDate: date,
        demandDate: date,
        remarks: 'Slab, 4th floor',
        splits: [split(amount, 'BUYER', BUYER)],
        ...overrides,
      }),
    );
  const pay = async (
    tenant: string,
    splitId: string,
    amount: number,
    date: string,
    mode = 'NEFT',
  ) =>
    ok<{ id: string }>(
      await post(t, tenant, '/receipts', {
        demandSplit: splitId,
        amount,
        paymentMode: mode,
        transactionRef: `UTR${randomUUID().slice(0, 8)}`,
        receivedDate: date,
      }),
    );
  const vouchers = (tenant: string, query: string) =>
    request(t.server).get(`/books/vouchers?${query}`).set(as(tenant)).buffer(true);
  const csv = async (tenant: string, from: string, to: string): Promise<CsvLine[]> => {
    const res = await vouchers(tenant, `from=${from}&to=${to}&format=csv`);
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(res.text.replace(/^\uFEFF/, ''));
    return rows.map(
      (r) => Object.fromEntries(header.map((h, i) => [h, r[i]])) as unknown as CsvLine,
    );
  };

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.app.get(Clock);
    key = (await t.createTenant()).key;
    other = (await t.createTenant()).key;
    for (const tenant of [key, other]) {
      ok(
        await request(t.server).put('/tenant/gst').set(as(tenant)).send({
          enabled: true,
          gstin: GSTIN,
          legalName: 'Skyline Developers Private Limited',
          address: 'Plot 7, Andheri East, Mumbai 400069',
        }),
        200,
      );
    }
    ok(
      await request(t.server)
        .put('/tenant/interest-policy')
        .set(as(key))
        .send({
          enabled: true,
          graceDays: 0,
          rates: [{ effectiveFrom: '2020-01-01', annualRatePercent: 11.1 }],
          demandTypes: ['MILESTONE', 'MANUAL'],
          payerTypes: ['BUYER', 'CO_BUYER'],
        }),
      200,
    );

    // March: invoices of FY 2025-26, whose credit window closes on 30 November 2026.
    on('2026-03-10');
    const late = await booking(key, { allotmentDate: '2026-01-10' });
    const lateDemand = await demand(key, late.id, 1000000, '2026-03-10');
    const latePaid = await booking(key, { allotmentDate: '2026-01-10' });
    const latePaidDemand = await demand(key, latePaid.id, 1000000, '2026-03-10');
    await pay(key, latePaidDemand.splits[0].id, 1050000, '2026-03-10');

    // June: the worked example of 14.2 plus a bounce with charges, then its cancellation.
    on('2026-06-20');
    const worked = await booking(key, { buyerName: ODD_NAME });
    const d1 = await demand(key, worked.id, 800000, '2026-05-02');
    const d2 = await demand(key, worked.id, 1000000, '2026-06-05');
    const d3 = await demand(key, worked.id, 50000, '2026-06-05', { chargeType: 'OTHER_CHARGES' });
    await pay(key, d1.splits[0].id, 840000, '2026-05-02');
    await pay(key, d2.splits[0].id, 525000, '2026-06-05');
    await pay(key, d3.splits[0].id, 59000, '2026-06-05');
    const bounced = await pay(key, d2.splits[0].id, 100000, '2026-06-06', 'CHEQUE');
    ok(
      await post(t, key, `/receipts/${bounced.id}/bounce`, {
        reason: 'Insufficient funds',
        bouncedOn: '2026-06-10',
        charges: 500,
      }),
      200,
    );

    // §7.5: a taxed demand cancelled whole (credit note); a receipt cancelled, then its demand.
    const plain = await booking(key);
    const d4 = await demand(key, plain.id, 200000, '2026-06-01');
    ok(await post(t, key, `/demands/${d4.id}/cancel`, { reason: 'Raised twice' }), 200);
    const d5 = await demand(key, plain.id, 300000, '2026-06-02');
    const wrong = await pay(key, d5.splits[0].id, 100000, '2026-06-03', 'TDS');
    const cash = await pay(key, d5.splits[0].id, 50000, '2026-06-03', 'CASH');
    await pay(key, d5.splits[0].id, 165000, '2026-06-04', 'UPI');
    ok(await post(t, key, `/receipts/${wrong.id}/cancel`, { reason: 'Typed twice' }), 200);
    expect(cash.id).toBeDefined();

    // An exempt booking: untaxed demands, one cancelled (an untaxed credit note).
    const exempt = await booking(key, { gstExempt: true });
    const d6 = await demand(key, exempt.id, 400000, '2026-06-05');
    await demand(key, exempt.id, 250000, '2026-06-06');
    ok(await post(t, key, `/demands/${d6.id}/cancel`, { reason: 'Wrong unit' }), 200);

    const cancelled = ok<{ id: string }>(
      await post(t, key, `/bookings/${worked.id}/cancellations`, {
        reason: 'Buyer withdrew',
        requestedOn: '2026-06-20',
      }),
    );

    // August: the refund, late, with interest.
    on('2026-08-14');
    ok(
      await post(t, key, `/cancellations/${cancelled.id}/refund`, {
        paidOn: '2026-08-14',
        paymentMode: 'NEFT',
        transactionRef: 'UTR0814',
      }),
      200,
    );

    // December: past the window: a time-barred §7.5 cancel and a time-barred §14 cancellation.
    on('2026-12-01');
    ok(await post(t, key, `/demands/${lateDemand.id}/cancel`, { reason: 'Unit merged' }), 200);
    ok(await post(t, key, `/bookings/${latePaid.id}/cancellations`, { reason: 'Withdrew' }));

    // The other tenant: a demand, a receipt and a cancel of its own.
    on('2026-06-20');
    const theirs = await booking(other);
    const theirDemand = await demand(other, theirs.id, 500000, '2026-06-01');
    const theirReceipt = await pay(other, theirDemand.splits[0].id, 100000, '2026-06-02');
    otherIds.push(theirs.id, theirDemand.id, theirReceipt.id);
    on('2026-12-01');
  });
  afterEach(() => on('2026-12-01'));
  afterAll(() => t?.close());

  const partyOf = (b: { buyerName: string; bookingNumber: string }) =>
    `${b.buyerName} (${b.bookingNumber})`;

  it.each(['2026-03-31', '2026-06-10', '2026-06-20', '2026-08-14', '2026-12-01'])(
    'up to %s: balanced, each party ledger at its statement closing balance, GST as documented',
    async (to) => {
      const lines = await csv(key, '2026-01-01', to);
      expect(lines.length).toBeGreaterThan(0);
      const byVoucher = new Map<string, number>();
      for (const l of lines) {
        expect(l.date <= to && l.date >= '2026-01-01').toBe(true);
        expect(l.debit === '' || l.credit === '').toBe(true);
        expect(cents(l.debit) + cents(l.credit)).toBeGreaterThan(0);
        byVoucher.set(
          l.documentId,
          (byVoucher.get(l.documentId) ?? 0) + cents(l.debit) - cents(l.credit),
        );
      }
      for (const [id, net] of byVoucher) expect([id, net]).toEqual([id, 0]);
      const balances: number[] = [];

      for (const b of bookings) {
        const party = lines
          .filter((l) => l.ledger === partyOf(b))
          .reduce((sum, l) => sum + cents(l.debit) - cents(l.credit), 0);
        expect(lines.filter((l) => l.ledger === partyOf(b) && l.booking !== b.id)).toEqual([]);
        const statement = await get(
          t,
          key,
          `/bookings/${b.id}/statement?format=json&asOf=${to}&to=${to}`,
        );
        expect(statement.status).toBe(200);
        expect([b.bookingNumber, party]).toEqual([
          b.bookingNumber,
          paise(statement.body.closingBalance as Money),
        ]);
        balances.push(party);
      }
      expect(balances.some((b) => b !== 0)).toBe(true);
      // The cancelled worked example: the developer owes the refund, then nothing.
      const worked = bookings.find((b) => b.buyerName === ODD_NAME)!;
      const workedBalance = balances[bookings.indexOf(worked)];
      if (to === '2026-06-20') expect(workedBalance).toBe(-129800000);
      if (to >= '2026-08-14') expect(workedBalance).toBe(0);

      // Σ CGST (SGST) credits − debits = the invoices' − the credit notes' CGST (SGST).
      const net = (ledger: string) =>
        lines
          .filter((l) => l.ledger === ledger)
          .reduce((sum, l) => sum + cents(l.credit) - cents(l.debit), 0);
      let cgst = 0;
      let sgst = 0;
      for (const b of bookings) {
        const demands = await request(t.server)
          .post('/demands/search')
          .set(as(key))
          .send([{ field: 'booking', query: b.id, type: 'EQUALS' }]);
        expect(demands.status).toBe(200);
        for (const d of demands.body.content as {
          demandDate: string;
          tax: { cgst: Money; sgst: Money } | null;
        }[]) {
          if (d.tax === null || d.demandDate > to) continue;
          cgst += paise(d.tax.cgst);
          sgst += paise(d.tax.sgst);
        }
      }
      const notes = await get(t, key, `/credit-notes?from=2026-01-01&to=${to}&size=100`);
      expect(notes.status).toBe(200);
      for (const n of notes.body.content as { id: string }[]) {
        const note = await get(t, key, `/credit-notes/${n.id}?format=json`);
        cgst -= paise(note.body.totals.cgst as Money);
        sgst -= paise(note.body.totals.sgst as Money);
      }
      expect([net('Output CGST'), net('Output SGST')]).toEqual([cgst, sgst]);
    },
  );

  it('writes every kind of voucher, numbered and identified as the contract says', async () => {
    const lines = await csv(key, '2026-01-01', '2026-12-01');
    const kinds = new Set(lines.map((l) => `${l.voucherType}:${l.documentId.split(':')[1]}`));
    expect([...kinds].sort()).toEqual([
      'Credit Note:CREDIT',
      'Journal:REVERSAL',
      'Journal:WRITEOFF',
      'Payment:REFUND',
      'Receipt:RECEIPT',
      'Sales:SALE',
    ]);
    for (const l of lines) expect(l.documentId).toMatch(/^[0-9a-f-]{36}:[A-Z]+$/);
    const sales = lines.filter((l) => l.voucherType === 'Sales');
    // Taxed demands carry their invoice number; untaxed ones (exempt, bounce charges) theirs.
    expect(sales.some((l) => l.voucherNumber.startsWith('INV/'))).toBe(true);
    expect(sales.some((l) => !l.voucherNumber.startsWith('INV/'))).toBe(true);
    const ledgers = new Set(lines.map((l) => l.ledger));
    for (const ledger of [
      'Sales - Construction',
      'Other Charges',
      'Output CGST',
      'Output SGST',
      'TDS Receivable u/s 194-IA',
      'Interest on Refunds',
      'GST Written Off',
      'Bank',
      'Cash',
    ]) {
      expect([ledger, ledgers.has(ledger)]).toEqual([ledger, true]);
    }
  });

  it('CSV: byte order mark, the header, CRLF line ends, plain decimals', async () => {
    const res = await vouchers(key, 'from=2026-06-01&to=2026-06-30&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="vouchers-.+-20260601-20260630\.csv"$/,
    );
    expect(
      res.text.startsWith(
        '\uFEFFdate,voucherType,voucherNumber,documentId,ledger,debit,credit,narration,booking\r\n',
      ),
    ).toBe(true);
    expect(res.text.endsWith('\r\n')).toBe(true);
    expect(res.text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const lines = await csv(key, '2026-06-01', '2026-06-30');
    for (const l of lines) {
      for (const amount of [l.debit, l.credit]) expect(amount).toMatch(/^(|\d+\.\d\d)$/);
    }
    expect(lines.some((l) => l.ledger === `${ODD_NAME} (${bookings[2].bookingNumber})`)).toBe(true);
  });

  it('Tally: a well-formed, escaped envelope whose vouchers are the CSV, debits negative', async () => {
    ok(
      await request(t.server).put('/tenant/books').set(as(key)).send({ company: 'A & B <Co> "X"' }),
      200,
    );
    const res = await vouchers(key, 'from=2026-01-01&to=2026-12-01&format=tally');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.text).toContain('A &amp; B &lt;Co&gt;');
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      parseTagValue: false,
      isArray: (name) => ['TALLYMESSAGE', 'ALLLEDGERENTRIES.LIST'].includes(name),
    }).parse(res.text) as {
      ENVELOPE: {
        HEADER: { TALLYREQUEST: string };
        BODY: {
          IMPORTDATA: {
            REQUESTDESC: { REPORTNAME: string; STATICVARIABLES: { SVCURRENTCOMPANY: string } };
            REQUESTDATA: {
              TALLYMESSAGE: {
                VOUCHER: {
                  '@_VCHTYPE': string;
                  '@_ACTION': string;
                  '@_REMOTEID': string;
                  DATE: string;
                  VOUCHERTYPENAME: string;
                  VOUCHERNUMBER: string;
                  PARTYLEDGERNAME: string;
                  NARRATION: string;
                  'ALLLEDGERENTRIES.LIST': {
                    LEDGERNAME: string;
                    ISDEEMEDPOSITIVE: string;
                    AMOUNT: string;
                  }[];
                };
              }[];
            };
          };
        };
      };
    };
    const envelope = parsed.ENVELOPE;
    expect(envelope.HEADER.TALLYREQUEST).toBe('Import Data');
    const data = envelope.BODY.IMPORTDATA;
    expect(data.REQUESTDESC.REPORTNAME).toBe('Vouchers');
    expect(data.REQUESTDESC.STATICVARIABLES.SVCURRENTCOMPANY).toBe('A & B <Co> "X"');
    const lines = await csv(key, '2026-01-01', '2026-12-01');
    const messages = data.REQUESTDATA.TALLYMESSAGE;
    expect(messages.map((m) => m.VOUCHER['@_REMOTEID'])).toEqual([
      ...new Set(lines.map((l) => l.documentId)),
    ]);
    for (const { VOUCHER: v } of messages) {
      expect(v['@_VCHTYPE']).toBe(v.VOUCHERTYPENAME);
      expect(v['@_ACTION']).toBe('Create');
      expect(v.DATE).toMatch(/^2026\d{4}$/);
      const entries = v['ALLLEDGERENTRIES.LIST'];
      expect(entries.reduce((sum, e) => sum + cents(e.AMOUNT), 0)).toBe(0);
      for (const e of entries) {
        expect(e.ISDEEMEDPOSITIVE).toBe(cents(e.AMOUNT) < 0 ? 'Yes' : 'No');
        const csvLine = lines.find(
          (l) => l.documentId === v['@_REMOTEID'] && l.ledger === e.LEDGERNAME,
        )!;
        expect(cents(csvLine.credit) - cents(csvLine.debit)).toBe(cents(e.AMOUNT));
      }
    }
    const odd = messages.filter((m) => m.VOUCHER.PARTYLEDGERNAME.startsWith(ODD_NAME));
    expect(odd.length).toBeGreaterThan(0);
    expect(res.text).toContain('Rao &amp; Sons &lt;HUF&gt; &quot;Anu&quot;');
    ok(await request(t.server).put('/tenant/books').set(as(key)).send({}), 200);
  });

  it('Tally masters: every ledger the vouchers use, once, party ledgers under Sundry Debtors', async () => {
    const res = await vouchers(key, 'from=2026-01-01&to=2026-12-01&format=tally-masters');
    expect(res.status).toBe(200);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      isArray: (name) => name === 'TALLYMESSAGE',
    }).parse(res.text) as {
      ENVELOPE: {
        BODY: {
          IMPORTDATA: {
            REQUESTDESC: { REPORTNAME: string };
            REQUESTDATA: {
              TALLYMESSAGE: { LEDGER: { '@_NAME': string; '@_ACTION': string; PARENT: string } }[];
            };
          };
        };
      };
    };
    const data = parsed.ENVELOPE.BODY.IMPORTDATA;
    expect(data.REQUESTDESC.REPORTNAME).toBe('All Masters');
    const ledgers = data.REQUESTDATA.TALLYMESSAGE.map((m) => m.LEDGER);
    const names = ledgers.map((l) => l['@_NAME']);
    const lines = await csv(key, '2026-01-01', '2026-12-01');
    expect([...names].sort()).toEqual([...new Set(lines.map((l) => l.ledger))].sort());
    for (const b of bookings) {
      expect(ledgers.find((l) => l['@_NAME'] === partyOf(b))?.PARENT).toBe('Sundry Debtors');
    }
    expect(ledgers.find((l) => l['@_NAME'] === 'Output CGST')?.PARENT).toBe('Duties & Taxes');
  });

  it("never shows another tenant's documents", async () => {
    const mine = await csv(key, '2026-01-01', '2026-12-01');
    const theirs = await csv(other, '2026-01-01', '2026-12-01');
    const ids = (lines: CsvLine[]) =>
      new Set(lines.flatMap((l) => [l.booking, l.documentId.split(':')[0]]));
    for (const id of otherIds) expect(ids(mine).has(id)).toBe(false);
    expect(ids(theirs).has(otherIds[0])).toBe(true);
    for (const b of bookings) expect(ids(theirs).has(b.id)).toBe(false);
  });

  it('refuses a bad period or format: 400 problem+json naming the field', async () => {
    for (const [query, field] of [
      ['to=2026-01-31', 'from'],
      ['from=2026-01-01', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=2026-03-01&to=2026-02-28', 'to'],
      ['from=2026-01-01&to=2027-01-03', 'to'],
      ['from=2026-01-01&to=2026-01-31&format=xlsx', 'format'],
    ]) {
      const res = await vouchers(key, query);
      expect([query, res.status, res.headers['content-type']]).toEqual([
        query,
        400,
        'application/problem+json; charset=utf-8',
      ]);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // 366 days is a leap year's span.
    expect((await vouchers(key, 'from=2026-01-01&to=2027-01-02')).status).toBe(200);
  });

  it('settings: defaults, ETag and If-Match, PUT replaces, per tenant', async () => {
    const fresh = (await t.createTenant()).key;
    const defaults = await get(t, fresh, '/tenant/books');
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({
      company: expect.any(String),
      partyLedger: '{buyerName} ({bookingNumber})',
      partyGroup: 'Sundry Debtors',
      ledgers: {
        construction: 'Sales - Construction',
        otherCharges: 'Other Charges',
        interest: 'Interest on Delayed Payment',
        cgst: 'Output CGST',
        sgst: 'Output SGST',
        tds: 'TDS Receivable u/s 194-IA',
        refundInterest: 'Interest on Refunds',
        gstNotRecoverable: 'GST Written Off',
        bank: 'Bank',
        cash: 'Cash',
      },
    });
    const put = (body: object, ifMatch?: string) => {
      const req = request(t.server).put('/tenant/books').set(as(fresh));
      if (ifMatch) req.set('If-Match', ifMatch);
      return req.send(body);
    };
    const changed = await put(
      { partyLedger: '{bookingNumber} - {unit}', ledgers: { cgst: 'CGST Payable' } },
      defaults.headers.etag,
    );
    expect(changed.status).toBe(200);
    expect(changed.body.ledgers).toEqual({ ...defaults.body.ledgers, cgst: 'CGST Payable' });
    expect(changed.headers.etag).not.toBe(defaults.headers.etag);
    const stale = await put({}, defaults.headers.etag);
    expect([stale.status, stale.body.code]).toEqual([412, 'BOOKS_SETTINGS_CHANGED']);
    // An omitted field takes its default again.
    const replaced = await put({ ledgers: { bank: 'HDFC' } }, changed.headers.etag);
    expect(replaced.body).toEqual({
      ...defaults.body,
      ledgers: { ...defaults.body.ledgers, bank: 'HDFC' },
    });
    for (const body of [
      { partyLedger: '{buyerName}' },
      { partyLedger: '{bookingNumber} {flat}' },
      { ledgers: { cash: '  ' } },
      { ledgers: { till: 'Cash' } },
      { partyGroup: 'x'.repeat(101) },
    ]) {
      const res = await put(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([
        JSON.stringify(body),
        400,
        'VALIDATION_FAILED',
      ]);
    }
    // Another tenant's settings are its own.
    expect((await get(t, key, '/tenant/books')).body.ledgers.bank).toBe('Bank');
    // And its vouchers use them (none here: nothing was recorded).
    const empty = await vouchers(fresh, 'from=2026-01-01&to=2026-12-01&format=csv');
    expect(empty.text).toBe(
      '\uFEFFdate,voucherType,voucherNumber,documentId,ledger,debit,credit,narration,booking\r\n',
    );
  });
});
