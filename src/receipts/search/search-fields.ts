/**
 * The receipt catalogue of the shared search engine (src/search): which fields of
 * POST /receipts/search can be filtered and sorted, their types, and the only place its SQL
 * column names come from. Receipt columns are filtered on `receipts r`; `split` and `demand`
 * columns inside one correlated EXISTS each (receipt-search.sql.ts); `keyword` is compiled specially.
 */
import {
  DEMAND_STATUSES,
  DEMAND_TYPES,
  PAYER_TYPES,
  PAYMENT_MODES,
  RECEIPT_STATUSES,
} from '@/common/domain/enums';
import { field, SearchCatalogue, SearchFieldDef, SortKey } from '@/search/search-catalogue';

// A split's status takes the values of its demand's.
const DEMAND_SPLIT_STATUSES = DEMAND_STATUSES;

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
  // Set and cleared by bank matching (docs/bank.md): IS_NULL finds what is not yet in the bank.
  field('realisedOn', 'date', 'receipt', 'realised_on', { nullable: true }),

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

export const DEFAULT_SORT: readonly SortKey[] = Object.freeze([
  { field: 'receivedDate', direction: 'desc' },
  { field: 'receiptNumber', direction: 'desc' },
  { field: 'id', direction: 'desc' },
] as const);

export const RECEIPT_SEARCH = new SearchCatalogue(
  'receipts',
  SEARCH_FIELDS,
  SORT_COLUMNS,
  DEFAULT_SORT,
);

export const SEARCH_FIELD_NAMES: readonly string[] = RECEIPT_SEARCH.fieldNames;
export const SORT_FIELDS = RECEIPT_SEARCH.sortFields as readonly SortField[];

export function findSearchField(name: string): SearchFieldDef | undefined {
  return RECEIPT_SEARCH.findField(name);
}

export function findSortField(name: string): SortField | undefined {
  return RECEIPT_SEARCH.findSortField(name) as SortField | undefined;
}
