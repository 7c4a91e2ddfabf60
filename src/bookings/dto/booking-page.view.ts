import { ApiProperty } from '@nestjs/swagger';
import { PageMetaView } from '@/search/search-page';
import { BookingView } from './booking.view';

/** One page of POST /bookings/search. */
export class BookingPage extends PageMetaView {
  @ApiProperty({ description: 'The bookings of this page.', type: [BookingView] })
  content: BookingView[];
}
