import { ApiProperty } from '@nestjs/swagger';
import { SearchFilterBaseDto } from '@/search/search-filter.request';

/** One element of the POST /bookings/search body. */
export class BookingSearchFilterDto extends SearchFilterBaseDto {
  @ApiProperty({
    description:
      'Field to filter on: id, unit, buyerId (UUID); bookingNumber, buyerName, unitName (text); status (ACTIVE, CANCELLED); bookingDate (date); keyword (booking number or buyer name).',
    example: 'buyerName',
    maxLength: 64,
  })
  field: string;
}
