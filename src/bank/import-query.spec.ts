import { parseImportQuery } from './import-query';

const fields = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    const e = error as { code: string; errors?: { field: string }[] };
    return { code: e.code, fields: e.errors?.map((f) => f.field) };
  }
  throw new Error('did not throw');
};

describe(parseImportQuery.name, () => {
  it('leaves format and layout to the content by default', () => {
    expect(parseImportQuery({})).toEqual({ format: null });
    expect(parseImportQuery({ format: 'mt940' })).toEqual({ format: 'mt940' });
  });

  it('a layout or columns mean CSV', () => {
    expect(parseImportQuery({ layout: 'hdfc' })).toMatchObject({
      format: 'csv',
      layout: { name: 'hdfc' },
    });
    expect(
      parseImportQuery({
        columns: 'date:Date,narration:Details,credit:Cr,debit:Dr',
        dateFormat: 'DD/MM/YYYY',
      }),
    ).toMatchObject({ format: 'csv', layout: { name: 'generic', dateFormats: ['DD/MM/YYYY'] } });
  });

  it('an unknown format or layout has its own code', () => {
    expect(fields(() => parseImportQuery({ format: 'ofx' }))).toEqual({
      code: 'STATEMENT_FORMAT_UNKNOWN',
      fields: ['format'],
    });
    expect(fields(() => parseImportQuery({ layout: 'yes-bank' }))).toEqual({
      code: 'STATEMENT_LAYOUT_UNKNOWN',
      fields: ['layout'],
    });
  });

  it('names the parameter that does not fit: 400 VALIDATION_FAILED', () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ layout: 'generic' }, ['columns']],
      [{ layout: 'hdfc', dateFormat: 'DD/MM/YY' }, ['dateFormat']],
      [{ layout: 'hdfc', columns: 'date:Date' }, ['columns']],
      [
        { columns: 'date:Date,narration:N,credit:C', dateFormat: 'MM/DD/YYYY' },
        ['dateFormat', 'columns'],
      ],
      [{ columns: 'date:Date,narration:N,credit:C,debit:D,amount:A,drcr:X' }, ['columns']],
      [{ columns: 'when:Date,narration:N,credit:C,debit:D' }, ['columns']],
      [{ format: 'mt940', layout: 'hdfc' }, ['layout']],
    ];
    for (const [query, expected] of cases) {
      expect({ query, ...fields(() => parseImportQuery(query)) }).toEqual({
        query,
        code: 'VALIDATION_FAILED',
        fields: expected,
      });
    }
  });
});
