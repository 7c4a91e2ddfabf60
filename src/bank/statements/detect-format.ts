import type { StatementFormat } from './statement-line';

/** How far into the file the format is looked for (a root element or the first tags). */
const HEAD = 64 * 1024;

const DOCUMENT = /<(?:[A-Za-z_][\w.-]*:)?Document\b([^>]*)>/;
const CAMT053 = /urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.(\d{2})/;
const MT940_TAGS = /^(?:\{[^\n]*)?:(20|25|28C|60F|60M|61):/gm;

/** The camt.053 version (2 to 8) the root `Document` declares, or null (another XML, or none). */
export function camtVersion(text: string): { version: number | null; namespace: string | null } {
  const root = DOCUMENT.exec(text.slice(0, HEAD));
  if (!root) return { version: null, namespace: null };
  const namespace = /xmlns(?::[\w.-]+)?\s*=\s*["']([^"']*)["']/.exec(root[1])?.[1] ?? null;
  const m = namespace ? CAMT053.exec(namespace) : null;
  const version = m ? Number(m[1]) : null;
  return { version: version !== null && version >= 2 && version <= 8 ? version : null, namespace };
}

/** True when the text starts like XML (after white space), whatever its root. */
export const looksLikeXml = (text: string): boolean => /^\s*</.test(text.slice(0, 1024));

/**
 * The format the content shows (the Content-Type is not trusted): an XML
 * `Document` in a camt.053 namespace, MT940 tags (`:20:`, `:25:`, `:60F:`, `:61:`...), else CSV.
 * Other XML is `camt053` too, so that it is refused naming its namespace rather than read as CSV.
 */
export function detectFormat(text: string): StatementFormat {
  const head = text.slice(0, HEAD);
  if (looksLikeXml(head)) return 'camt053';
  const tags = new Set([...head.matchAll(MT940_TAGS)].map((m) => m[1]));
  if (tags.has('20') && (tags.has('25') || tags.has('61') || tags.has('60F'))) return 'mt940';
  return 'csv';
}
