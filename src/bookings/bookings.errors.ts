import { defineProblem } from '@/common/app-error';

export const BOOKING_NOT_FOUND = defineProblem({
  status: 404,
  code: 'BOOKING_NOT_FOUND',
  detail: (id: string) => `Booking ${id} was not found.`,
  example: ['c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f'],
});
