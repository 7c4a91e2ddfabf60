import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import {
  IsIn,
  IsString,
  IsUUID,
  isUUID,
  MaxLength,
  registerDecorator,
  ValidationArguments,
} from 'class-validator';
import { PAYMENT_MODES, PaymentMode } from '@/common/domain/enums';
import {
  IsLocalDate,
  IsMoneyAmount,
  MAX_MONEY_AMOUNT,
  moneyAmountProblem,
} from '@/common/field-validators';

/** At most this many entries in an explicit allocation (else 400). */
export const MAX_ALLOCATION_ENTRIES = 100;

export const OLDEST_DUE_FIRST = 'OLDEST_DUE_FIRST';

/** One entry of an explicit allocation: this much of the payment to that split. */
export class PaymentAllocationEntry {
  @ApiProperty({
    description: 'A demand split of this payer on this booking, not cancelled.',
    format: 'uuid',
    example: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
  })
  demandSplit: string;

  @ApiProperty({
    description: `Amount for this split: > 0, at most two decimals, not above its pending amount (else 422 PAYMENT_EXCEEDS_OUTSTANDING); at most ${MAX_MONEY_AMOUNT}.`,
    example: 50000,
    minimum: 0.01,
  })
  amount: number;
}

export type PaymentAllocation = typeof OLDEST_DUE_FIRST | PaymentAllocationEntry[];

/** Why `value` is not an allocation, or null. */
export function allocationProblem(value: unknown): string | null {
  if (value === OLDEST_DUE_FIRST) return null;
  if (!Array.isArray(value)) return `must be "${OLDEST_DUE_FIRST}" or an array of entries`;
  if (value.length === 0) return 'must list at least one entry';
  if (value.length > MAX_ALLOCATION_ENTRIES) {
    return `must list at most ${MAX_ALLOCATION_ENTRIES} entries`;
  }
  for (const [i, entry] of (value as unknown[]).entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return `[${i}] must be an object { demandSplit, amount }`;
    }
    const unknown = Object.keys(entry).find((k) => k !== 'demandSplit' && k !== 'amount');
    if (unknown !== undefined) return `[${i}].${unknown} is an unknown field`;
    const { demandSplit, amount } = entry as Record<string, unknown>;
    if (typeof demandSplit !== 'string' || !isUUID(demandSplit)) {
      return `[${i}].demandSplit must be a UUID`;
    }
    const problem = moneyAmountProblem(amount);
    if (problem !== null) return `[${i}].amount ${problem}`;
  }
  return null;
}

function IsPaymentAllocation() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isPaymentAllocation',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => allocationProblem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${allocationProblem(args.value) ?? 'is not valid'}`,
      },
    });
}

export class RecordPaymentRequest {
  @ApiProperty({
    description: "Who pays: the payerId of the booking's demand splits this payment is for.",
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  @IsUUID()
  payerId: string;

  @ApiProperty({
    description: `The whole payment: > 0, at most two decimals; at most ${MAX_MONEY_AMOUNT}. Not above what the payer owes on the booking (else 422 PAYMENT_EXCEEDS_OUTSTANDING).`,
    example: 150000,
    minimum: 0.01,
  })
  @IsMoneyAmount()
  amount: number;

  @ApiProperty({ description: 'How it was paid.', enum: PAYMENT_MODES, example: 'NEFT' })
  @IsIn(PAYMENT_MODES)
  paymentMode: PaymentMode;

  @ApiProperty({
    description:
      'Bank / UPI reference, cheque number...; shared by every receipt of the payment; may be an empty string; at most 100 characters.',
    example: 'UTR20261122001234',
    maxLength: 100,
  })
  @IsString()
  @MaxLength(100)
  transactionRef: string;

  @ApiProperty({
    description:
      "Date the money was received (YYYY-MM-DD, the tenant's calendar); dates every receipt of the payment. Not after today nor before 2000-01-01 (else 400 VALIDATION_FAILED).",
    format: 'date',
    example: '2026-11-22',
  })
  @IsLocalDate()
  receivedDate: string;

  @ApiProperty({
    description: `"${OLDEST_DUE_FIRST}": over the payer's open splits on the booking, oldest due date first (then demand number); or an explicit list of 1 to ${MAX_ALLOCATION_ENTRIES} entries { demandSplit, amount } (more: 400) whose amounts add up to amount (else 422 ALLOCATION_MISMATCH), each a split of this payer on this booking, not cancelled (else 422 ALLOCATION_INVALID), listed once.`,
    oneOf: [
      { type: 'string', enum: [OLDEST_DUE_FIRST] },
      {
        type: 'array',
        minItems: 1,
        maxItems: MAX_ALLOCATION_ENTRIES,
        items: { $ref: getSchemaPath(PaymentAllocationEntry) },
      },
    ],
    example: OLDEST_DUE_FIRST,
  })
  @IsPaymentAllocation()
  allocation: PaymentAllocation;
}

export const RECORD_PAYMENT_EXAMPLES = {
  oldestDueFirst: {
    summary: 'One transfer over the oldest dues first',
    value: {
      payerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
      amount: 150000,
      paymentMode: 'NEFT',
      transactionRef: 'UTR20261122001234',
      receivedDate: '2026-11-22',
      allocation: OLDEST_DUE_FIRST,
    },
  },
  explicit: {
    summary: 'One cheque split as the buyer asked',
    value: {
      payerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
      amount: 75000.5,
      paymentMode: 'CHEQUE',
      transactionRef: 'CHQ 004512',
      receivedDate: '2026-11-22',
      allocation: [
        { demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b', amount: 50000 },
        { demandSplit: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', amount: 25000.5 },
      ],
    },
  },
};
