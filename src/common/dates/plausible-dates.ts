/**
 * Dates a person could not mean: a receipt from 2099, a booking from 1999, a demand due before it
 * was raised. Each check answers the field errors of a 400 VALIDATION_FAILED (empty: plausible).
 * Dates are `YYYY-MM-DD` text, already real calendar dates, so text order is date order.
 */
import type { FieldError } from '@/common/app-error';

/** Nothing this service records happened before the century began. */
export const EARLIEST_DATE = '2000-01-01';

/** A day something already happened (received, booked): not after today, not before 2000. */
export function pastDateProblems(field: string, date: string, today: string): FieldError[] {
  if (date > today) return [{ field, message: `must not be after today (${today})` }];
  if (date < EARLIEST_DATE) return [{ field, message: `must not be before ${EARLIEST_DATE}` }];
  return [];
}

/** A demand is due on or after the day it is raised, and raised on or after its booking. */
export function demandDateProblems(demand: {
  dueDate: string;
  demandDate: string;
  /** Unknown until the booking is read: then only the due date is checked. */
  bookingDate?: string;
}): FieldError[] {
  const problems: FieldError[] = [];
  if (demand.dueDate < demand.demandDate) {
    problems.push({
      field: 'dueDate',
      message: `must not be before demandDate (${demand.demandDate})`,
    });
  }
  if (demand.bookingDate !== undefined && demand.demandDate < demand.bookingDate) {
    problems.push({
      field: 'demandDate',
      message: `must not be before the booking's bookingDate (${demand.bookingDate})`,
    });
  }
  return problems;
}

/** Interest demanded today cannot already be overdue. */
export function futureDueDateProblems(dueDate: string, today: string): FieldError[] {
  return dueDate < today
    ? [{ field: 'dueDate', message: `must not be before today (${today})` }]
    : [];
}
