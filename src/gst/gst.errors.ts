import { defineProblem } from '@/common/app-error';
import { gstinCheckChar, gstinValid, normaliseGstin } from './gst-tax';

/** Errors of the GST rule's inputs (docs/gst.md), shared by every feature that takes a GSTIN. */

/** A GSTIN of the wrong form, or whose check character disagrees with its first 14. */
export const GSTIN_INVALID = defineProblem({
  status: 400,
  code: 'GSTIN_INVALID',
  detail: (field: string, reason: string) => `${field} is not a valid GSTIN: ${reason}.`,
  example: ['gstin', 'its check character does not match its first 14 characters'],
});

const FORM =
  'a GSTIN is 15 characters: a state code 01-38 or 97, a PAN (5 letters, 4 digits, 1 letter), an entity character (1-9 or A-Z), Z and a check character';

/**
 * The GSTIN a person typed, normalised (trimmed, upper case), or 400 GSTIN_INVALID naming
 * `field`. Callers keep the normalised form, so one registration is stored one way.
 */
export function checkedGstin(field: string, input: string): string {
  const gstin = normaliseGstin(input);
  if (gstinValid(gstin)) return gstin;
  const wellFormed = /^[0-9A-Z]{14}/.test(gstin) && gstin.length === 15;
  const reason =
    wellFormed && gstinValid(gstin.slice(0, 14) + gstinCheckChar(gstin.slice(0, 14)))
      ? 'its check character does not match its first 14 characters'
      : FORM;
  throw GSTIN_INVALID.errorWith(
    { errors: [{ field, message: `${field} ${reason}` }] },
    field,
    reason,
  );
}
