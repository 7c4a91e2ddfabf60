/**
 * The demand catalogue of the shared search engine (POST /demands/search, the grammar of
 * docs/search.md): every field is a column of `demands d`, so there are no joins; `keyword`
 * matches the demand number and the buyer's name, through `demands_text_trgm_idx` by the lookup
 * receipt search already uses for their demands (search-page.ts; docs/search.md).
 */
import { DEMAND_STATUSES, DEMAND_TYPES } from '@/common/domain/enums';
import { CHARGE_TYPES } from '@/gst/gst-tax';
import { field, SearchCatalogue } from '@/search/search-catalogue';
import { SearchTable } from '@/search/search-page';

const SORT_COLUMNS = {
  dueDate: 'due_date',
  demandDate: 'demand_date',
  demandNumber: 'demand_number',
  buyerName: 'buyer_name',
  demandType: 'demand_type',
  status: 'status',
  totalAmount: 'total_amount',
  receivedAmount: 'received_amount',
  pendingAmount: 'pending_amount',
  grossAmount: 'gross_amount',
  chargeType: 'charge_type',
  invoiceNumber: 'invoice_number',
};

export const DEMAND_SEARCH = new SearchCatalogue(
  'demands',
  [
    field('id', 'uuid', 'demand', 'id'),
    field('booking', 'uuid', 'demand', 'booking_id'),
    field('unit', 'uuid', 'demand', 'unit_id'),
    field('milestone', 'uuid', 'demand', 'milestone_id', { nullable: true }),
    field('demandNumber', 'text', 'demand', 'demand_number'),
    field('buyerName', 'text', 'demand', 'buyer_name'),
    field('demandType', 'enum', 'demand', 'demand_type', { enumValues: DEMAND_TYPES }),
    field('status', 'enum', 'demand', 'status', { enumValues: DEMAND_STATUSES }),
    field('totalAmount', 'number', 'demand', 'total_amount'),
    field('receivedAmount', 'number', 'demand', 'received_amount'),
    field('pendingAmount', 'number', 'demand', 'pending_amount'),
    field('grossAmount', 'number', 'demand', 'gross_amount'),
    field('chargeType', 'enum', 'demand', 'charge_type', { enumValues: CHARGE_TYPES }),
    field('invoiceNumber', 'text', 'demand', 'invoice_number', { nullable: true }),
    field('dueDate', 'date', 'demand', 'due_date'),
    field('demandDate', 'date', 'demand', 'demand_date'),
    field('keyword', 'keyword', 'keyword', ''),
  ],
  SORT_COLUMNS,
  // Ascending ids under the due date: the (tenant_id, due_date, id) index, walked forwards.
  [
    { field: 'dueDate', direction: 'asc' },
    { field: 'id', direction: 'asc' },
  ],
);

export const DEMAND_TABLE: SearchTable = {
  table: 'demands',
  alias: 'd',
  rootSource: 'demand',
  joins: {},
  sortColumns: SORT_COLUMNS,
  keywordScan: (k) => `(d.demand_number ILIKE ${k} OR d.buyer_name ILIKE ${k})`,
  // The same match (number or buyer name) as keywordScan, as the tenant's demand ids.
  keywordIds: 'receipt_keyword_demand_ids',
};
