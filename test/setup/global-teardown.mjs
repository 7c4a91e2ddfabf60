import { rmSync } from 'node:fs';

// With one worker (2 cores) Jest runs every suite in its own process, so a socket, timer or
// child process a suite forgets keeps `npm test` from exiting after it has printed its result,
// and CI waits for it until its time runs out (it did once, for 70 minutes). If
// anything is still alive this long after the teardown began, say what it is, with where each
// pending timer was set (test/setup/timer-origins.ts), and exit with the code Jest has already
// decided (its own exit listener sets a failed run's code).
const LINGER_MS = 30_000;

function describeHandle(handle) {
  const name = handle?.constructor?.name ?? typeof handle;
  if ((name === 'Socket' || name === 'TLSSocket') && handle.remotePort) {
    return `${name} ${handle.localAddress}:${handle.localPort} -> ${handle.remoteAddress}:${handle.remotePort}`;
  }
  if (name === 'Server') return `Server ${JSON.stringify(handle.address())}`;
  if (name === 'ChildProcess') return `ChildProcess ${handle.pid}: ${handle.spawnargs?.join(' ')}`;
  return name;
}

function pendingTimers() {
  const origins = globalThis.__FINANCE_TIMER_ORIGINS__;
  if (!origins) return [];
  return [...origins.values()]
    .filter(({ timer }) => !timer._destroyed && timer.hasRef())
    .map(({ stack, timer }) => {
      const every = timer._repeat ? `every ${timer._repeat} ms` : `after ${timer._idleTimeout} ms`;
      return `Timeout (${every}), set ${stack.replace(/^Error: timer set\n/, '')}`;
    });
}

function reportLingering() {
  const lines = [
    `resources: ${process.getActiveResourcesInfo().join(', ')}`,
    ...process._getActiveHandles().map(describeHandle),
    ...pendingTimers(),
  ];
  console.error(
    `\nStill running ${LINGER_MS / 1000} s after the tests ended, so exiting anyway:\n` +
      lines.join('\n'),
  );
  process.exit();
}

export default async function globalTeardown() {
  setTimeout(reportLingering, LINGER_MS).unref();
  const handle = globalThis.__FINANCE_PG__;
  if (!handle) return;
  await handle.bouncer?.stop();
  await handle.server.stop();
  rmSync(handle.root, { recursive: true, force: true });
}
