import { defineProblem } from '@/common/app-error';

/** Errors of the books (docs/returns-and-books.md, "Books"). */

/** PUT /tenant/books with an If-Match that is not the current ETag. */
export const BOOKS_SETTINGS_CHANGED = defineProblem({
  status: 412,
  code: 'BOOKS_SETTINGS_CHANGED',
  detail: () =>
    'The books settings changed since they were read (If-Match does not match the current ETag); GET them again and retry.',
  example: [],
});
