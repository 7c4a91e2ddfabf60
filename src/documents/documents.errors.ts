import { defineProblem } from '@/common/app-error';

/** A `download` value other than 1, 0, true, false (field error on `download`). */
export const DOWNLOAD_INVALID = defineProblem({
  status: 400,
  code: 'VALIDATION_FAILED',
  detail: () => 'download must be one of 1, 0, true, false.',
  example: [],
});
