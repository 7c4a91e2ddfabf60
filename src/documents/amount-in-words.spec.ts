import { amountInWords } from './amount-in-words';

describe(amountInWords.name, () => {
  const inr = (amount: string) => amountInWords(amount, 'INR', 'en-IN');

  it.each([
    ['150000.50', 'Rupees One Lakh Fifty Thousand and Fifty Paise Only'],
    ['12500000', 'Rupees One Crore Twenty Five Lakh Only'],
    ['0.01', 'One Paise Only'],
    ['0.50', 'Fifty Paise Only'],
    ['0.99', 'Ninety Nine Paise Only'],
    ['1', 'Rupees One Only'],
    ['19', 'Rupees Nineteen Only'],
    ['20', 'Rupees Twenty Only'],
    ['100', 'Rupees One Hundred Only'],
    ['101.05', 'Rupees One Hundred One and Five Paise Only'],
    ['1000', 'Rupees One Thousand Only'],
    ['100000', 'Rupees One Lakh Only'],
    ['700000', 'Rupees Seven Lakh Only'],
    ['10000000', 'Rupees One Crore Only'],
    ['30000000', 'Rupees Three Crore Only'],
    ['1000001', 'Rupees Ten Lakh One Only'],
    [
      '999999999.99',
      'Rupees Ninety Nine Crore Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Ninety Nine Paise Only',
    ],
    ['1000000000', 'Rupees One Hundred Crore Only'],
    ['1000000000000', 'Rupees One Lakh Crore Only'],
    ['0', 'Rupees Zero Only'],
    ['0.00', 'Rupees Zero Only'],
  ])('en-IN INR %s → %s', (amount, words) => {
    expect(inr(amount)).toBe(words);
  });

  it.each([
    ['150000.50', 'One Hundred Fifty Thousand and 50/100'],
    ['1', 'One and 00/100'],
    ['0.07', 'Zero and 07/100'],
    ['1000000', 'One Million and 00/100'],
    ['2500000000.25', 'Two Billion Five Hundred Million and 25/100'],
    ['1000001000', 'One Billion One Thousand and 00/100'],
    [
      '9999999999999.99',
      'Nine Trillion Nine Hundred Ninety Nine Billion Nine Hundred Ninety Nine Million Nine Hundred Ninety Nine Thousand Nine Hundred Ninety Nine and 99/100',
    ],
  ])('international %s → %s', (amount, words) => {
    expect(amountInWords(amount, 'USD', 'en-US')).toBe(words);
    expect(amountInWords(amount, 'INR', 'en-GB')).toBe(words);
  });

  it('names another currency in the Indian system by its code', () => {
    expect(amountInWords('150000.5', 'USD', 'en-IN')).toBe(
      'USD One Lakh Fifty Thousand and 50/100 Only',
    );
  });

  it.each(['-1', '1.001', 'NaN', 'Infinity'])('refuses %s', (amount) => {
    expect(() => inr(amount)).toThrow(RangeError);
  });
});
