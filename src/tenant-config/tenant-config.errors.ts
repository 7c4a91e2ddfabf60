import { defineProblem } from '@/common/app-error';

/** PUT with an If-Match that is not the current ETag. */
export const CONFIGURATION_CHANGED = defineProblem({
  status: 412,
  code: 'CONFIGURATION_CHANGED',
  detail: () =>
    'The configuration changed since it was read (If-Match does not match the current ETag); GET it again and retry.',
  example: [],
});

/** Every tenant gets a configuration at creation; a missing row is a data problem. */
export const CONFIGURATION_NOT_FOUND = defineProblem({
  status: 404,
  code: 'CONFIGURATION_NOT_FOUND',
  detail: () => 'This tenant has no configuration.',
  example: [],
});
