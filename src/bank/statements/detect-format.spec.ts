import { camtVersion, detectFormat } from './detect-format';

describe(detectFormat.name, () => {
  it('tells camt.053, MT940 and CSV apart by their content', () => {
    const camt =
      '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt/></Document>';
    expect(detectFormat(camt)).toBe('camt053');
    expect(camtVersion(camt)).toEqual({
      version: 8,
      namespace: 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08',
    });
    expect(
      detectFormat(
        '{1:F01HDFCINBBAXXX0000000000}{2:O940}{4:\n:20:STMT1\n:25:50200012345678\n:28C:1/1\n',
      ),
    ).toBe('mt940');
    expect(detectFormat(':20:STMT1\r\n:61:251101C100,00NTRFNONREF\n')).toBe('mt940');
    expect(detectFormat('Date,Narration,Chq./Ref.No.\n01/11/25,":20: in a narration",1\n')).toBe(
      'csv',
    );
  });

  it('knows camt.053 versions 02 to 08 only, and other XML by its namespace', () => {
    const doc = (ns: string) => `<Document xmlns="${ns}"/>`;
    expect(camtVersion(doc('urn:iso:std:iso:20022:tech:xsd:camt.053.001.02')).version).toBe(2);
    expect(camtVersion(doc('urn:iso:std:iso:20022:tech:xsd:camt.053.001.09')).version).toBeNull();
    expect(camtVersion(doc('urn:iso:std:iso:20022:tech:xsd:camt.054.001.08'))).toEqual({
      version: null,
      namespace: 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08',
    });
    expect(detectFormat(doc('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09'))).toBe('camt053');
  });
});
