import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './data-source-options';

describe('MIGRATIONS', () => {
  // A migration file that is not listed never runs, and nothing else would notice: its tests
  // pass on a schema that does not have it.
  it('lists every file of migrations/, in timestamp order', () => {
    const files = readdirSync(join(__dirname, '..', '..', 'migrations'))
      .filter((f) => /^\d+-\w+\.ts$/.test(f))
      .sort();
    const names = files.map((f) => {
      const [timestamp, name] = f.replace(/\.ts$/, '').split('-');
      return `${name}${timestamp}`;
    });
    expect(MIGRATIONS.map((m) => m.name)).toEqual(names);
  });
});
