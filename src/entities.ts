import { BankAccount } from '@/bank/bank-account.entity';
import { BankLine } from '@/bank/bank-line.entity';
import { BankLineHistory } from '@/bank/bank-line-history.entity';
import { BankLineMatch } from '@/bank/bank-line-match.entity';
import { BankStatement } from '@/bank/bank-statement.entity';
import { Booking } from '@/bookings/booking.entity';
import { IdempotencyKey } from '@/platform/idempotency/idempotency-key.entity';
import { DemandSplit } from '@/demands/demand-split.entity';
import { Demand } from '@/demands/demand.entity';
import { TaxInvoice } from '@/demands/tax-invoice.entity';
import { CreditNote } from '@/demands/credit-note.entity';
import { IssuedNumber } from '@/numbering/issued-number.entity';
import { NumberCounter } from '@/numbering/number-counter.entity';
import { Receipt } from '@/receipts/receipt.entity';
import { TenantConfigurationHistory } from '@/tenant-config/tenant-configuration-history.entity';
import { TenantConfiguration } from '@/tenant-config/tenant-configuration.entity';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { InterestPolicy } from '@/interest/interest-policy.entity';
import { InterestPolicyHistory } from '@/interest/interest-policy-history.entity';
import { InterestWaiver } from '@/interest/interest-waiver.entity';
import { CollectionHold } from '@/letters/collection-hold.entity';
import { Reminder } from '@/letters/reminder.entity';
import { ReminderPolicy } from '@/letters/reminder-policy.entity';
import { GstSettings } from '@/gst-settings/gst-settings.entity';
import { GstSettingsHistory } from '@/gst-settings/gst-settings-history.entity';
import { CancellationPolicy } from '@/cancellations/cancellation-policy.entity';
import { CancellationPolicyHistory } from '@/cancellations/cancellation-policy-history.entity';
import { Cancellation } from '@/cancellations/cancellation.entity';
import { BooksSettingsEntity } from '@/books/books-settings.entity';

/** Every TypeORM entity, registered by the composition root (AppModule) and the TypeORM CLI. */
export const ENTITIES = [
  Tenant,
  TenantConfiguration,
  TenantConfigurationHistory,
  NumberCounter,
  IssuedNumber,
  Booking,
  Demand,
  DemandSplit,
  Receipt,
  IdempotencyKey,
  InterestPolicy,
  InterestPolicyHistory,
  InterestWaiver,
  BankAccount,
  BankStatement,
  BankLine,
  BankLineMatch,
  BankLineHistory,
  ReminderPolicy,
  CollectionHold,
  Reminder,
  GstSettings,
  GstSettingsHistory,
  TaxInvoice,
  CreditNote,
  CancellationPolicy,
  CancellationPolicyHistory,
  Cancellation,
  BooksSettingsEntity,
];
