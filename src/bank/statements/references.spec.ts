import { extractReferences, referenceKey } from './references';

/** Narrations and reference columns as each bank writes them (docs/bank.md). */
describe(extractReferences.name, () => {
  it.each([
    // [bank, reference column, narration, utr, cheque number]
    [
      'HDFC UPI (zero-padded 16-digit reference)',
      '0000530512345678',
      'UPI-RAJESH KUMAR SHARMA-rajeshks@okhdfcbank-HDFC0000123-530512345678-BOOKING A-1203',
      '530512345678',
      null,
    ],
    [
      'HDFC NEFT',
      'SBINN52531012345',
      'NEFT CR-SBIN0001234-PRIYA NAIR-SBINN52531012345',
      'SBINN52531012345',
      null,
    ],
    [
      'HDFC RTGS (22 characters)',
      'ICICR52025110400012345',
      'RTGS CR-ICIC0000104-VIKRAM MEHTA-ICICR52025110400012345',
      'ICICR52025110400012345',
      null,
    ],
    [
      'HDFC RTGS XXXXRC + 16 digits',
      'UTIBRC2025111712345678',
      'RTGS CR-UTIB0000045-KAPIL VERMA-UTIBRC2025111712345678',
      'UTIBRC2025111712345678',
      null,
    ],
    [
      'HDFC cheque deposit (padded cheque number)',
      '0000000000004512',
      'CHQ DEP - MICR CTS - MUMBAI CLEARING - 004512',
      null,
      '004512',
    ],
    [
      'HDFC charges naming the cheque, empty reference',
      '0000000000000000',
      'CHQ RETURN CHGS 004512 + GST',
      null,
      '004512',
    ],
    [
      'HDFC IMPS',
      '0000530612345678',
      'IMPS-530612345678-ANITA DESAI-KKBK-XXXXXXXX1234-FLAT B-702',
      '530612345678',
      null,
    ],
    [
      'ICICI NEFT, "-" as the cheque number',
      '-',
      'NEFT-SBINN52530712345-PRIYA NAIR-BOOKING B-1104',
      'SBINN52530712345',
      null,
    ],
    ['ICICI cheque clearing', '004513', 'CLG/004513/ICICI BANK/KIRAN PATIL', null, '004513'],
    [
      'ICICI UPI',
      '-',
      'UPI/530912345678/Payment from Ph/rahul@okicici/ICICI Bank',
      '530912345678',
      null,
    ],
    [
      'ICICI mobile IMPS',
      '-',
      'MMT/IMPS/531412345678/FLAT A-502 INST 3/ANJALI RAO/HDFC Bank',
      '531412345678',
      null,
    ],
    [
      'ICICI bill payment: a 12-digit number is no RRN without UPI/IMPS',
      '-',
      'BIL/ONL/000123456789/Tata Power/TPCODL',
      null,
      null,
    ],
    [
      'SBI UPI credit (reference names the remitter account)',
      'TRANSFER FROM 4897691162094',
      'BY TRANSFER-UPI/CR/530512340001/RAMESH PATEL/SBIN/ramesh@oksbi/Payment--',
      '530512340001',
      null,
    ],
    [
      'SBI NEFT with * separators',
      'TRANSFER FROM 3199412044305',
      'DEP TFR NEFT*HDFC0000001*HDFCN52530812345*SURESH IYER--',
      'HDFCN52530812345',
      null,
    ],
    ['SBI cheque deposit', '004514', 'CHEQUE DEPOSIT-CTS CLG-MUMBAI--', null, '004514'],
    ['Axis UPI', '', 'UPI/P2A/530612340002/ROHIT JAIN/HDFC BANK/Booking amt', '530612340002', null],
    [
      'Axis NEFT',
      '',
      'NEFT/UTIBN52531112345/M S SHREE GANESH BUILDCON/AXIS BANK',
      'UTIBN52531112345',
      null,
    ],
    ['Axis clearing', '004515', 'CLG/004515/ROHIT JAIN/ICICI BANK', null, '004515'],
    [
      'Kotak labelled reference',
      'IMPS-531712345678',
      'IMPS-531712345678-MEERA PILLAI-SBIN-BOOKING C-903',
      '531712345678',
      null,
    ],
    [
      'Kotak NEFT labelled reference',
      'NEFT-KKBKN52531012345',
      'NEFT-KKBKN52531012345-NIKHIL SETH-BOOKING',
      'KKBKN52531012345',
      null,
    ],
    [
      'Kotak cheque paid',
      '000123',
      'Chq Paid-MICR Inward Clearing-000123-VENDOR TILES',
      null,
      '000123',
    ],
    [
      'a PIN code and a date are no cheque numbers without a cheque word',
      '',
      'ATM WDL-ATM CASH 1234 BANDRA WEST MUMBAI 400050 ON 011125',
      null,
      null,
    ],
    [
      'an IFSC and a 16-letter word are no UTRs',
      '',
      'NEFT CR-SBIN0001234-ANANTHAKRISHNAN PADMANABHAN',
      null,
      null,
    ],
  ])('%s', (_bank, reference, narration, utr, chequeNumber) => {
    expect(extractReferences(reference, narration)).toEqual({ utr, chequeNumber });
  });

  it('prefers the reference column to the narration', () => {
    expect(extractReferences('0000531012345670', 'UPI-X-531099999999-Y')).toEqual({
      utr: '531012345670',
      chequeNumber: null,
    });
  });
});

describe(referenceKey.name, () => {
  it('compares references across formats: case, separators and leading zeros aside', () => {
    expect(referenceKey('0000530512345678')).toBe('530512345678');
    expect(referenceKey('530512345678')).toBe('530512345678');
    expect(referenceKey('sbinn-5253 1012345')).toBe('SBINN52531012345');
    expect(referenceKey('0000000000000000')).toBe('');
  });
});
