/** Jitter on every retry wait: ±20 %, so failing subscriptions do not retry in step. */
export const RETRY_JITTER = 0.2;

/** What becomes of an event after one delivery attempt. */
export type RetryDecision =
  /** 2xx: the event is delivered, the cursor moves past it, the failure count resets. */
  | { kind: 'delivered' }
  /** Failed with retries left: tried again at `at` (RETRYING); later events wait behind it. */
  | { kind: 'retry'; at: Date }
  /** Failed on the last attempt of the schedule: FAILED, and the subscription is disabled. */
  | { kind: 'dead' };

export interface AttemptFacts {
  /** This attempt's number for the event, from 1. */
  attempt: number;
  /** Whether the receiver answered 2xx in time. */
  succeeded: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: the wait before retry n is `scheduleMs[n - 1]`. */
  scheduleMs: readonly number[];
  /** When the attempt ended (ms since the epoch). */
  now: number;
  /** A uniform number in [0, 1) for the jitter (Math.random() in production). */
  random: number;
}

/**
 * The retry decision for one attempt, and nothing else (no clock, no randomness of its own).
 * Attempt n (1-based) that fails is retried after `scheduleMs[n - 1]` ± RETRY_JITTER while the
 * schedule has an entry for it; the attempt after the last entry is the last one.
 */
export function decideRetry(facts: AttemptFacts): RetryDecision {
  if (facts.succeeded) return { kind: 'delivered' };
  if (facts.attempt > facts.scheduleMs.length) return { kind: 'dead' };
  const factor = 1 - RETRY_JITTER + facts.random * 2 * RETRY_JITTER;
  return { kind: 'retry', at: new Date(facts.now + facts.scheduleMs[facts.attempt - 1] * factor) };
}
