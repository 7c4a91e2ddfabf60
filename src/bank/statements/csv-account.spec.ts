import { namesAccount, statedAccount } from './csv-account';

describe(statedAccount.name, () => {
  it.each([
    // HDFC: the number and a product code in the label's cell, or the number in the next cell.
    [['HDFC BANK Ltd.,,,', 'Account No : 50200012345678   OTHER,,,,,,'], ',', '50200012345678', 2],
    [['Account No :,50200098765432,,,,,'], ',', '50200098765432', 1],
    // Kotak: `Account No.` and the number in the next cell.
    [
      ['Kotak Mahindra Bank,,', 'Account Statement,,', 'Account No.,4512345678,,'],
      ',',
      '4512345678',
      3,
    ],
    // SBI, tab-separated, the number written with a leading underscore and zeros.
    [
      ['Account Name       :\tX', 'Account Number     :\t_00000030123456789'],
      '\t',
      '00000030123456789',
      2,
    ],
    // Axis: inside a sentence.
    [
      [
        'Statement of Account No - 912020012345678 for the period (From : 01-11-2025 To : 30-11-2025),,',
      ],
      ',',
      '912020012345678',
      1,
    ],
    [['Account Number: 10012345678,,,,,'], ',', '10012345678', 1],
    [['A/C No: 5020 0012-3456 78 (CURRENT)'], ',', '50200012345678', 1],
    [['IBAN,,', 'Account number;DE89 3704 0044 0532 0130 00'], ';', 'DE89370400440532013000', 2],
  ])('%j', (lines, delimiter, identifier, line) => {
    expect(statedAccount(lines, delimiter)).toMatchObject({ identifier, line, masked: false });
  });

  it('other labels that start alike are not account numbers', () => {
    expect(
      statedAccount(
        [
          'Account Branch : BANDRA WEST,,',
          'Account Status : Regular,,',
          'A/C Open Date : 12/04/2019,,',
          'Cust ID : 12345678,,',
          'Account Nominee : 1,,',
          'Account Name : SKYLINE 2,,',
        ],
        ',',
      ),
    ).toBeUndefined();
  });

  it('a label with no number after it is passed over', () => {
    expect(statedAccount(['Account No :,,,', 'A/C No,4512345678'], ',')).toMatchObject({
      identifier: '4512345678',
      line: 2,
      label: 'A/C No',
    });
  });
});

describe(namesAccount.name, () => {
  const stated = (text: string) => statedAccount([`Account No : ${text}`], ',')!;

  it('the stated number, without separators, ends with the account number', () => {
    expect(namesAccount(stated('50200012345678'), '50200012345678')).toBe(true);
    expect(namesAccount(stated('_00000030123456789'), '30123456789')).toBe(true);
    expect(namesAccount(stated('50200098765432'), '50200012345678')).toBe(false);
    // Ending with the number, not containing it.
    expect(namesAccount(stated('502000123456789'), '50200012345678')).toBe(false);
  });

  it('a masked number names the account when its visible digits end the account number', () => {
    expect(stated('XXXXXXXXXX5678')).toMatchObject({ masked: true });
    expect(namesAccount(stated('XXXXXXXXXX5678'), '50200012345678')).toBe(true);
    expect(namesAccount(stated('**********5678'), '50200012345678')).toBe(true);
    expect(namesAccount(stated('XXXXXXXXXX9999'), '50200012345678')).toBe(false);
  });
});
