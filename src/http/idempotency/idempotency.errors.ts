import { defineProblem } from '@/common/app-error';

export const IDEMPOTENCY_KEY_INVALID = defineProblem({
  status: 400,
  code: 'IDEMPOTENCY_KEY_INVALID',
  detail: () => 'The Idempotency-Key header must be 1 to 200 printable ASCII characters.',
  example: [],
});

export const IDEMPOTENCY_KEY_REUSED = defineProblem({
  status: 422,
  code: 'IDEMPOTENCY_KEY_REUSED',
  detail: () =>
    'This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.',
  example: [],
});

/** What every `idempotent` route documents. */
export const IDEMPOTENCY_PROBLEMS = [IDEMPOTENCY_KEY_REUSED] as const;
