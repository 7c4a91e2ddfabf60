import { ApiProperty } from '@nestjs/swagger';
import { SearchFilterBaseDto } from '@/search/search-filter.dto';

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
