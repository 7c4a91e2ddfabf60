import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Client } from 'pg';
import { createHash } from 'node:crypto';
import {
  INSERT_LINES_SQL,
  insertLinesParams,
  INSERT_STATEMENT_SQL,
  insertStatementParams,
  LineColumns,
} from '@/bank/bank.sql';
import { writeHdfcStatement, HdfcTransaction } from '@/bank/statements/hdfc-csv-writer';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

const FIXTURES = join(__dirname, 'fixtures', 'bank');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const HDFC_NUMBER = '50200012345678';

interface Money {
  amount: number;
  currency: string;
  currencySymbol: string;
  formatted: string;
}
interface ImportView {
  id: string;
  format: string;
  layout: string | null;
  lines: number;
  imported: number;
  duplicates: number;
  possibleDuplicates: number;
  pending: number;
  from: string | null;
  to: string | null;
  openingBalance: Money | null;
  closingBalance: Money | null;
  balanceCheck: string;
  firstMismatchLine: number | null;
  matched: { auto: number; suggested: number; unmatched: number };
}
interface LineView {
  id: string;
  sequence: number;
  valueDate: string;
  bookingDate: string | null;
  direction: string;
  amount: Money;
  narration: string;
  reference: string;
  utr: string | null;
  chequeNumber: string | null;
  balance: Money | null;
  status: string;
  possibleDuplicate: boolean;
  matches: unknown[];
  suggestions: unknown[];
}

/** Bank accounts and statement import (docs/bank.md). */
describe('bank accounts and statement import', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = await ownerDataSource(t.ownerUrl);
  });
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  const tenantKey = async () => (await t.createTenant()).key;
  const createAccount = async (key: string, body: Record<string, unknown> = {}) => {
    const res = await request(t.server)
      .post('/bank-accounts')
      .set(as(key))
      .send({
        name: 'HDFC collections',
        accountNumber: HDFC_NUMBER,
        ifsc: 'HDFC0001234',
        currency: 'INR',
        ...body,
      });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; accountNumber: string };
  };
  const upload = (
    key: string,
    accountId: string,
    body: Buffer | string,
    query = '',
    contentType = 'application/octet-stream',
  ) =>
    request(t.server)
      .post(`/bank-accounts/${accountId}/statements${query}`)
      .set(as(key))
      .set('content-type', contentType)
      .send(Buffer.from(body));
  const imported = async (key: string, accountId: string, body: Buffer | string, query = '') => {
    const res = await upload(key, accountId, body, query);
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as ImportView;
  };
  const allLines = async (key: string, accountId: string, query = '') => {
    const lines: LineView[] = [];
    let after = 0;
    for (;;) {
      const res = await request(t.server)
        .get(`/bank-accounts/${accountId}/lines?after=${after}&limit=5${query}`)
        .set(as(key));
      expect(res.status).toBe(200);
      const page = res.body as { lines: LineView[]; nextAfter: number };
      lines.push(...page.lines);
      if (page.nextAfter === after) return lines;
      after = page.nextAfter;
    }
  };
  const counts = async (accountId: string) => {
    const [row] = await db.query<{ lines: number; statements: number; keys: number }[]>(
      `SELECT (SELECT count(*)::int FROM bank_lines WHERE bank_account_id = $1) AS lines,
              (SELECT count(DISTINCT line_key)::int FROM bank_lines WHERE bank_account_id = $1) AS keys,
              (SELECT count(*)::int FROM bank_statements WHERE bank_account_id = $1) AS statements`,
      [accountId],
    );
    return row;
  };
  const events = async (key: string, type: string) => {
    const res = await request(t.server).get(`/events?type=${type}&limit=500`).set(as(key));
    return (res.body as { events: { data: Record<string, unknown> }[] }).events;
  };

  describe('accounts', () => {
    it('creates, masks the number everywhere, lists and reads; the event carries the masked view', async () => {
      const key = await tenantKey();
      const res = await request(t.server).post('/bank-accounts').set(as(key)).send({
        name: 'HDFC collections',
        accountNumber: '5020 0012-3456 78',
        ifsc: 'HDFC0001234',
        currency: 'INR',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'HDFC collections',
        accountNumber: 'XXXXXXXXXX5678',
        ifsc: 'HDFC0001234',
        currency: 'INR',
        collection: false,
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const [stored] = await db.query<{ account_number: string }[]>(
        'SELECT account_number FROM bank_accounts WHERE id = $1',
        [res.body.id],
      );
      expect(stored.account_number).toBe(HDFC_NUMBER);
      const one = await request(t.server).get(`/bank-accounts/${res.body.id}`).set(as(key));
      expect(one.body).toEqual(res.body);
      const list = await request(t.server).get('/bank-accounts').set(as(key));
      expect(list.body).toEqual({ accounts: [res.body] });
      expect((await events(key, 'bank-account.created')).map((e) => e.data)).toEqual([res.body]);
    });

    it('the same account number twice in a tenant is 409 BANK_ACCOUNT_EXISTS; another tenant may have it', async () => {
      const key = await tenantKey();
      await createAccount(key);
      const again = await request(t.server)
        .post('/bank-accounts')
        .set(as(key))
        .send({ name: 'Again', accountNumber: '502-000-123-456-78', currency: 'INR' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 'BANK_ACCOUNT_EXISTS',
        detail: expect.stringContaining('XXXXXXXXXX5678'),
      });
      expect(JSON.stringify(again.body)).not.toContain(HDFC_NUMBER);
      await createAccount(await tenantKey());
    });

    it('checks the fields: 400 VALIDATION_FAILED naming each', async () => {
      const key = await tenantKey();
      const res = await request(t.server)
        .post('/bank-accounts')
        .set(as(key))
        .send({ name: ' ', accountNumber: '12/34', ifsc: 'HDFC1234567', currency: 'RUPEES' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'accountNumber',
        'currency',
        'ifsc',
        'name',
      ]);
      const short = await request(t.server)
        .post('/bank-accounts')
        .set(as(key))
        .send({ name: 'X', accountNumber: '12345', currency: 'INR' });
      expect(short.status).toBe(400);
      const iban = await request(t.server)
        .post('/bank-accounts')
        .set(as(key))
        .send({ name: 'NRI', accountNumber: 'de89 3704 0044 0532 0130 00', currency: 'EUR' });
      expect(iban.status).toBe(201);
      expect(iban.body).toMatchObject({ accountNumber: 'XXXXXXXXXXXXXXXXXX3000', ifsc: null });
    });

    it("another tenant's account is 404 on every route; scopes are required", async () => {
      const key = await tenantKey();
      const other = await tenantKey();
      const account = await createAccount(key);
      expect(
        (await request(t.server).get(`/bank-accounts/${account.id}`).set(as(other))).status,
      ).toBe(404);
      expect(
        (await request(t.server).get(`/bank-accounts/${account.id}/lines`).set(as(other))).status,
      ).toBe(404);
      const foreign = await upload(other, account.id, fixture('hdfc-2025-11.csv'));
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('BANK_ACCOUNT_NOT_FOUND');
      expect((await request(t.server).get('/bank-accounts').set(as(other))).body).toEqual({
        accounts: [],
      });

      const readOnly = as(key, { scope: 'bank:read' });
      const writeOnly = as(key, { scope: 'bank:write' });
      const noBank = as(key, { scope: 'receipts:read receipts:write' });
      expect((await request(t.server).post('/bank-accounts').set(readOnly).send({})).status).toBe(
        403,
      );
      expect((await request(t.server).get('/bank-accounts').set(writeOnly)).status).toBe(403);
      expect((await request(t.server).get(`/bank-accounts/${account.id}`).set(noBank)).status).toBe(
        403,
      );
      expect(
        (await request(t.server).get(`/bank-accounts/${account.id}/lines`).set(writeOnly)).status,
      ).toBe(403);
      const upload403 = await request(t.server)
        .post(`/bank-accounts/${account.id}/statements`)
        .set(readOnly)
        .send(fixture('hdfc-2025-11.csv'));
      expect(upload403.status).toBe(403);
      expect(upload403.body.code).toBe('INSUFFICIENT_SCOPE');
    });
  });

  describe('import', () => {
    it('hdfc: 201 with the summary; every line UNMATCHED; utr and cheque numbers read; the event written', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      const res = await upload(key, account.id, fixture('hdfc-2025-11.csv'), '', 'text/csv');
      expect(res.status).toBe(201);
      const inr = (amount: number, formatted: string) => ({
        amount,
        currency: 'INR',
        currencySymbol: '₹',
        formatted,
      });
      expect(res.body).toEqual({
        id: expect.any(String),
        format: 'csv',
        layout: 'hdfc',
        lines: 17,
        imported: 17,
        duplicates: 0,
        possibleDuplicates: 0,
        pending: 0,
        from: '2025-11-01',
        to: '2025-11-30',
        openingBalance: inr(1234567.89, '12,34,567.89'),
        closingBalance: inr(3044413.39, '30,44,413.39'),
        balanceCheck: 'OK',
        firstMismatchLine: null,
        matched: { auto: 0, suggested: 0, unmatched: 12 },
      });
      const lines = await allLines(key, account.id);
      expect(lines.map((l) => l.sequence)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
      expect(new Set(lines.map((l) => l.status))).toEqual(new Set(['UNMATCHED']));
      expect(lines[0]).toEqual({
        id: expect.any(String),
        sequence: 1,
        valueDate: '2025-11-01',
        bookingDate: '2025-11-01',
        direction: 'CREDIT',
        amount: inr(150000, '1,50,000.00'),
        narration:
          'UPI-RAJESH KUMAR SHARMA-rajeshks@okhdfcbank-HDFC0000123-530512345678-BOOKING A-1203',
        reference: '0000530512345678',
        utr: '530512345678',
        chequeNumber: null,
        balance: inr(1384567.89, '13,84,567.89'),
        status: 'UNMATCHED',
        possibleDuplicate: false,
        matches: [],
        suggestions: [],
      });
      expect(lines.map((l) => l.utr ?? l.chequeNumber)).toEqual([
        '530512345678',
        null,
        'SBINN52531012345',
        'ICICR52025110400012345',
        '004512',
        '530612345678',
        '004512',
        '004512',
        '531012345670',
        null,
        'UTIBN52531412345',
        'UTIBRC2025111712345678',
        '532412345678',
        '532412345679',
        null,
        'HDFCN52533212345',
        null,
      ]);
      const [event] = await events(key, 'bank-statement.imported');
      expect(event.data).toEqual(res.body);

      const detail = await request(t.server).get(`/bank-lines/${lines[4].id}`).set(as(key));
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual({
        ...lines[4],
        statement: res.body.id,
        bankAccount: account.id,
        fileLine: 24,
        raw: '05/11/25,"CHQ DEP - MICR CTS - MUMBAI CLEARING - 004512",0000000000004512,06/11/25,,"85,000.00","29,92,207.89"',
        history: [],
      });
      const other = await tenantKey();
      expect(
        (await request(t.server).get(`/bank-lines/${lines[4].id}`).set(as(other))).status,
      ).toBe(404);
      expect(
        (
          await request(t.server)
            .get(`/bank-lines/${lines[4].id}`)
            .set(as(key, { scope: 'bank:write' }))
        ).status,
      ).toBe(403);
    });

    it('the same file again is 200 with the first import and nothing new (no second event)', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      const first = await imported(key, account.id, fixture('hdfc-2025-11.csv'));
      const again = await upload(
        key,
        account.id,
        fixture('hdfc-2025-11.csv'),
        '?format=csv&layout=hdfc',
      );
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first);
      expect(await counts(account.id)).toEqual({ lines: 17, keys: 17, statements: 1 });
      expect(await events(key, 'bank-statement.imported')).toHaveLength(1);
    });

    it('an overlapping statement imports only its new lines', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      await imported(key, account.id, fixture('hdfc-2025-11.csv'));
      const overlap = await imported(key, account.id, fixture('hdfc-2025-11-overlap.csv'));
      expect(overlap).toMatchObject({
        lines: 7,
        imported: 3,
        duplicates: 4,
        from: '2025-11-20',
        to: '2025-12-02',
        balanceCheck: 'OK',
        matched: { auto: 0, suggested: 0, unmatched: 2 },
      });
      const lines = await allLines(key, account.id);
      expect(lines).toHaveLength(20);
      // Numbered after the first file's 17 by their place in the file: the 4 duplicates before
      // them leave 18 to 21 unused.
      expect(lines.slice(17).map((l) => [l.sequence, l.valueDate, l.amount.amount])).toEqual([
        [22, '2025-12-01', 150000],
        [23, '2025-12-02', 275000],
        [24, '2025-12-02', 17.7],
      ]);
    });

    it('the same payments in another format are imported and flagged as possible duplicates', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      await imported(key, account.id, fixture('hdfc-2025-11.csv'));
      const camt = await imported(key, account.id, fixture('camt053-v08-2025-11.xml'));
      // UPI 150000 on 1 Nov (RRN) and NEFT 275000 on 3 Nov (UTR) are in both files.
      expect(camt).toMatchObject({
        format: 'camt053',
        layout: null,
        lines: 8,
        imported: 8,
        duplicates: 0,
        possibleDuplicates: 2,
        pending: 1,
      });
      const flagged = (await allLines(key, account.id)).filter((l) => l.possibleDuplicate);
      expect(flagged.map((l) => [l.valueDate, l.amount.amount, l.reference])).toEqual([
        ['2025-11-01', 150000, '530512345678'],
        ['2025-11-03', 275000, 'SBINN52531012345'],
      ]);
      const mt940 = await imported(key, account.id, fixture('mt940-2025-11.sta'));
      // Against both the CSV and the camt lines: UPI, NEFT, cheque deposit and return, charges...
      expect(mt940).toMatchObject({
        format: 'mt940',
        lines: 8,
        imported: 8,
        possibleDuplicates: 6,
      });
    });

    it.each([
      [
        'icici-2025-11-cp1252.csv',
        '000405012345',
        '',
        { layout: 'icici', lines: 7, unmatched: 5, opening: 812345.6, closing: 805000.6 },
      ],
      [
        'sbi-2025-11.xls.txt',
        '30123456789',
        '',
        { layout: 'sbi', lines: 5, unmatched: 3, opening: 523400, closing: 813400 },
      ],
      [
        'axis-2025-11.csv',
        '912020012345678',
        '',
        { layout: 'axis', lines: 5, unmatched: 3, opening: 45000, closing: 454823 },
      ],
      [
        'kotak-2025-11-newest-first.csv',
        '4512345678',
        '',
        { layout: 'kotak', lines: 4, unmatched: 3, opening: 150000, closing: 355000 },
      ],
      [
        'generic-idfc-2025-11.csv',
        '10012345678',
        `?columns=${encodeURIComponent('date:Txn Date,narration:Particulars,reference:Ref No,amount:Amount,drcr:Dr/Cr,balance:Running Balance')}&dateFormat=DD-MMM-YYYY`,
        { layout: 'generic', lines: 3, unmatched: 2, opening: 10000, closing: 119410 },
      ],
    ])('%s', async (file, accountNumber, query, expected) => {
      const key = await tenantKey();
      const account = await createAccount(key, { accountNumber });
      const res = await imported(key, account.id, fixture(file), query);
      expect(res).toMatchObject({
        format: 'csv',
        layout: expected.layout,
        lines: expected.lines,
        imported: expected.lines,
        balanceCheck: 'OK',
        matched: { auto: 0, suggested: 0, unmatched: expected.unmatched },
      });
      expect(res.openingBalance?.amount).toBe(expected.opening);
      expect(res.closingBalance?.amount).toBe(expected.closing);
      expect(await allLines(key, account.id)).toHaveLength(expected.lines);
    });

    it('reads Windows-1252 text as such', async () => {
      const key = await tenantKey();
      const account = await createAccount(key, { accountNumber: '000405012345' });
      await imported(key, account.id, fixture('icici-2025-11-cp1252.csv'));
      const lines = await allLines(key, account.id);
      expect(lines[5].narration).toBe('NEFT-HDFCN52531912345-M/S CAFÉ CORNER – SHOP 4 RENT');
    });

    it('camt.053 v02 in EUR: an IBAN account in its own currency', async () => {
      const key = await tenantKey();
      const account = await createAccount(key, {
        accountNumber: 'DE89370400440532013000',
        currency: 'EUR',
        ifsc: null,
      });
      const res = await imported(key, account.id, fixture('camt053-v02-eur.xml'));
      expect(res).toMatchObject({
        format: 'camt053',
        lines: 1,
        openingBalance: {
          amount: -1000,
          currency: 'EUR',
          currencySymbol: '€',
          formatted: '-1,000.00',
        },
        closingBalance: { amount: 24000, currency: 'EUR' },
      });
      const [line] = await allLines(key, account.id);
      expect(line.amount).toMatchObject({ amount: 25000, currency: 'EUR' });
    });

    it("Citi's MT940: four spaces where the entry date goes, a funds code, zero-amount entries", async () => {
      const key = await tenantKey();
      const account = await createAccount(key, {
        accountNumber: '123456789',
        currency: 'USD',
        ifsc: null,
      });
      // Written in the shape of Citi's export (shared/references/bank-real/citi-mt940.txt, which
      // a checkout without shared/ beside it does not have): no entry date but four spaces, the
      // funds code D, NONREF, zero-amount balance notes, a :86: continued on the next line.
      const citi = [
        ':20:STMT0312',
        ':25:123456789',
        ':28:7/1',
        ':60F:C240312USD10000,00',
        ':61:240312    DD150,25NMSCNONREF//',
        '/XYZ/PAYMENT',
        ':86:/PT/FT/PY/VENDOR PAYMENT          998877',
        '   123456789',
        ':61:240312    CD0,00NDEFNONREF//',
        '/XYZ/C 10000,00 BAI CD 010',
        ':61:240312    DD49,75NDEFNONREF//',
        '/XYZ/PAYMENT',
        ':86:/PT/FT/PY/ANOTHER PAYMENT 554433',
        ':62F:C240312USD9800,00',
        '-',
        '',
      ].join('\r\n');
      const res = await imported(key, account.id, Buffer.from(citi));
      expect(res).toMatchObject({
        format: 'mt940',
        lines: 2,
        imported: 2,
        from: '2024-03-12',
        to: '2024-03-12',
        openingBalance: { amount: 10000, currency: 'USD' },
        closingBalance: { amount: 9800, currency: 'USD' },
        balanceCheck: 'OK',
      });
      const lines = await allLines(key, account.id);
      expect(lines.map((l) => [l.valueDate, l.bookingDate, l.direction, l.amount.amount])).toEqual([
        ['2024-03-12', null, 'DEBIT', 150.25],
        ['2024-03-12', null, 'DEBIT', 49.75],
      ]);
      // NONREF is SWIFT's "no reference": read as none, as for every MT940.
      expect(lines[0]).toMatchObject({
        reference: '',
        narration: '/PT/FT/PY/VENDOR PAYMENT 998877 123456789',
      });
    });

    it('the content decides the format, whatever the Content-Type says', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      const mt940 = await upload(
        key,
        account.id,
        fixture('mt940-2025-11.sta'),
        '',
        'application/xml',
      );
      expect(mt940.body).toMatchObject({ format: 'mt940', lines: 8 });
      await t.app.listen(0, '127.0.0.1');
      try {
        const port = (t.server.address() as AddressInfo).port;
        const res = await fetch(`http://127.0.0.1:${port}/bank-accounts/${account.id}/statements`, {
          method: 'POST',
          headers: { ...as(key), 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: gzipSync(fixture('camt053-v08-2025-11.xml')),
        });
        expect(res.status).toBe(201);
        expect(await res.json()).toMatchObject({ format: 'camt053', lines: 8, pending: 1 });
      } finally {
        // Left listening: t.close() stops it with the app.
      }
    });

    it('reports the balance chain: the CSV row, the MT940 :62F: line, the camt Stmt', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      const csv = fixture('hdfc-2025-11.csv')
        .toString()
        .replace('"30,81,618.39"', '"30,81,618.40"');
      expect(await imported(key, account.id, csv)).toMatchObject({
        balanceCheck: 'MISMATCH',
        firstMismatchLine: 28,
        imported: 17,
      });
      const mt940 = fixture('mt940-2025-11.sta')
        .toString()
        .replace(':62F:C251130INR184567,89', ':62F:C251130INR184567,00');
      expect(await imported(key, account.id, mt940)).toMatchObject({
        balanceCheck: 'MISMATCH',
        firstMismatchLine: 32,
      });
      const camt = fixture('camt053-v08-2025-11.xml')
        .toString()
        .replace('<Amt Ccy="INR">2033977.89</Amt>', '<Amt Ccy="INR">2033977.00</Amt>');
      // The first Stmt's closing balance is wrong, and so the second's opening.
      expect(await imported(key, account.id, camt)).toMatchObject({
        balanceCheck: 'MISMATCH',
        firstMismatchLine: 1,
      });
    });
  });

  describe('refusals import nothing', () => {
    let key: string;
    let account: { id: string };
    beforeAll(async () => {
      key = await tenantKey();
      account = await createAccount(key);
    });
    afterEach(async () => {
      expect(await counts(account.id)).toEqual({ lines: 0, keys: 0, statements: 0 });
    });

    const refused = async (body: Buffer | string, query: string, status: number, code: string) => {
      const res = await upload(key, account.id, body, query);
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      return res.body as { detail: string; errors?: { field: string; message: string }[] };
    };

    it('STATEMENT_UNREADABLE names the line (CSV, MT940) or the element (camt)', async () => {
      const csv = fixture('hdfc-2025-11.csv').toString().replace('"1,25,000.50"', '"1,25,000.5x"');
      expect((await refused(csv, '', 400, 'STATEMENT_UNREADABLE')).errors).toEqual([
        { field: 'line 28', message: 'the Deposit Amt. "1,25,000.5x" is not an amount' },
      ]);
      const mt940 = fixture('mt940-2025-11.sta')
        .toString()
        .replace(':61:251103C275000,00', ':61:251103C275.000,00');
      expect((await refused(mt940, '', 400, 'STATEMENT_UNREADABLE')).errors?.[0].field).toBe(
        'line 10',
      );
      const camt = fixture('camt053-v08-2025-11.xml')
        .toString()
        .replace('<Amt Ccy="INR">65000.00</Amt>', '<Amt Ccy="INR">sixty-five</Amt>');
      expect((await refused(camt, '', 400, 'STATEMENT_UNREADABLE')).errors?.[0].field).toBe(
        'Stmt[2]/Ntry[3]/Amt',
      );
      await refused('', '', 400, 'STATEMENT_UNREADABLE');
      await refused('a,b\n\u0000', '', 400, 'STATEMENT_UNREADABLE');
    });

    it('a CSV transaction row that cannot be read is unreadable wherever it stands, the last row too', async () => {
      const hdfc = (transactions: HdfcTransaction[]) =>
        writeHdfcStatement({
          accountNumber: HDFC_NUMBER,
          holder: 'SKYLINE DEVELOPERS PVT LTD',
          ifsc: 'HDFC0001234',
          from: '2026-06-01',
          to: '2026-06-30',
          openingBalance: '100000.00',
          transactions,
        });
      const upi = (date: string, credit: string): HdfcTransaction => ({
        date,
        narration: `UPI-BUYER-buyer@okhdfcbank-HDFC0000123-530512345678-${date}`,
        reference: '0000530512345678',
        credit,
      });
      // The third and last row dated 31 June: it was dropped and the chain still held.
      const lastRow = hdfc([
        upi('2026-06-28', '10000.00'),
        upi('2026-06-29', '20000.00'),
        upi('2026-06-30', '300000.00'),
      ]).replaceAll('30/06/26', '31/06/26');
      expect((await refused(lastRow, '', 400, 'STATEMENT_UNREADABLE')).errors).toEqual([
        { field: 'line 15', message: 'the Date "31/06/26" is not a date (DD/MM/YY)' },
      ]);
      const onlyRow = hdfc([upi('2026-06-30', '5000.00')]).replaceAll('30/06/26', '32/13/26');
      expect((await refused(onlyRow, '', 400, 'STATEMENT_UNREADABLE')).errors).toEqual([
        { field: 'line 13', message: 'the Date "32/13/26" is not a date (DD/MM/YY)' },
      ]);
      // Another layout's last row (the file made this account's).
      const axis = fixture('axis-2025-11.csv')
        .toString()
        .replace('912020012345678', HDFC_NUMBER)
        .replace('12-11-2025,,"Consolidated', '31-11-2025,,"Consolidated');
      expect((await refused(axis, '', 400, 'STATEMENT_UNREADABLE')).errors).toEqual([
        { field: 'line 13', message: 'the Tran Date "31-11-2025" is not a date (DD-MM-YYYY)' },
      ]);
    });

    it('XML with a DTD or entities is STATEMENT_UNREADABLE', async () => {
      const xml = fixture('camt053-v08-2025-11.xml').toString();
      const withDtd = xml
        .replace(
          '<Document',
          '<!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document',
        )
        .replace('<Nm>PRIYA NAIR</Nm>', '<Nm>&x;</Nm>');
      const body = await refused(withDtd, '', 400, 'STATEMENT_UNREADABLE');
      expect(body.detail).toContain('DTD or entity');
      expect(body.detail).not.toContain('root:');
    });

    it('a file of another account or currency', async () => {
      const mt940 = fixture('mt940-2025-11.sta')
        .toString()
        .replaceAll(HDFC_NUMBER, '50200099999999');
      const body = await refused(mt940, '', 400, 'STATEMENT_ACCOUNT_MISMATCH');
      expect(body.detail).toContain('XXXXXXXXXX9999');
      expect(body.detail).toContain('XXXXXXXXXX5678');
      expect(body.detail).not.toContain(HDFC_NUMBER);
      const camt = fixture('camt053-v08-2025-11.xml')
        .toString()
        .replace('<Id>50200012345678</Id>', '<Id>912020012345678</Id>');
      await refused(camt, '', 400, 'STATEMENT_ACCOUNT_MISMATCH');
      await refused(
        fixture('mt940-2025-11.sta').toString().replaceAll('INR', 'USD'),
        '',
        400,
        'STATEMENT_CURRENCY_MISMATCH',
      );
    });

    it('a CSV whose account block names another account is STATEMENT_ACCOUNT_MISMATCH, every layout', async () => {
      // The number in the cell after the label, as HDFC's XLS export saved as CSV has it.
      const hdfc = fixture('hdfc-2025-11.csv')
        .toString()
        .replace('Account No : 50200012345678   OTHER,,,,,,', 'Account No :,50200098765432,,,,,');
      const body = await refused(hdfc, '', 400, 'STATEMENT_ACCOUNT_MISMATCH');
      expect(body.detail).toContain('XXXXXXXXXX5432');
      expect(body.detail).toContain('XXXXXXXXXX5678');
      expect(JSON.stringify(body)).not.toContain('50200098765432');
      // Each bank's own account block, as the fixtures write it, names its own account.
      for (const file of [
        'sbi-2025-11.xls.txt',
        'axis-2025-11.csv',
        'kotak-2025-11-newest-first.csv',
      ]) {
        await refused(fixture(file), '', 400, 'STATEMENT_ACCOUNT_MISMATCH');
      }
      const generic = `?columns=${encodeURIComponent('date:Txn Date,narration:Particulars,reference:Ref No,amount:Amount,drcr:Dr/Cr,balance:Running Balance')}&dateFormat=DD-MMM-YYYY`;
      await refused(
        fixture('generic-idfc-2025-11.csv'),
        generic,
        400,
        'STATEMENT_ACCOUNT_MISMATCH',
      );
      await refused(
        fixture('hdfc-2025-11.csv')
          .toString()
          .replace('Account No :', 'A/C No :')
          .replace(HDFC_NUMBER, '50200011112222'),
        '',
        400,
        'STATEMENT_ACCOUNT_MISMATCH',
      );
    });

    it('an unknown format or layout, a header of no layout, a bad generic query', async () => {
      expect(
        (await refused(fixture('hdfc-2025-11.csv'), '?format=ofx', 400, 'STATEMENT_FORMAT_UNKNOWN'))
          .detail,
      ).toContain('csv, camt053, mt940');
      expect(
        (
          await refused(
            fixture('hdfc-2025-11.csv'),
            '?layout=yesbank',
            400,
            'STATEMENT_LAYOUT_UNKNOWN',
          )
        ).detail,
      ).toContain('hdfc, icici, sbi, axis, kotak, generic');
      await refused(
        'Posting Date,Details,Amount\n2025-11-01,X,1.00\n',
        '',
        400,
        'STATEMENT_LAYOUT_UNKNOWN',
      );
      await refused(fixture('hdfc-2025-11.csv'), '?layout=icici', 400, 'STATEMENT_LAYOUT_UNKNOWN');
      const generic = await refused(
        fixture('generic-idfc-2025-11.csv'),
        '?layout=generic',
        400,
        'VALIDATION_FAILED',
      );
      expect(generic.errors?.[0].field).toBe('columns');
      await refused(
        fixture('hdfc-2025-11.csv'),
        '?format=mt940&layout=hdfc',
        400,
        'VALIDATION_FAILED',
      );
      await refused(fixture('hdfc-2025-11.csv'), '?delimiter=tab', 400, 'UNKNOWN_PARAMETER');
      // XML that is not camt.053.
      await refused(
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"/>',
        '',
        400,
        'STATEMENT_UNREADABLE',
      );
    });

    it('a file over STATEMENT_MAX_BYTES is 413', async () => {
      const small = await createTestApp({ STATEMENT_MAX_BYTES: '2048' });
      try {
        const res = await request(small.server)
          .post(`/bank-accounts/${account.id}/statements`)
          .set(as(key))
          .set('content-type', 'text/csv')
          .send(fixture('hdfc-2025-11.csv'));
        expect(res.status).toBe(413);
        expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
        // JSON bodies elsewhere keep BODY_LIMIT, which the statement limit does not change.
        const big = await request(small.server)
          .post('/bank-accounts')
          .set(as(key))
          .send({ name: 'x'.repeat(4000) });
        expect(big.status).toBe(400);
      } finally {
        await small.close();
      }
    });
  });

  describe('lines feed', () => {
    it('pages by sequence, filters by status, refuses bad parameters', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      await imported(key, account.id, fixture('hdfc-2025-11.csv'));
      const page = await request(t.server)
        .get(`/bank-accounts/${account.id}/lines?after=15&limit=10`)
        .set(as(key));
      expect(page.body.lines.map((l: LineView) => l.sequence)).toEqual([16, 17]);
      expect(page.body.nextAfter).toBe(17);
      const end = await request(t.server)
        .get(`/bank-accounts/${account.id}/lines?after=17`)
        .set(as(key));
      expect(end.body).toEqual({ lines: [], nextAfter: 17 });
      expect(await allLines(key, account.id, '&status=UNMATCHED')).toHaveLength(17);
      const matched = await request(t.server)
        .get(`/bank-accounts/${account.id}/lines?status=MATCHED`)
        .set(as(key));
      // Filtered: nothing matched, and the cursor moves past every line there is.
      expect(matched.body).toEqual({ lines: [], nextAfter: 17 });
      for (const query of ['status=DONE', 'limit=0', 'limit=501', 'after=-1']) {
        const bad = await request(t.server)
          .get(`/bank-accounts/${account.id}/lines?${query}`)
          .set(as(key));
        expect({ query, status: bad.status, code: bad.body.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
    });
  });

  describe('concurrency', () => {
    /**
     * An HDFC statement of UPI credits numbered `first` to `first + count - 1`, one of a series: its
     * opening balance is what the earlier payments left, so a line repeated in two files has the
     * same running balance in both (the same key).
     */
    const statement = (first: number, count: number) => {
      const amount = (n: number) => 1000 + n;
      let opening = 0;
      for (let n = 0; n < first; n++) opening += amount(n);
      const transactions: HdfcTransaction[] = Array.from({ length: count }, (_, i) => {
        const n = first + i;
        const rrn = String(530000000000 + n);
        return {
          date: `2025-10-${String(1 + Math.floor(n / 200)).padStart(2, '0')}`,
          narration: `UPI-BUYER ${n}-buyer${n}@okhdfcbank-HDFC0000123-${rrn}-BOOKING ${n}`,
          reference: rrn.padStart(16, '0'),
          credit: `${amount(n)}.00`,
        };
      });
      return writeHdfcStatement({
        accountNumber: HDFC_NUMBER,
        holder: 'SKYLINE DEVELOPERS PVT LTD',
        ifsc: 'HDFC0001234',
        from: '2025-10-01',
        to: '2025-10-31',
        openingBalance: `${opening}.00`,
        transactions,
      });
    };

    it('two imports at once of overlapping files never create a duplicate line', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      // Payments 0-2999 and 1500-4499: 1,500 lines in both files.
      const a = statement(0, 3000);
      const b = statement(1500, 3000);
      const [ra, rb] = await Promise.all([upload(key, account.id, a), upload(key, account.id, b)]);
      expect([ra.status, rb.status]).toEqual([201, 201]);
      const [x, y] = [ra.body as ImportView, rb.body as ImportView];
      expect(x.imported + y.imported).toBe(4500);
      expect(x.duplicates + y.duplicates).toBe(1500);
      expect([x.balanceCheck, y.balanceCheck]).toEqual(['OK', 'OK']);
      expect(await counts(account.id)).toEqual({ lines: 4500, keys: 4500, statements: 2 });
      // Sequences: one per line, each file's in its order, the later commit's all higher.
      const rows = await db.query<{ sequence: string; statement_id: string }[]>(
        'SELECT sequence, statement_id FROM bank_lines WHERE bank_account_id = $1 ORDER BY sequence',
        [account.id],
      );
      expect(new Set(rows.map((r) => r.sequence)).size).toBe(4500);
      const firstCommitted = rows[0].statement_id;
      const switches = rows.filter((r, i) => i > 0 && r.statement_id !== rows[i - 1].statement_id);
      expect(switches).toHaveLength(1);
      expect(switches[0].statement_id).not.toBe(firstCommitted);
    });

    it('the unique line key is the last word: two writers of overlapping lines, neither waiting for the account, write each line once', async () => {
      // What an import writes, by two connections of the application role at once, without the
      // account lock the service takes first: the second INSERT waits on the first one's
      // uncommitted keys and, once they commit, skips them (ON CONFLICT DO NOTHING).
      const key = await tenantKey();
      const account = await createAccount(key);
      const [{ id: tenantId }] = await db.query<{ id: string }[]>(
        'SELECT id FROM tenants WHERE key = $1',
        [key],
      );
      const columns = (from: number, to: number): LineColumns => {
        const n = Array.from({ length: to - from }, (_, i) => from + i);
        return {
          lineKey: n.map((i) => createHash('sha256').update(`line ${i}`).digest()),
          fileLine: n,
          valueDate: n.map(() => '2025-10-01'),
          bookingDate: n.map(() => null),
          direction: n.map(() => 'CREDIT'),
          amount: n.map((i) => `${100 + i}.00`),
          narration: n.map((i) => `UPI ${i}`),
          reference: n.map(() => ''),
          referenceKey: n.map(() => ''),
          utr: n.map(() => null),
          chequeNumber: n.map(() => null),
          balance: n.map(() => null),
          reversal: n.map(() => false),
          raw: n.map((i) => `raw ${i}`),
        };
      };
      const writer = async () => {
        const client = new Client({ connectionString: t.appUrl });
        await client.connect();
        await client.query('BEGIN');
        await client.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
        const { rows } = await client.query<{ id: string }>(
          INSERT_STATEMENT_SQL,
          insertStatementParams({
            tenantId,
            accountId: account.id,
            sha256: createHash('sha256').update(String(Math.random())).digest(),
            bytes: 1,
            format: 'csv',
            encoding: 'UTF-8',
            actor: 'test',
          }),
        );
        return { client, statementId: rows[0].id };
      };
      const first = await writer();
      const second = await writer();
      try {
        const insert = (
          w: { client: Client; statementId: string },
          base: string,
          lines: LineColumns,
        ) =>
          w.client.query<{ imported: number }>(
            INSERT_LINES_SQL,
            insertLinesParams({
              tenantId,
              accountId: account.id,
              statementId: w.statementId,
              format: 'csv',
              base,
              lines,
            }),
          );
        const a = await insert(first, '0', columns(0, 10));
        let secondDone = false;
        const b = insert(second, '100', columns(5, 15)).then((r) => {
          secondDone = true;
          return r;
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(secondDone).toBe(false); // waiting on the first writer's keys 5-9
        await first.client.query('COMMIT');
        expect([a.rows[0].imported, (await b).rows[0].imported]).toEqual([10, 5]);
        await second.client.query('COMMIT');
      } finally {
        await first.client.end();
        await second.client.end();
      }
      expect(await counts(account.id)).toEqual({ lines: 15, keys: 15, statements: 2 });
    });

    it('the same file twice at once: one import (201), the other answers with it (200)', async () => {
      const key = await tenantKey();
      const account = await createAccount(key);
      const file = statement(0, 2500);
      const results = await Promise.all([
        upload(key, account.id, file),
        upload(key, account.id, file),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 201]);
      expect(results[0].body).toEqual(results[1].body);
      expect(await counts(account.id)).toEqual({ lines: 2500, keys: 2500, statements: 1 });
    });
  });
});
