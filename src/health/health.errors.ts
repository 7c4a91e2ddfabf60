import { defineProblem } from '@/common/app-error';

/**
 * The probes' 503s, with the lifecycle's own words (LifecycleState). The controller throws them
 * as ServiceUnavailableException with this detail: a deliberate 503 is not logged as an
 * unhandled error, and the problem filter gives it code SERVICE_UNAVAILABLE and Retry-After.
 */
export const NOT_LIVE = defineProblem({
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  detail: (problem: string) => problem,
  example: ['The embedded PostgreSQL could not be restarted after 3 attempts.'],
});

export const NOT_READY = defineProblem({
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  detail: (problem: string) => problem,
  example: ['Shutting down (SIGTERM received).'],
});
