import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  registerDecorator,
  ValidationArguments,
} from 'class-validator';
import { PAYMENT_MODES, PaymentMode } from '@/common/domain/enums';
import {
  IsLocalDate,
  IsMoneyAmount,
  IsNotBlank,
  MAX_MONEY_AMOUNT,
} from '@/common/field-validators';

/**
 * A TDS receipt's transactionRef is the Form 26QB acknowledgement number: required, not blank.
 * Other modes may leave it empty (cash has no reference).
 */
function IsRefRequiredForTds() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isRefRequiredForTds',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          // A value that is not a string is already refused by @IsString.
          (args.object as Partial<RecordReceiptRequest>).paymentMode !== 'TDS' ||
          typeof value !== 'string' ||
          value.trim().length > 0,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} is required for a TDS receipt (the Form 26QB acknowledgement number)`,
      },
    });
}

export class RecordReceiptRequest {
  @ApiProperty({
    description:
      "The demand split paid; the receipt's payer type, demand and booking come from it.",
    format: 'uuid',
    example: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
  })
  @IsUUID()
  demandSplit: string;

  @ApiProperty({
    description: `Amount received: a number with at most two decimals (else 400), > 0 and not above the split's pending amount (else 422 RECEIPT_AMOUNT_NOT_POSITIVE / RECEIPT_EXCEEDS_PENDING); at most ${MAX_MONEY_AMOUNT}.`,
    example: 50000,
    minimum: 0.01,
  })
  // "> 0" is a business rule, answered with 422 RECEIPT_AMOUNT_NOT_POSITIVE by the service.
  @IsMoneyAmount({ requirePositive: false })
  amount: number;

  @ApiProperty({
    description:
      'How it was paid. TDS is the 1 % tax the buyer deducted and deposited (Form 26QB, section 194-IA): it counts like any payment but cannot bounce.',
    enum: PAYMENT_MODES,
    example: 'NEFT',
  })
  @IsIn(PAYMENT_MODES)
  paymentMode: PaymentMode;

  @ApiProperty({
    description:
      'Bank / UPI reference, cheque number...; may be an empty string, except for TDS where it is the Form 26QB acknowledgement number (required, else 400); at most 100 characters.',
    example: 'UTR20261122001234',
    maxLength: 100,
  })
  @IsString()
  @MaxLength(100)
  @IsRefRequiredForTds()
  transactionRef: string;

  @ApiProperty({
    description:
      "Date the money was received (YYYY-MM-DD, the tenant's calendar); dates the receipt number and its financial year. Not after today nor before 2000-01-01 (else 400 VALIDATION_FAILED).",
    format: 'date',
    example: '2026-11-22',
  })
  @IsLocalDate()
  receivedDate: string;
}

export class CancelReceiptRequest {
  @ApiProperty({
    description: 'Why the receipt is cancelled (kept for audit); 1 to 500 characters.',
    example: 'Cheque bounced',
    minLength: 1,
    maxLength: 500,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  reason: string;
}

export class BounceReceiptRequest {
  @ApiProperty({
    description: 'Why the cheque or draft bounced (kept on the receipt); 1 to 500 characters.',
    example: 'Insufficient funds',
    minLength: 1,
    maxLength: 500,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  reason: string;

  @ApiProperty({
    description:
      "The day the bank returned it (YYYY-MM-DD, the tenant's calendar); not before the receipt's receivedDate (else 422 BOUNCE_BEFORE_RECEIPT).",
    format: 'date',
    example: '2026-11-25',
  })
  @IsLocalDate()
  bouncedOn: string;

  @ApiPropertyOptional({
    description: `Bounce charges to recover from the payer: a number > 0 with at most two decimals, at most ${MAX_MONEY_AMOUNT}. When given, a MANUAL demand for it is raised on the same booking in the same transaction (one split to the same payer, due bouncedOn).`,
    example: 500,
    minimum: 0.01,
  })
  @IsOptional()
  @IsMoneyAmount({ requirePositive: true })
  charges?: number;

  @ApiPropertyOptional({
    description:
      'The bank statement line (a DEBIT of the same amount) that returned the cheque: it becomes MATCHED to the receipt with rule RETURN in the same transaction. Not found: 404 RETURN_LINE_NOT_FOUND; a credit, a line MATCHED or IGNORED, another amount, or a receipt already matched to a return: 409 RETURN_LINE_NOT_MATCHABLE.',
    format: 'uuid',
    example: '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a',
  })
  @IsOptional()
  @IsUUID()
  bankLine?: string;
}

/** The documented examples of POST /receipts. */
export const RECORD_RECEIPT_EXAMPLES = {
  neft: {
    summary: 'NEFT transfer',
    value: {
      demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
      amount: 50000,
      paymentMode: 'NEFT',
      transactionRef: 'UTR20261122001234',
      receivedDate: '2026-11-22',
    },
  },
  cash: {
    summary: 'Cash, no reference',
    value: {
      demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
      amount: 1500.5,
      paymentMode: 'CASH',
      transactionRef: '',
      receivedDate: '2026-11-22',
    },
  },
  tds: {
    summary: 'TDS deducted by the buyer (Form 26QB)',
    value: {
      demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
      amount: 5000,
      paymentMode: 'TDS',
      transactionRef: 'AB1234567',
      receivedDate: '2026-11-22',
    },
  },
};

/** The documented examples of POST /receipts/{id}/cancel. */
export const CANCEL_RECEIPT_EXAMPLES = {
  bounced: { summary: 'Bounced cheque', value: { reason: 'Cheque bounced' } },
};

/** The documented examples of POST /receipts/{id}/bounce. */
export const BOUNCE_RECEIPT_EXAMPLES = {
  withCharges: {
    summary: 'Bounced, with charges',
    value: { reason: 'Insufficient funds', bouncedOn: '2026-11-25', charges: 500 },
  },
  noCharges: {
    summary: 'Bounced, no charges',
    value: { reason: 'Signature mismatch', bouncedOn: '2026-11-25' },
  },
};
