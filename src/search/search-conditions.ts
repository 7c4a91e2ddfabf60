/**
 * The shared search engine's SQL: turns parsed filters (search-request.ts) into parameterised
 * PostgreSQL conditions over a resource's table and the tables it joins, and a sort into ORDER BY. Each resource describes its tables in a SearchSqlShape; every user value
 * is a bind parameter, SQL text comes only from the shape, the catalogue's column names, fixed
 * aliases and operator keywords.
 *
 * Filters on the resource's own columns apply directly to its alias; all filters of one joined
 * source share ONE correlated EXISTS. NULL semantics: on `nullable` columns the negative
 * operators also match NULL (NOT_EQUALS is `IS DISTINCT FROM`; NOT_IN / NOT_CONTAINS add
 * `col IS NULL OR ...`).
 */
import { SearchFieldDef } from '@/search/search-catalogue';
import { ParsedFilter, SortKey } from '@/search/search-request';

export interface SearchSqlShape {
  /** Alias of the resource's own table in every statement (`r` for `receipts r`). */
  readonly alias: string;
  /** The catalogue source of the resource's own columns (`receipt`). */
  readonly rootSource: string;
  /**
   * Joined sources, in the order their EXISTS are written: the alias their columns use and the
   * EXISTS body up to its conditions (`demand_splits s WHERE s.tenant_id = r.tenant_id AND ...`).
   */
  readonly joins: Readonly<Record<string, { readonly alias: string; readonly from: string }>>;
  /** Sortable field → column of the resource's own table (includes `id`). */
  readonly sortColumns: Readonly<Record<string, string>>;
  /** The scanning condition of `keyword CONTAINS`, the pattern bound as `param`. */
  keywordScan(param: string): string;
}

/** Collects bind values and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const CASTS: Readonly<Record<'uuid' | 'enum' | 'number' | 'date', string>> = {
  uuid: 'uuid',
  enum: 'text',
  number: 'numeric',
  date: 'date',
};

/** Escapes LIKE/ILIKE wildcards (`%`, `_`) and the escape character itself (backslash). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function unsupported(filter: ParsedFilter): never {
  throw new Error(
    `search-sql: operator ${filter.operator} is not supported for ${filter.field.name} (${filter.field.type})`,
  );
}

function textCondition(filter: ParsedFilter, col: string, nullable: boolean, p: Params): string {
  const orNull = (cond: string): string => (nullable ? `(${col} IS NULL OR ${cond})` : cond);
  switch (filter.operator) {
    case 'EQUALS':
      return `lower(${col}) = lower(${p.add(filter.value)}::text)`;
    case 'NOT_EQUALS':
      return nullable
        ? `lower(${col}) IS DISTINCT FROM lower(${p.add(filter.value)}::text)`
        : `lower(${col}) <> lower(${p.add(filter.value)}::text)`;
    case 'CONTAINS':
      return `${col} ILIKE ${p.add(`%${escapeLike(filter.value)}%`)}`;
    case 'NOT_CONTAINS':
      return orNull(`${col} NOT ILIKE ${p.add(`%${escapeLike(filter.value)}%`)}`);
    case 'STARTS_WITH':
      return `${col} ILIKE ${p.add(`${escapeLike(filter.value)}%`)}`;
    case 'ENDS_WITH':
      return `${col} ILIKE ${p.add(`%${escapeLike(filter.value)}`)}`;
    case 'IN':
    case 'NOT_IN': {
      const values = [...new Set(filter.values.map((v) => v.toLowerCase()))];
      return filter.operator === 'IN'
        ? `lower(${col}) = ANY(${p.add(values)}::text[])`
        : orNull(`lower(${col}) <> ALL(${p.add(values)}::text[])`);
    }
    default:
      return unsupported(filter);
  }
}

function typedCondition(
  filter: ParsedFilter,
  col: string,
  cast: string,
  nullable: boolean,
  p: Params,
): string {
  switch (filter.operator) {
    case 'EQUALS':
      return `${col} = ${p.add(filter.value)}::${cast}`;
    case 'NOT_EQUALS':
      return nullable
        ? `${col} IS DISTINCT FROM ${p.add(filter.value)}::${cast}`
        : `${col} <> ${p.add(filter.value)}::${cast}`;
    case 'GT':
      return `${col} > ${p.add(filter.value)}::${cast}`;
    case 'GTE':
      return `${col} >= ${p.add(filter.value)}::${cast}`;
    case 'LT':
      return `${col} < ${p.add(filter.value)}::${cast}`;
    case 'LTE':
      return `${col} <= ${p.add(filter.value)}::${cast}`;
    case 'BETWEEN':
      return `${col} BETWEEN ${p.add(filter.from)}::${cast} AND ${p.add(filter.to)}::${cast}`;
    case 'IN':
      return `${col} = ANY(${p.add([...filter.values])}::${cast}[])`;
    case 'NOT_IN': {
      const cond = `${col} <> ALL(${p.add([...filter.values])}::${cast}[])`;
      return nullable ? `(${col} IS NULL OR ${cond})` : cond;
    }
    default:
      return unsupported(filter);
  }
}

/**
 * pg_trgm takes trigrams only from runs of word characters; without a run of three (ASCII, so
 * under any database locale) the trigram indexes cannot narrow anything and the scan is cheaper.
 */
export function keywordUsesIndex(value: string): boolean {
  return /[A-Za-z0-9]{3}/.test(value);
}

/** Marks where the indexed keyword's condition goes in the WHERE text of compileConditions. */
export const KEYWORD_SLOT = '\u0000keyword\u0000';

function columnCondition(
  shape: SearchSqlShape,
  filter: ParsedFilter,
  def: SearchFieldDef,
  p: Params,
  indexedKeyword?: ParsedFilter,
): string {
  if (def.source === 'keyword') {
    if (filter === indexedKeyword) return KEYWORD_SLOT;
    if (filter.operator !== 'CONTAINS') return unsupported(filter);
    return shape.keywordScan(p.add(`%${escapeLike(filter.value)}%`));
  }
  const alias = def.source === shape.rootSource ? shape.alias : shape.joins[def.source].alias;
  const col = `${alias}.${def.column}`;
  if (filter.operator === 'IS_NULL') return `${col} IS NULL`;
  if (filter.operator === 'IS_NOT_NULL') return `${col} IS NOT NULL`;
  if (def.type === 'text') return textCondition(filter, col, def.nullable, p);
  if (def.type === 'keyword') return unsupported(filter);
  return typedCondition(filter, col, CASTS[def.type], def.nullable, p);
}

/**
 * The WHERE conditions, starting with the tenant's (`<alias>.tenant_id = $1::uuid`); params are
 * numbered in textual order. `indexedKeyword`, when given, leaves KEYWORD_SLOT in its place.
 */
export function compileConditions(
  shape: SearchSqlShape,
  filters: readonly ParsedFilter[],
  p: Params,
  indexedKeyword?: ParsedFilter,
): string {
  const conditions = [`${shape.alias}.tenant_id = $1::uuid`];
  for (const f of filters) {
    if (f.field.source === shape.rootSource || f.field.source === 'keyword') {
      conditions.push(columnCondition(shape, f, f.field, p, indexedKeyword));
    }
  }
  for (const [source, join] of Object.entries(shape.joins)) {
    const joined = filters.filter((f) => f.field.source === source);
    if (joined.length === 0) continue;
    const conds = joined.map((f) => columnCondition(shape, f, f.field, p));
    conditions.push(`EXISTS (SELECT 1 FROM ${join.from} AND ${conds.join(' AND ')})`);
  }
  return conditions.join(' AND ');
}

/** ORDER BY over the resource's alias, with the `id desc` tie-breaker unless id is a key. */
export function compileOrderBy(shape: SearchSqlShape, sort: readonly SortKey[]): string {
  const keys = sort.some((k) => k.field === 'id')
    ? sort
    : [...sort, { field: 'id', direction: 'desc' } as const];
  return keys
    .map(
      (k) =>
        // `id` is the tie-breaker of every resource, sortable by users or not.
        `${shape.alias}.${k.field === 'id' ? 'id' : shape.sortColumns[k.field]} ${k.direction === 'asc' ? 'ASC' : 'DESC'}`,
    )
    .join(', ');
}
