/**
 * PostgreSQL's `COPY ... (FORMAT csv)` ends rows with LF; the export's CSV ends them with CRLF
 * (RFC 4180). A LF inside a quoted cell is data and stays as it is, so the
 * conversion follows the quoting across chunks: a quote toggles "inside a cell", which also
 * reads a doubled quote ("") right (out and back in).
 */
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export class CrlfRows {
  private quoted = false;

  /** `chunk` with every row-ending LF made CRLF; call in stream order. */
  convert(chunk: Buffer): Buffer {
    const ends: number[] = [];
    let i = 0;
    // The next quote at or after i, or -1 when there is none left in the chunk.
    let quote = -2;
    for (;;) {
      if (this.quoted) {
        const close = chunk.indexOf(QUOTE, i);
        if (close < 0) break;
        this.quoted = false;
        i = close + 1;
        continue;
      }
      if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
      const lf = chunk.indexOf(LF, i);
      if (quote !== -1 && (lf < 0 || quote < lf)) {
        this.quoted = true;
        i = quote + 1;
        continue;
      }
      if (lf < 0) break;
      ends.push(lf);
      i = lf + 1;
    }
    if (ends.length === 0) return chunk;
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let to = 0;
    for (const end of ends) {
      to += chunk.copy(out, to, from, end);
      out[to++] = CR;
      out[to++] = LF;
      from = end + 1;
    }
    chunk.copy(out, to, from);
    return out;
  }
}
