import type request from 'supertest';

/** supertest parser that collects a file response (CSV, XLSX, PDF) into one Buffer. */
export function binaryBody(res: request.Response, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}
