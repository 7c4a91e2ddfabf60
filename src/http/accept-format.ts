import { validationFailed } from './errors/validation';
/**
 * Content negotiation for routes that serve one resource in several formats (`format=`): when
 * the query names no format, the Accept header may (`Accept: application/pdf`). The query wins
 * when both are given, so a link keeps meaning the same file whatever the client sends.
 */

/** A media type the route serves, and the `format=` value it stands for. */
export type MediaFormat<F extends string> = readonly [mediaType: string, format: F];

interface Range {
  type: string;
  subtype: string;
  q: number;
  position: number;
}

function parseAccept(accept: string): Range[] {
  const ranges: Range[] = [];
  accept.split(',').forEach((part, position) => {
    const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const [type, subtype] = (range ?? '').split('/');
    if (!type || !subtype) return;
    let q = 1;
    for (const p of params) {
      const [name, value] = p.split('=').map((x) => x.trim());
      if (name !== 'q') continue;
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : NaN;
    }
    // A range whose q cannot be read says nothing; skip it rather than guess.
    if (!Number.isNaN(q)) ranges.push({ type, subtype, q, position });
  });
  return ranges;
}

/**
 * The format the Accept header prefers among `offered`, else `fallback` (no header, only
 * wildcards, or nothing offered accepted: the route's default, never a refusal). The most
 * specific range matching a media type gives its q; the highest q wins; on a tie the fallback,
 * then the range listed first. Media types match case-insensitively.
 */
export function formatFromAccept<F extends string>(
  accept: string | undefined,
  offered: readonly MediaFormat<F>[],
  fallback: F,
): F {
  if (accept === undefined || accept.trim() === '') return fallback;
  const ranges = parseAccept(accept);
  let best: { format: F; q: number; specific: number; position: number } | undefined;
  for (const [mediaType, format] of offered) {
    const [type, subtype] = mediaType.toLowerCase().split('/');
    let match: { q: number; specific: number; position: number } | undefined;
    for (const r of ranges) {
      const specific =
        r.type === type && r.subtype === subtype
          ? 3
          : r.type === type && r.subtype === '*'
            ? 2
            : r.type === '*' && r.subtype === '*'
              ? 1
              : 0;
      if (specific > (match?.specific ?? 0)) match = { q: r.q, specific, position: r.position };
    }
    if (!match || match.q <= 0) continue;
    const better =
      !best ||
      match.q > best.q ||
      (match.q === best.q &&
        format !== best.format &&
        best.format !== fallback &&
        (format === fallback || match.position < best.position));
    if (better) best = { format, ...match };
  }
  return best?.format ?? fallback;
}

/** A printed document's formats: the PDF (the default) or its JSON. */
export type PdfOrJson = 'pdf' | 'json';
const PDF_OR_JSON: readonly MediaFormat<PdfOrJson>[] = [
  ['application/pdf', 'pdf'],
  ['application/json', 'json'],
];

/**
 * A printed document's format: `format=` (pdf or json) wins; without it the Accept header
 * chooses; the PDF is the default. Any other `format` is 400 naming it.
 */
export function pdfOrJson(raw: unknown, accept: string | undefined): PdfOrJson {
  if (raw === undefined) return formatFromAccept(accept, PDF_OR_JSON, 'pdf');
  if (raw === 'pdf' || raw === 'json') return raw;
  throw validationFailed([{ field: 'format', message: 'format must be pdf or json' }]);
}

/** The Swagger description of a printed document's `format` query parameter. */
export const PDF_OR_JSON_QUERY = {
  name: 'format',
  required: false,
  description:
    'pdf (default, the printed document) or json. Without format=, the Accept header chooses (application/pdf or application/json); format= wins when both are given.',
  schema: { type: 'string' as const, enum: ['pdf', 'json'], default: 'pdf', example: 'json' },
};
