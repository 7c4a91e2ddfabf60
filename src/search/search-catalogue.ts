/**
 * The shared search engine's vocabulary (docs/search.md): field types, the
 * operators each type accepts and their spellings, and SearchCatalogue, the per-resource list of
 * fields and sort columns. A resource (receipts, demands, bookings) declares one catalogue; the
 * parser (search-request.ts) and the condition compiler (search-conditions.ts) work from it, and
 * SQL column names come only from catalogues.
 */
/** Canonical filter operators (the `type` of a filter after normalisation). */
export const SEARCH_OPERATORS = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'IS_NULL',
  'IS_NOT_NULL',
] as const;

export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/** Operators that take no value (`query` is ignored and may be omitted). */
export type NullOperator = 'IS_NULL' | 'IS_NOT_NULL';
/** Operators that take a comma-separated list. */
export type ListOperator = 'IN' | 'NOT_IN';
/** Operators that take exactly one value. */
export type SingleOperator = Exclude<SearchOperator, NullOperator | ListOperator | 'BETWEEN'>;

/** `keyword` is a pseudo-field (text searched across several columns). */
export type SearchFieldType = 'uuid' | 'enum' | 'text' | 'number' | 'date' | 'keyword';

/**
 * Where a field lives: the resource's own table (its `root` source), a joined table (one
 * correlated EXISTS per source, see search-conditions.ts), or `keyword`, compiled specially.
 */
export type SearchFieldSource = string;

export interface SearchFieldDef {
  /** Canonical name, as in the response body (e.g. `demandMeta.unit`). */
  readonly name: string;
  /** Extra accepted names (flat aliases such as `unit`). */
  readonly aliases: readonly string[];
  readonly type: SearchFieldType;
  readonly source: SearchFieldSource;
  /** Unqualified column in the source table (empty for `keyword`). */
  readonly column: string;
  /** Whether the column can be NULL; NOT_* operators then also match NULL rows. */
  readonly nullable: boolean;
  /** Allowed values (upper case) for `enum` fields. */
  readonly enumValues?: readonly string[];
}

export function field(
  name: string,
  type: SearchFieldType,
  source: SearchFieldSource,
  column: string,
  options: { aliases?: readonly string[]; nullable?: boolean; enumValues?: readonly string[] } = {},
): SearchFieldDef {
  return Object.freeze({
    name,
    aliases: Object.freeze([...(options.aliases ?? [])]),
    type,
    source,
    column,
    nullable: options.nullable ?? false,
    ...(options.enumValues ? { enumValues: Object.freeze([...options.enumValues]) } : {}),
  });
}

const EQUALITY_OPERATORS: readonly SearchOperator[] = [
  'EQUALS',
  'NOT_EQUALS',
  'IN',
  'NOT_IN',
  'IS_NULL',
  'IS_NOT_NULL',
];

const RANGE_OPERATORS: readonly SearchOperator[] = [
  'EQUALS',
  'NOT_EQUALS',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'IS_NULL',
  'IS_NOT_NULL',
];

export const OPERATORS_BY_TYPE: Readonly<Record<SearchFieldType, readonly SearchOperator[]>> =
  Object.freeze({
    uuid: EQUALITY_OPERATORS,
    enum: EQUALITY_OPERATORS,
    text: [
      'EQUALS',
      'NOT_EQUALS',
      'CONTAINS',
      'NOT_CONTAINS',
      'STARTS_WITH',
      'ENDS_WITH',
      'IN',
      'NOT_IN',
      'IS_NULL',
      'IS_NOT_NULL',
    ],
    number: RANGE_OPERATORS,
    date: RANGE_OPERATORS,
    keyword: ['CONTAINS'],
  });

export function allowedOperators(def: SearchFieldDef): readonly SearchOperator[] {
  return OPERATORS_BY_TYPE[def.type];
}

/**
 * Operator spellings, keyed by the normalised form (upper case, with spaces, `-` and `_`
 * removed), so `starts with`, `STARTS-WITH`, `startsWith` and `starts_with` all match.
 */
const OPERATOR_SYNONYMS: ReadonlyMap<string, SearchOperator> = new Map<string, SearchOperator>([
  ['EQUALS', 'EQUALS'],
  ['EQUAL', 'EQUALS'],
  ['EQ', 'EQUALS'],
  ['IS', 'EQUALS'],
  ['=', 'EQUALS'],
  ['==', 'EQUALS'],
  ['NOTEQUALS', 'NOT_EQUALS'],
  ['NOTEQUAL', 'NOT_EQUALS'],
  ['NE', 'NOT_EQUALS'],
  ['NEQ', 'NOT_EQUALS'],
  ['!=', 'NOT_EQUALS'],
  ['<>', 'NOT_EQUALS'],
  ['CONTAINS', 'CONTAINS'],
  ['LIKE', 'CONTAINS'],
  ['ILIKE', 'CONTAINS'],
  ['NOTCONTAINS', 'NOT_CONTAINS'],
  ['NOTLIKE', 'NOT_CONTAINS'],
  ['NOTILIKE', 'NOT_CONTAINS'],
  ['STARTSWITH', 'STARTS_WITH'],
  ['ENDSWITH', 'ENDS_WITH'],
  ['GT', 'GT'],
  ['>', 'GT'],
  ['GTE', 'GTE'],
  ['GE', 'GTE'],
  ['>=', 'GTE'],
  ['LT', 'LT'],
  ['<', 'LT'],
  ['LTE', 'LTE'],
  ['LE', 'LTE'],
  ['<=', 'LTE'],
  ['BETWEEN', 'BETWEEN'],
  ['IN', 'IN'],
  ['NOTIN', 'NOT_IN'],
  ['ISNULL', 'IS_NULL'],
  ['ISNOTNULL', 'IS_NOT_NULL'],
]);

/** Maps any accepted spelling of an operator to its canonical name, or undefined. */
export function normaliseOperator(raw: string): SearchOperator | undefined {
  const key = raw.replace(/[\s_-]+/g, '').toUpperCase();
  return OPERATOR_SYNONYMS.get(key);
}

export type SortDirection = 'asc' | 'desc';

export interface SortKey {
  /** A key of the catalogue's sortColumns. */
  readonly field: string;
  readonly direction: SortDirection;
}

/** One resource's searchable fields and sortable columns. */
export class SearchCatalogue {
  /** Every accepted field name (canonical names and aliases), for "allowed" listings. */
  readonly fieldNames: readonly string[];
  readonly sortFields: readonly string[];
  private readonly byName = new Map<string, SearchFieldDef>();
  private readonly byLowerName = new Map<string, SearchFieldDef>();
  private readonly sortByLowerName: ReadonlyMap<string, string>;

  constructor(
    /** What is searched, for messages (`receipts`). */
    readonly resource: string,
    readonly fields: readonly SearchFieldDef[],
    /** Sortable field name → column of the resource's own table. Must include `id`. */
    readonly sortColumns: Readonly<Record<string, string>>,
    /** The order without `sort` (ends with the id tie-breaker). */
    readonly defaultSort: readonly SortKey[],
  ) {
    for (const def of fields) {
      for (const name of [def.name, ...def.aliases]) {
        this.byName.set(name, def);
        this.byLowerName.set(name.toLowerCase(), def);
      }
    }
    this.fieldNames = Object.freeze([...this.byName.keys()]);
    this.sortFields = Object.freeze(Object.keys(sortColumns));
    this.sortByLowerName = new Map(this.sortFields.map((f) => [f.toLowerCase(), f]));
  }

  /** Resolves a field name or alias: exact match first, then case-insensitive. */
  findField(name: string): SearchFieldDef | undefined {
    return this.byName.get(name) ?? this.byLowerName.get(name.trim().toLowerCase());
  }

  /** Resolves a sort field name: exact match first, then case-insensitive. */
  findSortField(name: string): string | undefined {
    if (Object.prototype.hasOwnProperty.call(this.sortColumns, name)) return name;
    return this.sortByLowerName.get(name.toLowerCase());
  }
}
