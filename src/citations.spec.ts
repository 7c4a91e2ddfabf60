import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Comments and docs point at what a reader of this repository can open: docs/ and the code. The
 * product contract they were written from lives outside the repository and its section numbers
 * move, and README sections get renamed; a citation of either leads nowhere. This keeps them out.
 */
const ROOT = join(__dirname, '..');
const SCANNED = ['src', 'test', 'bench', 'scripts', 'migrations', 'docs', 'README.md'];
const CITATIONS = [
  { what: 'the external contract', pattern: /\bCONTRACT(\.md)?\s*§|\bCONTRACT\.md\b/ },
  { what: 'a README section by name', pattern: /README(\.md)?, "[^"]+"/ },
];

function files(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) =>
    name === 'node_modules' || name.startsWith('.') ? [] : files(join(path, name)),
  );
}

describe('citations', () => {
  it('no comment or doc cites the external contract or a README section by name', () => {
    const found: string[] = [];
    for (const file of SCANNED.flatMap((p) => files(join(ROOT, p)))) {
      if (!/\.(ts|mjs|js|cjs|md)$/.test(file) || file === __filename) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const c of CITATIONS) {
            if (c.pattern.test(line))
              found.push(`${relative(ROOT, file)}:${i + 1} cites ${c.what}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
