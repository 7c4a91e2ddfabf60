import { createHash } from 'node:crypto';
import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Response } from 'express';

/** A representation with its version, as services answer GET and PUT of versioned settings. */
export interface WithEtag<T> {
  view: T;
  etag: string;
}

/** Strong ETag: a hash of the representation itself, so equal content has one tag everywhere. */
export function etagOf(representation: unknown, length = 27): string {
  const hash = createHash('sha256').update(JSON.stringify(representation)).digest('base64url');
  return `"${hash.slice(0, length)}"`;
}

const tags = (header: string) => header.split(',').map((t) => t.trim());

/**
 * Whether a write may go ahead: no If-Match, `*`, or the current ETag. Strong comparison (RFC
 * 9110 13.1.1): a weak tag (W/"...") never matches.
 */
export function ifMatchAllows(ifMatch: string | undefined, etag: string): boolean {
  return ifMatch === undefined || tags(ifMatch).some((t) => t === '*' || t === etag);
}

/** If-None-Match (RFC 9110 13.1.2): `*` or a tag equal by the weak comparison. */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return tags(ifNoneMatch).some((t) => t === '*' || t.replace(/^W\//, '') === etag);
}

/** Sets the ETag header and answers the view (`.then(sendEtag(res))`). */
export const sendEtag =
  (res: Response) =>
  <T>({ view, etag }: WithEtag<T>): T => {
    res.setHeader('ETag', etag);
    return view;
  };

const EXAMPLE_ETAG = '"3q2-7wEyN8Qk0X5m1aH9cFjWv0tB2sL4pR6uYz8"';

/** The ETag response header of a versioned resource, for `@ApiOkResponse({ headers })`. */
export const etagHeader = (what: string) => ({
  ETag: {
    description: `Version of this ${what}; send it as If-Match on PUT.`,
    schema: { type: 'string', example: EXAMPLE_ETAG },
  },
});

/** The optional If-Match request header of a PUT. */
export const ApiIfMatch = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: 'ETag from a previous GET or PUT (or `*`); another value is 412.',
      schema: { type: 'string', example: EXAMPLE_ETAG },
    }),
  );
