import { defineProblem } from '@/common/app-error';

/** An XLSX of more than MAX_XLSX_ROWS rows (field error on `format`). */
export const EXPORT_TOO_LARGE = defineProblem({
  status: 422,
  code: 'EXPORT_TOO_LARGE',
  detail: (maxRows: number) =>
    `More than ${maxRows.toLocaleString('en')} receipts match; export them as CSV (format=csv) or narrow the filters.`,
  example: [1_000_000],
});

/** Every connection of the export pool is exporting (thrown with Retry-After). */
export const EXPORT_BUSY = defineProblem({
  status: 503,
  code: 'EXPORT_BUSY',
  detail: (running: number) => `${running} exports are already running; retry in a few seconds.`,
  example: [2],
});
