import Decimal from 'decimal.js';

/** One transaction to write: `credit` or `debit`, an amount with two decimals. */
export interface HdfcTransaction {
  /** YYYY-MM-DD. */
  date: string;
  valueDate?: string;
  narration: string;
  reference: string;
  credit?: string;
  debit?: string;
}

export interface HdfcStatement {
  accountNumber: string;
  holder: string;
  ifsc: string;
  /** YYYY-MM-DD. */
  from: string;
  to: string;
  openingBalance: string;
  transactions: readonly HdfcTransaction[];
}

const RULE =
  '********,**********************************************************,****************,********,*********************,*********************,*********************';

/** `1,50,000.00`: Indian digit grouping. */
export function indianGrouping(amount: Decimal): string {
  const [integer, fraction] = amount.abs().toFixed(2).split('.');
  const head = integer.slice(0, -3);
  const grouped =
    head === '' ? integer : `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${integer.slice(-3)}`;
  return `${amount.isNegative() ? '-' : ''}${grouped}.${fraction}`;
}

const ddmmyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}`;
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * An HDFC NetBanking statement as its XLS export saved as CSV looks (docs/bank.md): the account
 * block, the header row, a `****` rule, the transactions with running balances, a rule, the
 * STATEMENT SUMMARY and the footer; CRLF line ends. Used by the demo data, the benchmark and the
 * tests, so each reads a file shaped like the real one.
 */
export function writeHdfcStatement(statement: HdfcStatement): string {
  let balance = new Decimal(statement.openingBalance);
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  let debitCount = 0;
  let creditCount = 0;
  const rows = statement.transactions.map((t) => {
    if (t.credit) {
      balance = balance.plus(t.credit);
      credits = credits.plus(t.credit);
      creditCount++;
    } else if (t.debit) {
      balance = balance.minus(t.debit);
      debits = debits.plus(t.debit);
      debitCount++;
    }
    return [
      ddmmyy(t.date),
      quoted(t.narration),
      t.reference,
      ddmmyy(t.valueDate ?? t.date),
      t.debit ? quoted(indianGrouping(new Decimal(t.debit))) : '',
      t.credit ? quoted(indianGrouping(new Decimal(t.credit))) : '',
      quoted(indianGrouping(balance)),
    ].join(',');
  });
  const blank = ',,,,,,';
  return [
    'HDFC BANK Ltd.,,,,,,',
    'Page No .:  1,,,,,,',
    `${quoted(statement.holder)},,,,,,`,
    'Account Branch : BANDRA WEST,,,,,,',
    'Currency : INR,,,,,,',
    `Account No : ${statement.accountNumber}   OTHER,,,,,,`,
    'Account Status : Regular,,,,,,',
    `RTGS/NEFT IFSC : ${statement.ifsc},,,,,,`,
    `Statement From : ${ddmmyyyy(statement.from)} To : ${ddmmyyyy(statement.to)},,,,,,`,
    blank,
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
    RULE,
    ...rows,
    RULE,
    blank,
    'STATEMENT SUMMARY  :-,,,,,,',
    blank,
    'Opening Balance,Dr Count,Cr Count,Debits,Credits,Closing Bal,',
    [
      quoted(indianGrouping(new Decimal(statement.openingBalance))),
      debitCount,
      creditCount,
      quoted(indianGrouping(debits)),
      quoted(indianGrouping(credits)),
      quoted(indianGrouping(balance)),
      '',
    ].join(','),
    blank,
    '"This is a computer generated statement and does not require signature.",,,,,,',
    '',
  ].join('\r\n');
}
