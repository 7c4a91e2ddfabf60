import { ApiProperty } from '@nestjs/swagger';
import { SearchFilterBaseDto } from '@/search/search-filter.request';

/** One element of the search body (documentation only: the body is parsed by search-request). */
export class SearchFilterDto extends SearchFilterBaseDto {
  @ApiProperty({
    description:
      'Field to filter on: id, demandSplit, demand, booking, payerType, paymentMode, status, receiptNumber, transactionRef, amount, receivedDate, demandSplitMeta.payerId (payerId), demandSplitMeta.demandSplitNumber (demandSplitNumber), demandSplitMeta.status, demandMeta.unit (unit), demandMeta.milestone (milestone), demandMeta.demandType (demandType), demandMeta.demandNumber (demandNumber), demandMeta.dueDate, demandMeta.status, demandMeta.buyerName (buyerName), keyword.',
    example: 'paymentMode',
    maxLength: 64,
  })
  field: string;
}

/** The documented examples of POST /receipts/search. */
export const SEARCH_RECEIPTS_EXAMPLES = {
  none: { summary: 'No filter', value: [] },
  neftThisYear: {
    summary: 'NEFT or RTGS receipts received in FY 2026-27',
    value: [
      { field: 'paymentMode', query: 'NEFT,RTGS', type: 'IN' },
      { field: 'receivedDate', query: '2026-04-01,2027-03-31', type: 'BETWEEN' },
    ],
  },
  buyer: {
    summary: 'Keyword across numbers and buyer name',
    value: [{ field: 'keyword', query: 'iyer', type: 'CONTAINS' }],
  },
};

/** The documented examples of POST /receipts/summary. */
export const SUMMARY_RECEIPTS_EXAMPLES = {
  none: { summary: 'Everything', value: [] },
  collectedThisMonth: {
    summary: 'Money in hand received in November 2026',
    value: [
      { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
      { field: 'receivedDate', query: '2026-11-01,2026-11-30', type: 'BETWEEN' },
    ],
  },
};
