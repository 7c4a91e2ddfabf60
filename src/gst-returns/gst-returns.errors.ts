import { defineProblem } from '@/common/app-error';

/** Errors of the GST returns (docs/returns-and-books.md). */

/**
 * The return disagrees with its own documents (a line's tax not its rate's, the tables' tax not
 * the documents', the HSN summary not the documents'): no file is handed over. It should never
 * happen; `errors` names each document (or table) and what disagrees.
 */
export const GSTR1_INCONSISTENT = defineProblem({
  status: 422,
  code: 'GSTR1_INCONSISTENT',
  detail: (fp: string, where: string) =>
    `The GSTR-1 of ${fp} does not agree with its documents (${where}), so no file is given: a return filed from it would carry the wrong tax. Report it with this response's traceId.`,
  example: ['102026', 'INV/26-27/00003'],
});
