/**
 * The booking catalogue of the shared search engine (POST /bookings/search, docs/api.md): every
 * field is a column of `bookings b`; `keyword` matches the booking number and the buyer's name,
 * through `bookings_text_trgm_idx` (search-page.ts; docs/search.md).
 */
import { field, SearchCatalogue } from '@/search/search-catalogue';
import { SearchTable } from '@/search/search-page';

export const BOOKING_STATUSES = ['ACTIVE', 'CANCELLED'] as const;

const SORT_COLUMNS = {
  bookingDate: 'booking_date',
  bookingNumber: 'booking_number',
  buyerName: 'buyer_name',
  status: 'status',
  agreementValue: 'agreement_value',
  carpetAreaSqm: 'carpet_area_sqm',
};

export const BOOKING_SEARCH = new SearchCatalogue(
  'bookings',
  [
    field('id', 'uuid', 'booking', 'id'),
    field('unit', 'uuid', 'booking', 'unit_id'),
    field('unitName', 'text', 'booking', 'unit_name', { nullable: true }),
    field('buyerId', 'uuid', 'booking', 'buyer_id', { nullable: true }),
    field('bookingNumber', 'text', 'booking', 'booking_number'),
    field('buyerName', 'text', 'booking', 'buyer_name'),
    field('status', 'enum', 'booking', 'status', { enumValues: BOOKING_STATUSES }),
    field('bookingDate', 'date', 'booking', 'booking_date'),
    field('agreementValue', 'number', 'booking', 'agreement_value', { nullable: true }),
    field('carpetAreaSqm', 'number', 'booking', 'carpet_area_sqm', { nullable: true }),
    field('buyerGstin', 'text', 'booking', 'buyer_gstin', { nullable: true }),
    field('keyword', 'keyword', 'keyword', ''),
  ],
  SORT_COLUMNS,
  [
    { field: 'bookingDate', direction: 'desc' },
    { field: 'id', direction: 'desc' },
  ],
);

export const BOOKING_TABLE: SearchTable = {
  table: 'bookings',
  alias: 'b',
  rootSource: 'booking',
  joins: {},
  sortColumns: SORT_COLUMNS,
  keywordScan: (k) => `(b.booking_number ILIKE ${k} OR b.buyer_name ILIKE ${k})`,
  keywordIds: 'booking_keyword_ids',
};
