import { isUtf8 } from 'node:buffer';
import { lineAt, unreadable } from './statement-line';

export type StatementEncoding = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'WINDOWS-1252';

/**
 * Windows-1252 at 0x80-0x9F (the rest is Latin-1). Written out because Node 20's TextDecoder
 * decodes 'windows-1252' as Latin-1, turning "smart quotes" and the rupee-era `€`/`–` of bank
 * exports into C1 control characters. Bytes 1252 leaves undefined keep their C1 value (WHATWG).
 */
const CP1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

export function decodeWindows1252(bytes: Buffer): string {
  return bytes
    .toString('latin1')
    .replace(/[\u0080-\u009F]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
}

/**
 * The text of a statement file: UTF-8 (a BOM is dropped), UTF-16 when it starts with a BOM (Excel's
 * "Unicode text"), else Windows-1252, as Indian banks' exports often are. Line ends become `\n`.
 * A NUL character cannot be stored: 400 STATEMENT_UNREADABLE naming its line.
 */
export function decodeStatement(bytes: Buffer): { text: string; encoding: StatementEncoding } {
  let text: string;
  let encoding: StatementEncoding;
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
    encoding = 'UTF-16LE';
  } else if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
    encoding = 'UTF-16BE';
  } else if (isUtf8(bytes)) {
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    text = bytes.toString('utf8', bom ? 3 : 0);
    encoding = 'UTF-8';
  } else {
    text = decodeWindows1252(bytes);
    encoding = 'WINDOWS-1252';
  }
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  const nul = text.indexOf('\u0000');
  if (nul !== -1) {
    throw unreadable(
      `line ${lineAt(text, nul)}`,
      'contains a NUL character (is it a binary file?)',
    );
  }
  return { text, encoding };
}
