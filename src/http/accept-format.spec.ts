import { formatFromAccept, MediaFormat } from './accept-format';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const STATEMENT: MediaFormat<'json' | 'pdf' | 'xlsx'>[] = [
  ['application/json', 'json'],
  ['application/pdf', 'pdf'],
  [XLSX, 'xlsx'],
];
const LETTER: MediaFormat<'pdf' | 'json'>[] = [
  ['application/pdf', 'pdf'],
  ['application/json', 'json'],
];

describe('formatFromAccept', () => {
  it('no header, an empty one, or only wildcards: the fallback', () => {
    for (const accept of [undefined, '', '*/*', 'application/*', '*/*;q=0.8']) {
      expect(formatFromAccept(accept, STATEMENT, 'json')).toBe('json');
      expect(formatFromAccept(accept, LETTER, 'pdf')).toBe('pdf');
    }
  });

  it('a media type offered: its format', () => {
    expect(formatFromAccept('application/pdf', STATEMENT, 'json')).toBe('pdf');
    expect(formatFromAccept(XLSX, STATEMENT, 'json')).toBe('xlsx');
    expect(formatFromAccept('Application/JSON', LETTER, 'pdf')).toBe('json');
    expect(formatFromAccept('application/json; charset=utf-8', LETTER, 'pdf')).toBe('json');
  });

  it('the highest q wins; the most specific range gives a type its q', () => {
    expect(formatFromAccept(`application/json;q=0.5, ${XLSX}`, STATEMENT, 'json')).toBe('xlsx');
    expect(formatFromAccept('application/pdf;q=0.2, */*', LETTER, 'pdf')).toBe('json');
    expect(formatFromAccept('application/pdf;q=0, */*', STATEMENT, 'pdf')).toBe('json');
    expect(formatFromAccept('text/html, application/pdf;q=0.9, */*;q=0.8', STATEMENT, 'json')).toBe(
      'pdf',
    );
  });

  it('a tie: the fallback when among them, else the range listed first', () => {
    expect(formatFromAccept('application/pdf, application/json', STATEMENT, 'json')).toBe('json');
    expect(formatFromAccept(`${XLSX}, application/pdf`, STATEMENT, 'json')).toBe('xlsx');
    expect(formatFromAccept(`application/pdf, ${XLSX}`, STATEMENT, 'json')).toBe('pdf');
  });

  it('nothing offered accepted, or an unreadable header: the fallback, never a refusal', () => {
    expect(formatFromAccept('text/html', STATEMENT, 'json')).toBe('json');
    expect(formatFromAccept('garbage', LETTER, 'pdf')).toBe('pdf');
    expect(formatFromAccept('application/json;q=high', LETTER, 'pdf')).toBe('pdf');
    expect(formatFromAccept('application/json;q=0', LETTER, 'pdf')).toBe('pdf');
  });
});
