/**
 * One page of a search in one statement, for resources without a count cache (demands,
 * bookings): the page's ids from the resource's table alone (joined-table filters as EXISTS,
 * ordered by an index, LIMIT/OFFSET on index entries), the exact total unless the page itself
 * proves it (a non-empty page shorter than `size`, or an empty first page), and the page's rows
 * in page order. Receipts add incremental exact counts on top (src/receipts/search).
 *
 * `keyword CONTAINS` goes through the resource's trigram index as receipts' does: under
 * row-level security PostgreSQL never uses an index for `ILIKE` (not leakproof, so it may not
 * run before the policy), so a SECURITY DEFINER function (`keywordIds`, migrations) returns the
 * tenant's matching ids, up to a cap + 1, once per statement (the `kw` CTE). Of two branches a
 * one-time filter on the list's size runs exactly one: `id = ANY(ids)` within the cap, else the
 * scanning ILIKE form (a keyword matching a large share of the tenant reads it anyway).
 */
import { ApiProperty } from '@nestjs/swagger';
import {
  compileConditions,
  compileOrderBy,
  escapeLike,
  KEYWORD_SLOT,
  keywordUsesIndex,
  Params,
  SearchSqlShape,
} from '@/search/search-conditions';
import { ParsedSearchRequest } from '@/search/search-request';

export interface SearchTable extends SearchSqlShape {
  /** The resource's table (`demands`). */
  readonly table: string;
  /**
   * The SECURITY DEFINER function `(tenant uuid, pattern text, limit integer) RETURNS SETOF
   * uuid` giving the ids `keywordScan` matches, through the trigram index (migrations); without
   * one, `keyword` is always the scan.
   */
  readonly keywordIds?: string;
}

/** Above this many ids from the keyword lookup, the scanning branch runs instead. */
export const KEYWORD_ID_CAP = 10_000;

export interface PageStatement {
  text: string;
  params: unknown[];
}

/** A row of the page statement: the resource's columns (all NULL on an empty page's one row). */
export type PageRow<T> = T & {
  page_length: number;
  total: string | null;
  page_index: string | null;
};

/**
 * `rowColumns`: the columns of one row, unqualified, as selected from `table` alone. Binds:
 * tenant ($1), the filter values, LIMIT, OFFSET.
 */
export function pageStatement(
  spec: SearchTable,
  parsed: ParsedSearchRequest,
  tenantId: string,
  rowColumns: string,
): PageStatement {
  const p = new Params();
  p.add(tenantId);
  const a = spec.alias;
  const indexed = spec.keywordIds
    ? parsed.filters.find(
        (f) =>
          f.field.source === 'keyword' && f.operator === 'CONTAINS' && keywordUsesIndex(f.value),
      )
    : undefined;
  const k = indexed?.operator === 'CONTAINS' ? p.add(`%${escapeLike(indexed.value)}%`) : undefined;
  const where = compileConditions(spec, parsed.filters, p, indexed);
  const limit = p.add(parsed.size);
  const offset = p.add(parsed.page * parsed.size);
  const orderBy = compileOrderBy(spec, parsed.sort);
  const length = 'cardinality(page.ids)';
  const proven = `(${length} BETWEEN 1 AND ${limit}::int - 1 OR (${length} = 0 AND ${offset}::bigint = 0))`;
  let ids: string;
  let count: string;
  let kw = '';
  if (k === undefined) {
    ids =
      `SELECT ${a}.id FROM ${spec.table} ${a} WHERE ${where} ` +
      `ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`;
    count = `SELECT count(*) FROM ${spec.table} ${a} WHERE ${where}`;
  } else {
    kw =
      `kw AS MATERIALIZED (SELECT ARRAY(SELECT ${spec.keywordIds}($1::uuid, ${k}, ` +
      `${KEYWORD_ID_CAP + 1})) AS ids), `;
    const withinCap = `(SELECT cardinality(ids) <= ${KEYWORD_ID_CAP} FROM kw)`;
    const indexedWhere =
      where.replace(KEYWORD_SLOT, `${a}.id = ANY ((SELECT ids FROM kw)::uuid[])`) +
      ` AND ${withinCap}`;
    const scanWhere = `${where.replace(KEYWORD_SLOT, spec.keywordScan(k))} AND NOT ${withinCap}`;
    // `id` is every resource's tie-break; not every catalogue names it a sort column.
    const sortColumn = (field: string) => (field === 'id' ? 'id' : spec.sortColumns[field]);
    const columns = [...new Set(['id', ...parsed.sort.map((key) => sortColumn(key.field))])]
      .map((c) => `${a}.${c}`)
      .join(', ');
    // Each branch sorted and cut on its own, so the scanning one can walk a sort index and stop.
    const top = `ORDER BY ${orderBy} LIMIT (${limit}::bigint + ${offset}::bigint)`;
    ids =
      `SELECT ${a}.id FROM (` +
      `(SELECT ${columns} FROM ${spec.table} ${a} WHERE ${indexedWhere} ${top}) UNION ALL ` +
      `(SELECT ${columns} FROM ${spec.table} ${a} WHERE ${scanWhere} ${top})) ${a} ` +
      `ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`;
    count =
      `SELECT count(*) FROM (SELECT 1 FROM ${spec.table} ${a} WHERE ${indexedWhere} ` +
      `UNION ALL SELECT 1 FROM ${spec.table} ${a} WHERE ${scanWhere}) c`;
  }
  const text =
    `WITH ${kw}page AS MATERIALIZED (SELECT ARRAY(${ids}) AS ids) ` +
    `SELECT ${length} AS page_length, CASE WHEN ${proven} THEN NULL ELSE ` +
    `(${count}) END::text AS total, x.* ` +
    `FROM page LEFT JOIN LATERAL (SELECT o.n AS page_index, t.* ` +
    `FROM unnest(page.ids) WITH ORDINALITY AS o(id, n) CROSS JOIN LATERAL ` +
    `(SELECT ${rowColumns} FROM ${spec.table} WHERE tenant_id = $1::uuid AND id = o.id) t) x ON true ` +
    `ORDER BY x.page_index`;
  return { text, params: [...p.values] };
}

/** The page's rows (without the empty page's NULL row) and the exact total. */
export function settlePage<T>(
  parsed: ParsedSearchRequest,
  rows: PageRow<T>[],
): { rows: T[]; totalElements: number } {
  const first = rows[0];
  const offset = parsed.page * parsed.size;
  const totalElements = first.total === null ? offset + first.page_length : Number(first.total);
  const found: T[] = rows.filter((row) => row.page_index !== null);
  return { rows: found, totalElements };
}

/** The page object around `content` (docs/search.md), with the exact totals. */
export class PageMetaView {
  @ApiProperty({ description: 'True when content is empty.', example: false }) empty: boolean;
  @ApiProperty({ description: 'True on page 0.', example: true }) first: boolean;
  @ApiProperty({
    description: 'True when page >= totalPages - 1 (also past the end).',
    example: false,
  })
  last: boolean;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: '1-based position of the first element; 0 when empty.',
  })
  from: number;
  @ApiProperty({
    type: 'integer',
    example: 20,
    description: 'Position of the last element; 0 when empty.',
  })
  to: number;
  @ApiProperty({ type: 'integer', description: 'The page returned, 0-based.', example: 0 })
  pageNumber: number;
  @ApiProperty({ type: 'integer', description: 'The page size applied.', example: 20 })
  pageSize: number;
  @ApiProperty({
    type: 'integer',
    description: 'All records matching the filters (exact).',
    example: 4213,
  })
  totalElements: number;
  @ApiProperty({ type: 'integer', description: 'ceil(totalElements / pageSize).', example: 211 })
  totalPages: number;
}

export function toPage<T>(
  content: T[],
  page: number,
  size: number,
  totalElements: number,
): PageMetaView & { content: T[] } {
  const offset = page * size;
  const totalPages = Math.ceil(totalElements / size);
  return {
    content,
    empty: content.length === 0,
    first: page === 0,
    last: page >= totalPages - 1,
    from: content.length > 0 ? offset + 1 : 0,
    to: content.length > 0 ? offset + content.length : 0,
    pageNumber: page,
    pageSize: size,
    totalElements,
    totalPages,
  };
}
