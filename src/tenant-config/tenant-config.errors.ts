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

/** A raised Starting of a gap-free GST series that would skip numbers of a counter in use. */
export const NUMBER_SERIES_IN_USE = defineProblem({
  status: 409,
  code: 'NUMBER_SERIES_IN_USE',
  detail: (field: string, starting: number, series: string, next: string) =>
    `${field} ${starting} would move the series ${series} forward from ${next}, leaving a gap; its numbers must stay consecutive. Keep ${field} at most ${next}.`,
  example: ['taxInvoiceNumberStarting', 500, 'INV/26-27/{SEQ}', '4'],
});
