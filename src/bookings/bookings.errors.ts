import { defineProblem } from '@/common/app-error';

export const BOOKING_NOT_FOUND = defineProblem({
  status: 404,
  code: 'BOOKING_NOT_FOUND',
  detail: (id: string) => `Booking ${id} was not found.`,
  example: ['c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f'],
});

/**
 * PATCH of a cancelled booking: its documents are final. The code is the one demands answer for
 * a cancelled booking (demands.errors.ts), declared here too because bookings sit below demands.
 */
export const BOOKING_UPDATE_CANCELLED = defineProblem({
  status: 409,
  code: 'BOOKING_CANCELLED',
  detail: (bookingId: string) => `Booking ${bookingId} is cancelled; it cannot be changed.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});
