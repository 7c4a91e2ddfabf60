/**
 * The catalogue behind POST /receipts/search: which fields can be filtered and sorted, their
 * types, the operators each type accepts, and the only place SQL column names come from.
 *
 * Nothing here touches user input directly; search-request.ts resolves raw names against this
 * catalogue and search-sql.ts turns the resolved definitions into SQL.
 */
import {
  DEMAND_STATUSES,
  DEMAND_TYPES,
  PAYER_TYPES,
  PAYMENT_MODES,
  RECEIPT_STATUSES,
} from '@/common/domain/enums';

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
 * Where a field lives. `receipt` columns are filtered directly on `receipts r`; `split` and
 * `demand` columns inside one correlated EXISTS each; `keyword` is compiled specially.
 */
export type SearchFieldSource = 'receipt' | 'split' | 'demand' | 'keyword';

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

// Splits share the demand status set (contract section 4).
const DEMAND_SPLIT_STATUSES = DEMAND_STATUSES;

function field(
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

export const SEARCH_FIELDS: readonly SearchFieldDef[] = Object.freeze([
  field('id', 'uuid', 'receipt', 'id'),
  field('demandSplit', 'uuid', 'receipt', 'demand_split_id'),
  field('demand', 'uuid', 'receipt', 'demand_id'),
  field('booking', 'uuid', 'receipt', 'booking_id'),
  field('payerType', 'enum', 'receipt', 'payer_type', { enumValues: PAYER_TYPES }),
  field('paymentMode', 'enum', 'receipt', 'payment_mode', { enumValues: PAYMENT_MODES }),
  field('status', 'enum', 'receipt', 'status', { enumValues: RECEIPT_STATUSES }),
  field('receiptNumber', 'text', 'receipt', 'receipt_number'),
  field('transactionRef', 'text', 'receipt', 'transaction_ref'),
  field('amount', 'number', 'receipt', 'amount'),
  field('receivedDate', 'date', 'receipt', 'received_date'),

  field('demandSplitMeta.payerId', 'uuid', 'split', 'payer_id', { aliases: ['payerId'] }),
  field('demandSplitMeta.demandSplitNumber', 'text', 'split', 'demand_split_number', {
    aliases: ['demandSplitNumber'],
  }),
  field('demandSplitMeta.status', 'enum', 'split', 'status', {
    enumValues: DEMAND_SPLIT_STATUSES,
  }),

  field('demandMeta.unit', 'uuid', 'demand', 'unit_id', { aliases: ['unit'] }),
  field('demandMeta.milestone', 'uuid', 'demand', 'milestone_id', {
    aliases: ['milestone'],
    nullable: true,
  }),
  field('demandMeta.demandType', 'enum', 'demand', 'demand_type', {
    aliases: ['demandType'],
    enumValues: DEMAND_TYPES,
  }),
  field('demandMeta.demandNumber', 'text', 'demand', 'demand_number', {
    aliases: ['demandNumber'],
  }),
  field('demandMeta.dueDate', 'date', 'demand', 'due_date'),
  field('demandMeta.status', 'enum', 'demand', 'status', { enumValues: DEMAND_STATUSES }),
  field('demandMeta.buyerName', 'text', 'demand', 'buyer_name', { aliases: ['buyerName'] }),

  field('keyword', 'keyword', 'keyword', ''),
]);

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

const FIELDS_BY_NAME = new Map<string, SearchFieldDef>();
const FIELDS_BY_LOWER_NAME = new Map<string, SearchFieldDef>();
for (const def of SEARCH_FIELDS) {
  for (const name of [def.name, ...def.aliases]) {
    FIELDS_BY_NAME.set(name, def);
    FIELDS_BY_LOWER_NAME.set(name.toLowerCase(), def);
  }
}

/** Every accepted field name (canonical names and aliases), for "allowed" listings. */
export const SEARCH_FIELD_NAMES: readonly string[] = Object.freeze([...FIELDS_BY_NAME.keys()]);

/** Resolves a field name or alias: exact match first, then case-insensitive. */
export function findSearchField(name: string): SearchFieldDef | undefined {
  return FIELDS_BY_NAME.get(name) ?? FIELDS_BY_LOWER_NAME.get(name.trim().toLowerCase());
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

/** Sortable fields (receipt columns only, so the index-driven deferred join stays fast). */
export const SORT_COLUMNS = Object.freeze({
  receivedDate: 'received_date',
  receiptNumber: 'receipt_number',
  amount: 'amount',
  paymentMode: 'payment_mode',
  payerType: 'payer_type',
  status: 'status',
  transactionRef: 'transaction_ref',
  created: 'created_at',
  id: 'id',
} as const);

export type SortField = keyof typeof SORT_COLUMNS;
export type SortDirection = 'asc' | 'desc';

export const SORT_FIELDS: readonly SortField[] = Object.freeze(
  Object.keys(SORT_COLUMNS) as SortField[],
);

const SORT_FIELDS_BY_LOWER_NAME = new Map<string, SortField>(
  SORT_FIELDS.map((f) => [f.toLowerCase(), f]),
);

/** Resolves a sort field name: exact match first, then case-insensitive. */
export function findSortField(name: string): SortField | undefined {
  if (Object.prototype.hasOwnProperty.call(SORT_COLUMNS, name)) return name as SortField;
  return SORT_FIELDS_BY_LOWER_NAME.get(name.toLowerCase());
}
