import Decimal from 'decimal.js';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { isValidLocalDate } from '@/common/dates/local-date';

/**
 * Largest amount accepted in a request body. numeric(18,2) could hold more, but a JSON number
 * is a binary double: up to 15 significant digits it round-trips exactly, so 13 integer digits
 * plus 2 decimals is the largest amount whose cents a client can send without loss.
 */
export const MAX_MONEY_AMOUNT = '9999999999999.99';

/**
 * Why `value` is not a valid money amount (a JSON number, at most 2 decimals, and > 0 unless
 * `requirePositive` is false because the caller reports that rule itself), or null.
 */
export function moneyAmountProblem(value: unknown, requirePositive = true): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  // String(n) is the shortest text that round-trips to the parsed double: for amounts up to
  // 15 significant digits it is exactly what the client wrote (1e-7 -> "1e-7": 7 decimals).
  const amount = new Decimal(String(value));
  if (amount.decimalPlaces() > 2) return 'must have at most 2 decimal places';
  if (requirePositive && amount.lte(0)) return 'must be greater than 0';
  if (amount.gt(MAX_MONEY_AMOUNT)) return `must not exceed ${MAX_MONEY_AMOUNT}`;
  return null;
}

/** The exact decimal of a JSON number already checked by `@IsMoneyAmount()`. */
export function decimalFromJson(value: number | string): Decimal {
  return new Decimal(String(value));
}

/** A JSON number > 0 with at most two decimals (checked on the number as parsed, exactly). */
export function IsMoneyAmount(options?: ValidationOptions & { requirePositive?: boolean }) {
  const requirePositive = options?.requirePositive ?? true;
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isMoneyAmount',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => moneyAmountProblem(value, requirePositive) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${moneyAmountProblem(args.value, requirePositive) ?? 'is not a valid amount'}`,
      },
    });
}

/** `YYYY-MM-DD` and a real calendar date (no 2026-02-30). */
export function isLocalDateString(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return (
    match !== null &&
    isValidLocalDate({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) })
  );
}

export function IsLocalDate(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isLocalDate',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => isLocalDateString(value),
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} must be a real calendar date as YYYY-MM-DD`,
      },
    });
}

/** A string with at least one non-whitespace character. */
export function IsNotBlank(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isNotBlank',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.trim().length > 0,
        defaultMessage: (args: ValidationArguments) => `${args.property} must not be blank`,
      },
    });
}
