import { defineProblem } from '@/common/app-error';

/** Errors of the tenant's GST settings (docs/gst.md). */

/** PUT /tenant/gst with an If-Match that is not the current ETag. */
export const GST_SETTINGS_CHANGED = defineProblem({
  status: 412,
  code: 'GST_SETTINGS_CHANGED',
  detail: () =>
    'The GST settings changed since they were read (If-Match does not match the current ETag); GET them again and retry.',
  example: [],
});

/** Enabled without what every tax invoice must print about its supplier (rule 46). */
export const GST_SETTINGS_INCOMPLETE = defineProblem({
  status: 422,
  code: 'GST_SETTINGS_INCOMPLETE',
  detail: (missing: string) =>
    `GST cannot be enabled without ${missing}: every tax invoice prints the supplier's GSTIN, legal name and address.`,
  example: ['gstin, address'],
});
