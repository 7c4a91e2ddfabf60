import { PickType } from '@nestjs/swagger';
import { CreateBookingRequest } from './create-booking.request';

/** The fields PATCH /bookings/{id} may change (each optional; null clears it to its default). */
export const PATCHABLE_BOOKING_FIELDS = [
  'unitName',
  'agreementValue',
  'carpetAreaSqm',
  'metroCity',
  'gstExempt',
  'buyerAddress',
  'buyerGstin',
  'allotmentDate',
] as const;

/**
 * PATCH /bookings/{id}: a field left out keeps its value, null clears it (metroCity and gstExempt
 * back to false, allotmentDate back to bookingDate); any other field is refused (400).
 */
export class UpdateBookingRequest extends PickType(
  CreateBookingRequest,
  PATCHABLE_BOOKING_FIELDS,
) {}
