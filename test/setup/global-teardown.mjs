import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const handle = globalThis.__FINANCE_PG__;
  if (!handle) return;
  await handle.bouncer?.stop();
  await handle.server.stop();
  rmSync(handle.root, { recursive: true, force: true });
}
