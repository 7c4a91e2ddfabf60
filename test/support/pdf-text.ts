import { execFile } from 'node:child_process';

/**
 * The text of a PDF, extracted by pdf-parse (pdf.js) in a child Node process: pdf.js loads its
 * worker with a dynamic import, which jest's module sandbox refuses.
 */
const EXTRACT = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', async () => {
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  process.stdout.write((await parser.getText()).text);
  await parser.destroy();
});`;

export function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-e', EXTRACT],
      { cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => (error ? reject(new Error(error.message)) : resolve(stdout)),
    );
    child.stdin?.end(pdf);
  });
}
