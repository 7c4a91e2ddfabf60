import { GST_STATES, gstStateName } from './gst-states';
import { gstinCheckChar, gstinValid } from './gst-tax';

describe('GST state codes', () => {
  it('names every state code a GSTIN may start with, and nothing else', () => {
    const codes = [...Array.from({ length: 38 }, (_, i) => String(i + 1).padStart(2, '0')), '97'];
    expect(Object.keys(GST_STATES).sort()).toEqual(codes);
    for (const code of codes) {
      const first14 = `${code}AAPFU0939F1Z`;
      expect(gstinValid(first14 + gstinCheckChar(first14))).toBe(true);
    }
  });

  it('gives the name of a code, null for an unknown one', () => {
    expect(gstStateName('01')).toBe('Jammu and Kashmir');
    expect(gstStateName('27')).toBe('Maharashtra');
    expect(gstStateName('29')).toBe('Karnataka');
    expect(gstStateName('36')).toBe('Telangana');
    expect(gstStateName('37')).toBe('Andhra Pradesh');
    expect(gstStateName('38')).toBe('Ladakh');
    expect(gstStateName('97')).toBe('Other Territory');
    for (const unknown of ['00', '39', '99', '7', 'constructor', 'toString']) {
      expect(gstStateName(unknown)).toBeNull();
    }
  });
});
