import { Injectable } from '@nestjs/common';
import { formatLocalDate, LocalDate, localDateInZone } from '@/common/dates/local-date';

/**
 * The one source of "now" and of "today in the tenant's zone" for request handling, so a test
 * can move time by overriding this provider instead of faking the process clock.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  /** Today's date in the tenant's zone, as YYYY-MM-DD. */
  today(tenant: { timezone: string }): string {
    return formatLocalDate(this.todayFields(tenant));
  }

  /** Today's date in the tenant's zone, as fields. */
  todayFields(tenant: { timezone: string }): LocalDate {
    return localDateInZone(this.now(), tenant.timezone);
  }
}
