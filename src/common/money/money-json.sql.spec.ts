import { toMoney } from './money';
import { formatted, moneyFormat } from './money-json.sql';

const LOCALES = [
  'en-IN',
  'en-US',
  'en-GB',
  'de-DE',
  'de-CH',
  'fr-FR',
  'es-ES',
  'it-IT',
  'pl-PL',
  'pt-BR',
  'hi-IN',
  'bn-IN',
  'mr-IN',
  'ar-EG',
  'fa-IR',
  'ja-JP',
  'sv-SE',
  'ru-RU',
];

describe('moneyFormat', () => {
  it.each(LOCALES)('%s: formats as Intl does, whatever the amount', (locale) => {
    const format = moneyFormat('INR', locale);
    expect(format).not.toBeNull();
    if (!format) return;
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 500; i++) {
      const digits = 1 + (next() % 15);
      const int = String(next())
        .repeat(3)
        .slice(0, digits)
        .replace(/^0+(?=\d)/, '');
      const amount = `${next() % 5 === 0 ? '-' : ''}${int}.${String(next() % 100).padStart(2, '0')}`;
      if (/^-0\.00$/.test(amount)) continue;
      expect(formatted(amount, format)).toBe(toMoney(amount, 'INR', locale).formatted);
    }
  });

  it('reads the grouping of the locale: lakhs in en-IN, none below 10,000 in es-ES', () => {
    expect(moneyFormat('INR', 'en-IN')).toMatchObject({ primary: 3, secondary: 2, group: ',' });
    expect(moneyFormat('EUR', 'es-ES')).toMatchObject({ minimumGrouping: 2, decimal: ',' });
    expect(formatted('1234567.80', moneyFormat('INR', 'en-IN')!)).toBe('12,34,567.80');
  });
});
