/**
 * What date a reminder run may stand on. A run sends messages now about what is owed now: on
 * another date it would remind of dues paid since, or send steps already passed. Previewing any
 * date is GET /reminders/due's job.
 */
import { FieldError } from '@/common/app-error';

/** The run's asOf: today when not given; anything but today is a field error naming asOf. */
export function runAsOf(
  given: string | undefined,
  today: string,
): { asOf: string; error?: undefined } | { asOf?: undefined; error: FieldError } {
  if (given === undefined || given === today) return { asOf: today };
  return {
    error: {
      field: 'asOf',
      message: `must be today (${today}): a run sends what is due now; preview another date with GET /reminders/due?asOf=`,
    },
  };
}
