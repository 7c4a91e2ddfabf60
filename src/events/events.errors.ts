import { defineProblem } from '@/common/app-error';

/** `after` is below the oldest kept event: the feed cannot say what was purged in between. */
export const EVENTS_EXPIRED = defineProblem({
  status: 410,
  code: 'EVENTS_EXPIRED',
  detail: (oldestKept: number) =>
    `Events up to ${oldestKept - 1} were purged (EVENTS_RETENTION_DAYS); the oldest kept is ${oldestKept}. Resynchronise from search, then follow the feed from after=${oldestKept - 1}.`,
  example: [1201],
});
