import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationArguments,
} from 'class-validator';
import { DocumentType, isGstDocumentType, validatePattern } from '@/numbering/number-pattern';

const NO_BRACES = /^[^{}\p{Cc}]*$/u;
const MAX_STARTING = 999_999_999_999;

/** Validates a number pattern with the numbering engine's own parser, for one document type. */
function IsNumberPattern(type: DocumentType) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isNumberPattern',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && validatePattern(value, type) === null,
        defaultMessage: (args: ValidationArguments) =>
          typeof args.value === 'string'
            ? (validatePattern(args.value, type) ?? 'invalid pattern')
            : `${propertyName} must be a string`,
      },
    });
}

/** The GST documents' fields may be left out of a PUT: they keep their current values. */
const KEPT_WHEN_OMITTED = ' Optional: left out, it keeps its current value.';

/** Required, or (for a GST document's field) optional, documented accordingly. */
function presence(optional: boolean, property: Parameters<typeof ApiProperty>[0] & object) {
  return (target: object, key: string) => {
    if (optional) {
      ApiPropertyOptional({
        ...property,
        description: `${property.description ?? ''}${KEPT_WHEN_OMITTED}`,
      })(target, key);
      // Not IsOptional: a null is refused rather than stored.
      ValidateIf((_object, value) => value !== undefined)(target, key);
    } else {
      ApiProperty(property)(target, key);
      IsDefined()(target, key);
    }
  };
}

function Prefix(example: string, what: string, optional = false) {
  return (target: object, key: string) => {
    presence(optional, {
      description: `Prefix of ${what} numbers ({PREFIX}); at most 20 characters, no braces.`,
      example,
      maxLength: 20,
    })(target, key);
    IsString()(target, key);
    MaxLength(20)(target, key);
    Matches(NO_BRACES, { message: `${key} must not contain braces or control characters` })(
      target,
      key,
    );
  };
}

function Starting(what: string, optional = false) {
  return (target: object, key: string) => {
    presence(optional, {
      description: optional
        ? `First sequence value of a new ${what} counter. Lowering it never rewinds; raising it above a counter already used is 409 NUMBER_SERIES_IN_USE (the series is gap-free).`
        : `First sequence value of a new ${what} counter. Raising it moves existing counters forward; lowering it never rewinds.`,
      type: 'integer',
      example: 1,
      minimum: 0,
      maximum: MAX_STARTING,
    })(target, key);
    IsInt()(target, key);
    Min(0)(target, key);
    Max(MAX_STARTING)(target, key);
  };
}

function Pattern(type: DocumentType, what: string, example = '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}') {
  const gst = isGstDocumentType(type);
  return (target: object, key: string) => {
    presence(gst, {
      description: gst
        ? `Pattern of ${what} numbers: tokens {PREFIX} {SEP} {YYYY} {YY} {MM} {DD} {FY} {FYYYY} {SEQ} / {SEQ:n}; {SEQ} exactly once and {FY} or {FYYYY} (financial year April to March). With the counter at its padded width ({SEQ:5}: 99999) the number must keep to 16 letters, digits, - and /.`
        : `Pattern of ${what} numbers: tokens {PREFIX} {SEP} {YYYY} {YY} {MM} {DD} {FY} {FYYYY} {SEQ} / {SEQ:n}${
            type === 'demand' || type === 'demand-split' ? ' {PARENT}' : ''
          }; {SEQ} exactly once. The legacy form 00000 / ##### means {PREFIX}{SEP}{SEQ:5}.`,
      example,
      maxLength: 64,
    })(target, key);
    IsString()(target, key);
    IsNumberPattern(type)(target, key);
  };
}

/**
 * Body of PUT /tenant/configuration and POST /tenant/configuration/preview. The five read-only
 * fields may be sent back as received and are ignored; the nine of the GST documents (tax
 * invoice, credit note, refund) may be left out and keep their values; the other seventeen are
 * required.
 */
export class TenantConfigurationInput {
  @ApiPropertyOptional({
    description: 'Read-only; ignored on input.',
    type: 'string',
    format: 'uuid',
    example: '7b0e9c1e-2f4a-4d8e-9a57-1f0c2b3d4e5f',
    readOnly: true,
  })
  @IsOptional()
  id?: unknown;

  @ApiPropertyOptional({
    description: 'Read-only; ignored on input.',
    type: 'string',
    format: 'date-time',
    example: '2026-04-01T09:30:00.000Z',
    readOnly: true,
  })
  @IsOptional()
  created?: unknown;

  @ApiPropertyOptional({
    description: 'Read-only; ignored on input.',
    type: 'string',
    example: 'priya.sharma',
    readOnly: true,
  })
  @IsOptional()
  createdBy?: unknown;

  @ApiPropertyOptional({
    description: 'Read-only; ignored on input.',
    type: 'string',
    format: 'date-time',
    example: '2026-11-20T11:02:17.456Z',
    readOnly: true,
  })
  @IsOptional()
  modified?: unknown;

  @ApiPropertyOptional({
    description: 'Read-only; ignored on input.',
    type: 'string',
    example: 'arjun.mehta',
    readOnly: true,
  })
  @IsOptional()
  lastModifiedBy?: unknown;

  @Prefix('BKG', 'booking')
  bookingNumberPrefix: string;

  @Starting('booking')
  bookingNumberStarting: number;

  @Pattern('booking', 'booking')
  bookingNumberPattern: string;

  @Prefix('DMD', 'demand')
  demandNumberPrefix: string;

  @Starting('demand')
  demandNumberStarting: number;

  @Pattern('demand', 'demand')
  demandNumberPattern: string;

  @Prefix('DSP', 'demand split')
  demandSplitNumberPrefix: string;

  @Starting('demand split')
  demandSplitNumberStarting: number;

  @Pattern('demand-split', 'demand split', '{PARENT}{SEP}{SEQ:2}')
  demandSplitNumberPattern: string;

  @Prefix('RCT', 'receipt')
  receiptNumberPrefix: string;

  @Starting('receipt')
  receiptNumberStarting: number;

  @Pattern('receipt', 'receipt')
  receiptNumberPattern: string;

  @Prefix('SNG', 'snag')
  snagNumberPrefix: string;

  @Starting('snag')
  snagNumberStarting: number;

  @Pattern('snag', 'snag')
  snagNumberPattern: string;

  @Prefix('INV', 'tax invoice', true)
  taxInvoiceNumberPrefix?: string;

  @Starting('tax invoice', true)
  taxInvoiceNumberStarting?: number;

  @Pattern('tax-invoice', 'tax invoice')
  taxInvoiceNumberPattern?: string;

  @Prefix('CRN', 'credit note', true)
  creditNoteNumberPrefix?: string;

  @Starting('credit note', true)
  creditNoteNumberStarting?: number;

  @Pattern('credit-note', 'credit note')
  creditNoteNumberPattern?: string;

  @Prefix('RFD', 'refund', true)
  refundNumberPrefix?: string;

  @Starting('refund', true)
  refundNumberStarting?: number;

  @Pattern('refund', 'refund')
  refundNumberPattern?: string;

  @ApiProperty({
    description: 'Separator between number parts ({SEP}); at most 5 characters.',
    example: '/',
    maxLength: 5,
  })
  @IsDefined()
  @IsString()
  @MaxLength(5)
  @Matches(NO_BRACES, { message: 'separator must not contain braces or control characters' })
  separator: string;

  @ApiProperty({
    description:
      'When false the stored values are kept but numbering uses the built-in default scheme.',
    example: true,
  })
  @IsDefined()
  @IsBoolean()
  active: boolean;
}
