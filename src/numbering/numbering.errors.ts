import { defineProblem } from '@/common/app-error';
import { DOCUMENT_TYPES, EXTERNAL_DOCUMENT_TYPES } from './number-pattern';

export const NUMBERING_EXHAUSTED = defineProblem({
  status: 409,
  code: 'NUMBERING_EXHAUSTED',
  detail: (type: string, attempts: number) =>
    `Could not find a free ${type} number after ${attempts} attempts; review the ${type} pattern.`,
  example: ['receipt', 1000],
});

/** A bare number asked for a type whose numbers come only with their document. */
export const NUMBER_ISSUED_WITH_DOCUMENT = defineProblem({
  status: 400,
  code: 'NUMBER_ISSUED_WITH_DOCUMENT',
  detail: (type: string, external: readonly string[]) =>
    `A ${type} number is issued only with its ${type}, so the series stays gap-free; bare numbers exist for: ${external.join(', ')}.`,
  example: ['receipt', EXTERNAL_DOCUMENT_TYPES],
});

export const UNKNOWN_DOCUMENT_TYPE = defineProblem({
  status: 400,
  code: 'UNKNOWN_DOCUMENT_TYPE',
  detail: (known: readonly string[]) => `documentType must be one of: ${known.join(', ')}.`,
  example: [DOCUMENT_TYPES],
});

/** A {PARENT} pattern asked for a number without its parent document's number. */
export const NUMBERING_PARENT_REQUIRED = defineProblem({
  status: 422,
  code: 'NUMBERING_PARENT_REQUIRED',
  detail: (type: string, pattern: string) =>
    `The ${type} pattern "${pattern}" uses {PARENT}: such numbers are issued with their parent document, not on their own.`,
  example: ['demand', '{PARENT}{SEP}{SEQ:2}'],
});

/** A GST document's number would exceed the 16 characters GST rules allow (the counter grew). */
export const NUMBER_TOO_LONG = defineProblem({
  status: 409,
  code: 'NUMBER_TOO_LONG',
  detail: (type: string, number: string, max: number) =>
    `The next ${type} number, ${number}, is ${[...number].length} characters; GST rules allow at most ${max}. Nothing was created: change the ${type} prefix or pattern (a new financial year restarts the counter).`,
  example: ['tax-invoice', 'INVC/26-27/100000', 16],
});
