import { ApiProperty } from '@nestjs/swagger';
import { SearchFilterBaseDto } from '@/search/search-filter.dto';
import { PageMetaView } from '@/search/search-page';
import { BookingView } from './booking.view';

/** One element of the POST /bookings/search body. */
export class BookingSearchFilterDto extends SearchFilterBaseDto {
  @ApiProperty({
    description:
      'Field to filter on: id, unit, buyerId (UUID); bookingNumber, buyerName (text); status (ACTIVE, CANCELLED); bookingDate (date); keyword (booking number or buyer name).',
    example: 'buyerName',
    maxLength: 64,
  })
  field: string;
}

export class BookingPage extends PageMetaView {
  @ApiProperty({ description: 'The bookings of this page.', type: [BookingView] })
  content: BookingView[];
}
