import { AppError } from '@/common/app-error';

/** Sent on every committed write, and sent back on reads that must see it (docs/api.md). */
export const CONSISTENCY_TOKEN_HEADER = 'X-Consistency-Token';

/** The token's example value in the OpenAPI document. */
export const CONSISTENCY_TOKEN_EXAMPLE = '0/3A1C2F8';

/**
 * The request header's schema. `default: ''` because Postman's OpenAPI converter fills an
 * optional header without a default with the placeholder `<string>`, which would make every
 * read of an imported collection 400; empty means no token.
 */
export const CONSISTENCY_TOKEN_PARAMETER_SCHEMA = {
  type: 'string',
  maxLength: 17,
  default: '',
  example: CONSISTENCY_TOKEN_EXAMPLE,
} as const;

/** Documents the request header on reads (parameter) ... */
export const CONSISTENCY_TOKEN_PARAMETER_DESCRIPTION =
  'Read-your-writes: the `X-Consistency-Token` of an earlier write response. The read then sees that write even when a read replica serves it (it waits up to REPLICA_WAIT_MS for the replica to replay it, else the primary answers). Opaque; send it back unchanged. Empty (what Postman sends for this optional header after an import) is the same as absent. Malformed: 400 INVALID_CONSISTENCY_TOKEN.';

/** ... and the response header on writes. */
export const CONSISTENCY_TOKEN_RESPONSE_DESCRIPTION =
  "The commit's position in the database's log (opaque). Send it back as `X-Consistency-Token` on a read that must see this write, on any instance.";

/** The position from COMMIT_RETURNING_POSITION_SQL's (replicas.sql.ts) results (node-postgres: one per statement). */
export function positionOfCommit(results: unknown): bigint {
  type Result = { command?: string; rows?: { lsn?: unknown }[] };
  const [commit, select] = Array.isArray(results) ? (results as Result[]) : [];
  // COMMIT of a transaction that had failed answers ROLLBACK, without an error.
  if (commit?.command !== 'COMMIT') throw new Error(`COMMIT answered ${commit?.command}`);
  const lsn = select?.rows?.[0]?.lsn;
  const position = typeof lsn === 'string' ? parseLsn(lsn) : undefined;
  if (position === undefined) throw new Error('COMMIT returned no WAL position');
  return position;
}

/** PostgreSQL's text form of a WAL position (pg_lsn): two hex words. */
const LSN_TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/**
 * The token is the primary's WAL position right after the write committed, in pg_lsn text
 * form. Clients treat it as opaque; a replica that has replayed up to it has the write.
 */
export function lsnToToken(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** A pg_lsn text (as PostgreSQL returns it) as a number that compares. */
export function parseLsn(text: string): bigint | undefined {
  const match = LSN_TEXT.exec(text.trim());
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/**
 * The request's X-Consistency-Token as a WAL position; undefined when absent or empty (a
 * collection generated from the OpenAPI document sends every optional header, this one empty:
 * its default). A malformed one is 400 INVALID_CONSISTENCY_TOKEN: reading without it could
 * silently miss the write.
 */
export function consistencyTokenOf(header: string | string[] | undefined): bigint | undefined {
  if (header === undefined || (typeof header === 'string' && header.trim() === '')) {
    return undefined;
  }
  const lsn = typeof header === 'string' ? parseLsn(header) : undefined;
  if (lsn === undefined) {
    throw AppError.badRequest(
      'INVALID_CONSISTENCY_TOKEN',
      `${CONSISTENCY_TOKEN_HEADER} must be a token returned by a write of this service (such as 0/3A1C2F8), sent back unchanged.`,
    );
  }
  return lsn;
}
