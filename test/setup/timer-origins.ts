// Where each pending timer of Jest's own process was set, so that a run which does not exit
// after its teardown (test/setup/global-teardown.mjs) can say which code left one behind. With
// one worker (2 cores) Jest runs every suite in this process. Measured: a full `npm test` takes
// as long with the hook as without (393 s against 399 s, within the machine's noise).
import { createHook } from 'node:async_hooks';

interface TimerOrigin {
  stack: string;
  timer: NodeJS.Timeout;
}

/** Read by global-teardown.mjs under this name (it cannot import TypeScript). */
const TIMER_ORIGINS = '__FINANCE_TIMER_ORIGINS__';

export function recordTimerOrigins(): void {
  if ((globalThis as Record<string, unknown>)[TIMER_ORIGINS]) return; // e2e and browser both call it
  const origins = new Map<number, TimerOrigin>();
  (globalThis as Record<string, unknown>)[TIMER_ORIGINS] = origins;
  createHook({
    init(id, type, _trigger, resource) {
      if (type !== 'Timeout') return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 20;
      const stack = new Error('timer set').stack ?? '';
      Error.stackTraceLimit = limit;
      origins.set(id, { stack, timer: resource as NodeJS.Timeout });
    },
    destroy(id) {
      origins.delete(id);
    },
  }).enable();
}
