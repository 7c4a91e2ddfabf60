#!/usr/bin/env node
// `npm start` and the helper commands run compiled JS; build once when dist is missing or older
// than any source file, so the README's two commands work on a fresh clone.
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
const marker = join(root, 'dist', 'src', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const sources = ['src', 'migrations', 'bench'].map((d) => join(root, d)).filter(existsSync);
const stale = !existsSync(marker) || sources.some((d) => newestMtime(d) > statSync(marker).mtimeMs);
if (stale) {
  process.stderr.write('Building (dist is missing or out of date)...\n');
  // Build output goes to stderr: stdout of `npm run -s token` must hold the token only.
  execSync('npx nest build', { cwd: root, stdio: ['ignore', 2, 2] });
}
