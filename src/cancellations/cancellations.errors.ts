import { defineProblem } from '@/common/app-error';

export const ALREADY_CANCELLED = defineProblem({
  status: 409,
  code: 'ALREADY_CANCELLED',
  detail: (record: 'Demand' | 'Booking', id: string) => `${record} ${id} is already cancelled.`,
  example: ['Demand', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const DEMAND_HAS_RECEIPTS = defineProblem({
  status: 409,
  code: 'DEMAND_HAS_RECEIPTS',
  detail: (id: string) => `Demand ${id} has ACTIVE receipts; cancel or bounce them first.`,
  example: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const BOOKING_HAS_RECEIPTS = defineProblem({
  status: 409,
  code: 'BOOKING_HAS_RECEIPTS',
  detail: (id: string) => `Booking ${id} has ACTIVE receipts; cancel or bounce them first.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});
