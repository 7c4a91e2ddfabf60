import { ApiProperty } from '@nestjs/swagger';
import type { ConfigurationValue } from '../tenant-configuration-history.entity';
import { DOCUMENT_TYPES } from '@/numbering/number-pattern';

/** The stored configuration: the interface document's 22 fields and the GST documents' nine. */
export class TenantConfigurationView {
  @ApiProperty({
    description: 'Configuration identifier.',
    format: 'uuid',
    example: '7b0e9c1e-2f4a-4d8e-9a57-1f0c2b3d4e5f',
  })
  id: string;
  @ApiProperty({
    description: 'When the configuration was created (UTC).',
    format: 'date-time',
    example: '2026-04-01T09:30:00.000Z',
  })
  created: string;
  @ApiProperty({
    description: 'Who created it (token preferred_username, else sub).',
    example: 'priya.sharma',
  })
  createdBy: string;
  @ApiProperty({
    description: 'When it was last replaced (UTC).',
    format: 'date-time',
    example: '2026-11-20T11:02:17.456Z',
  })
  modified: string;
  @ApiProperty({ description: 'Who last replaced it.', example: 'arjun.mehta' })
  lastModifiedBy: string;
  @ApiProperty({ description: 'Prefix of booking numbers ({PREFIX}).', example: 'BKG' })
  bookingNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new booking counter.',
    type: 'integer',
    example: 1,
  })
  bookingNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of booking numbers.',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  bookingNumberPattern: string;
  @ApiProperty({ description: 'Prefix of demand numbers ({PREFIX}).', example: 'DMD' })
  demandNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new demand counter.',
    type: 'integer',
    example: 1,
  })
  demandNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of demand numbers.',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  demandNumberPattern: string;
  @ApiProperty({ description: 'Prefix of demand split numbers ({PREFIX}).', example: 'DSP' })
  demandSplitNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new demand split counter.',
    type: 'integer',
    example: 1,
  })
  demandSplitNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of demand split numbers.',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  demandSplitNumberPattern: string;
  @ApiProperty({ description: 'Prefix of receipt numbers ({PREFIX}).', example: 'RCT' })
  receiptNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new receipt counter.',
    type: 'integer',
    example: 1,
  })
  receiptNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of receipt numbers.',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  receiptNumberPattern: string;
  @ApiProperty({ description: 'Prefix of snag numbers ({PREFIX}).', example: 'SNG' })
  snagNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new snag counter.',
    type: 'integer',
    example: 1,
  })
  snagNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of snag numbers.',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  snagNumberPattern: string;
  @ApiProperty({ description: 'Prefix of tax invoice numbers ({PREFIX}).', example: 'INV' })
  taxInvoiceNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new tax invoice counter.',
    type: 'integer',
    example: 1,
  })
  taxInvoiceNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of tax invoice numbers (financial year April to March).',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  taxInvoiceNumberPattern: string;
  @ApiProperty({ description: 'Prefix of credit note numbers ({PREFIX}).', example: 'CRN' })
  creditNoteNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new credit note counter.',
    type: 'integer',
    example: 1,
  })
  creditNoteNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of credit note numbers (financial year April to March).',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  creditNoteNumberPattern: string;
  @ApiProperty({ description: 'Prefix of refund numbers ({PREFIX}).', example: 'RFD' })
  refundNumberPrefix: string;
  @ApiProperty({
    description: 'First sequence value of a new refund counter.',
    type: 'integer',
    example: 1,
  })
  refundNumberStarting: number;
  @ApiProperty({
    description: 'Pattern of refund numbers (financial year April to March).',
    example: '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}',
  })
  refundNumberPattern: string;
  @ApiProperty({ description: 'Separator between number parts ({SEP}).', example: '/' })
  separator: string;
  @ApiProperty({ description: 'False: numbering uses the built-in default scheme.', example: true })
  active: boolean;
}

/** A configuration field's value: text, a whole number or a flag, as the field is typed. */
const changeValue = (description: string) => ({
  description,
  oneOf: [{ type: 'string', nullable: true }, { type: 'integer' }, { type: 'boolean' }],
  example: 'RCT',
});

export class ConfigurationChange {
  @ApiProperty({ description: 'Name of the field that changed.', example: 'receiptNumberPrefix' })
  field: string;
  @ApiProperty(changeValue('Previous value (null: the field had no value).'))
  from: ConfigurationValue;
  @ApiProperty(changeValue('New value.'))
  to: ConfigurationValue;
}

export class ConfigurationVersion {
  @ApiProperty({ type: 'integer', example: 2, description: 'Version number, 1 = as created.' })
  version: number;
  @ApiProperty({
    description: 'When this version was stored (UTC).',
    format: 'date-time',
    example: '2026-11-20T11:02:17.456Z',
  })
  changedAt: string;
  @ApiProperty({ description: 'Who stored it.', example: 'arjun.mehta' }) changedBy: string;
  @ApiProperty({
    type: [ConfigurationChange],
    description: 'Fields that differ from the previous version (empty for version 1).',
  })
  changes: ConfigurationChange[];
  @ApiProperty({
    type: TenantConfigurationView,
    description: 'The configuration as stored by this version.',
  })
  configuration: TenantConfigurationView;
}

export class NumberPreview {
  @ApiProperty({
    description: 'The document type.',
    example: 'receipt',
    enum: DOCUMENT_TYPES,
  })
  documentType: string;
  @ApiProperty({
    example: 'RCT/26-27/00043',
    description: 'The number the next document dated today would get.',
  })
  next: string;
  @ApiProperty({
    description:
      'Problems the number has or will have (GST length, characters, leading characters).',
    example: [
      'RCT/26-27/00043 is 15 characters; it exceeds the 16 allowed by GST rules from sequence 1000000',
    ],
  })
  warnings: string[];
}

export class ConfigurationPreview {
  @ApiProperty({
    example: '2026-11-22',
    format: 'date',
    description: "Today's date in the tenant's time zone.",
  })
  date: string;
  @ApiProperty({
    example: false,
    description: 'False: the candidate is inactive, so the default scheme applies.',
  })
  active: boolean;
  @ApiProperty({ description: 'One preview per document type.', type: [NumberPreview] })
  documents: NumberPreview[];
}
