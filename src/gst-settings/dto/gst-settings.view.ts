import { ApiProperty } from '@nestjs/swagger';
import { INTEREST_TAX_MODES, type InterestTax } from '@/gst/gst-tax';

export class AnnualReturnView {
  @ApiProperty({ description: 'The financial year (April to March).', example: '2025-26' })
  financialYear: string;
  @ApiProperty({
    description: 'The day its annual return was filed.',
    format: 'date',
    example: '2026-11-15',
  })
  filedOn: string;
}

/** The tenant's GST settings as GET and PUT return them. */
export class GstSettingsView {
  @ApiProperty({ description: 'Whether demands are taxed and invoiced.', example: true })
  enabled: boolean;
  @ApiProperty({
    description: "The tenant's GSTIN, or null.",
    nullable: true,
    type: String,
    example: '27AAPFU0939F1ZV',
  })
  gstin: string | null;
  @ApiProperty({
    description: 'The legal name printed on tax invoices, or null.',
    nullable: true,
    type: String,
    example: 'Skyline Developers Private Limited',
  })
  legalName: string | null;
  @ApiProperty({
    description: 'The address printed on tax invoices, or null.',
    nullable: true,
    type: String,
    example: '4th Floor, Skyline House, Senapati Bapat Marg, Lower Parel, Mumbai 400013',
  })
  address: string | null;
  @ApiProperty({
    description: "The GSTIN's state code (its first two digits), or null without a GSTIN.",
    nullable: true,
    type: String,
    example: '27',
  })
  stateCode: string | null;
  @ApiProperty({ description: 'The SAC of OTHER_CHARGES lines.', example: '999799' })
  otherChargesSac: string;
  @ApiProperty({
    description: 'How interest on late payment is taxed.',
    enum: INTEREST_TAX_MODES,
    example: 'AS_PRINCIPAL',
  })
  interestTax: InterestTax;
  @ApiProperty({
    description: 'The last month whose return is filed (YYYY-MM), or null.',
    nullable: true,
    type: String,
    example: '2026-09',
  })
  lockedThrough: string | null;
  @ApiProperty({
    description: 'Annual returns filed, oldest year first.',
    type: [AnnualReturnView],
  })
  annualReturns: AnnualReturnView[];
}

export class GstSettingsVersion {
  @ApiProperty({
    type: 'integer',
    example: 2,
    description: 'Version number, 1 = the first stored.',
  })
  version: number;
  @ApiProperty({
    description: 'When this version was stored (UTC).',
    format: 'date-time',
    example: '2026-11-20T11:02:17.456Z',
  })
  changedAt: string;
  @ApiProperty({
    description: 'Who stored it (preferred_username, else sub).',
    example: 'arjun.mehta',
  })
  changedBy: string;
  @ApiProperty({ type: GstSettingsView, description: 'The settings as stored by this version.' })
  settings: GstSettingsView;
}
