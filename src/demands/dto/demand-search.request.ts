import { ApiProperty } from '@nestjs/swagger';
import { SearchFilterBaseDto } from '@/search/search-filter.request';

/** One element of the POST /demands/search body. */
export class DemandSearchFilterDto extends SearchFilterBaseDto {
  @ApiProperty({
    description:
      'Field to filter on: id, booking, unit, milestone (UUID); demandNumber, buyerName (text); demandType, status (enum); totalAmount, receivedAmount, pendingAmount (number); dueDate, demandDate (date); keyword (demand number or buyer name).',
    example: 'status',
    maxLength: 64,
  })
  field: string;
}
