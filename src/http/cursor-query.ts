import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { FieldError } from '@/common/app-error';
import { validationFailed } from './errors/validation';

/** A feed's page size: its default and its maximum. */
export interface CursorLimits {
  defaultLimit: number;
  maxLimit: number;
}

/**
 * An integer query parameter from `min` to `max` (`fallback` when absent); a bad value is added to
 * `errors` naming the parameter, and answers `fallback`.
 */
export function integerQueryParam(
  name: string,
  raw: unknown,
  fallback: number,
  min: number,
  max: number,
  errors: FieldError[],
): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || +raw < min || +raw > max) {
    errors.push({ field: name, message: `must be an integer from ${min} to ${max}` });
    return fallback;
  }
  return Number(raw);
}

/**
 * `after` (a sequence or id, default 0) and `limit` of a cursor-paged feed (GET /events, GET
 * /webhooks/{id}/deliveries). Bad values are added to `errors` naming the parameter; the caller
 * adds its own parameters' errors and then calls `refuseInvalidQuery`.
 */
export function parseCursorQuery(
  query: { after?: unknown; limit?: unknown },
  limits: CursorLimits,
  errors: FieldError[],
): { after: number; limit: number } {
  return {
    after: integerQueryParam('after', query.after, 0, 0, Number.MAX_SAFE_INTEGER, errors),
    limit: integerQueryParam('limit', query.limit, limits.defaultLimit, 1, limits.maxLimit, errors),
  };
}

/** 400 VALIDATION_FAILED naming every bad query parameter, if any. */
export function refuseInvalidQuery(errors: FieldError[]): void {
  if (errors.length > 0) throw validationFailed(errors);
}

/** The Swagger description of `after` and `limit` (decorators apply last first: limit, then after). */
export const ApiCursorQuery = (afterDescription: string, limits: CursorLimits) =>
  applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      description: 'Page size.',
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: limits.maxLimit,
        default: limits.defaultLimit,
        example: limits.defaultLimit,
      },
    }),
    ApiQuery({
      name: 'after',
      required: false,
      description: afterDescription,
      schema: { type: 'integer', minimum: 0, default: 0, example: 0 },
    }),
  );
