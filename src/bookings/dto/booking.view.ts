import type { BookingRow } from '@/bookings/bookings.sql';
import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { toMoney } from '@/common/money/money';
import { MoneyView } from '@/common/money/money.view';
import { TenantContext } from '@/common/tenant-context';
import { GST_CLASSES, gstClass, type GstClass } from '@/gst/gst-tax';

export class BookingView {
  @ApiProperty({
    description: 'Booking id.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  id: string;
  @ApiProperty({
    description: "Number from the tenant's booking series.",
    example: 'BKG/26-27/00031',
  })
  bookingNumber: string;
  @ApiProperty({
    description: 'The unit booked.',
    format: 'uuid',
    example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  })
  unit: string;
  @ApiProperty({
    description:
      "The unit's name as printed on documents and letters, or null (they print the unit's id).",
    nullable: true,
    type: String,
    example: 'Tower B – 1203',
  })
  unitName: string | null;
  @ApiProperty({ description: "The buyer's name.", example: 'Ananya Iyer' })
  buyerName: string;
  @ApiProperty({
    description: "The buyer's id, or null.",
    format: 'uuid',
    nullable: true,
    type: String,
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  buyerId: string | null;
  @ApiProperty({ description: 'Date of the booking.', format: 'date', example: '2026-11-22' })
  bookingDate: string;
  @ApiProperty({
    description: "The agreement's value, or null when it was not given.",
    oneOf: [
      { $ref: getSchemaPath(MoneyView) },
      { type: 'object', nullable: true, enum: [null], description: 'Not given.' },
    ],
    example: null,
  })
  agreementValue: MoneyView | null;
  @ApiProperty({
    description: 'Carpet area in square metres, or null when not given.',
    nullable: true,
    type: Number,
    example: 58.5,
  })
  carpetAreaSqm: number | null;
  @ApiProperty({ description: 'Whether the unit is in a metropolitan city.', example: true })
  metroCity: boolean;
  @ApiProperty({
    description:
      'Whether the whole consideration is received after the completion certificate (no GST).',
    example: false,
  })
  gstExempt: boolean;
  @ApiProperty({
    description: "The buyer's address printed on tax invoices, or null.",
    nullable: true,
    type: String,
    example: 'Flat 7, Sea Breeze, Carter Road, Bandra West, Mumbai 400050',
  })
  buyerAddress: string | null;
  @ApiProperty({
    description: "The buyer's GSTIN (a buyer registered for GST), or null.",
    nullable: true,
    type: String,
    example: '27AAPFU0939F1ZV',
  })
  buyerGstin: string | null;
  @ApiProperty({
    description: 'Date of the allotment (bookingDate unless given).',
    format: 'date',
    example: '2026-12-01',
  })
  allotmentDate: string;
  @ApiProperty({
    description:
      'The GST class, derived: EXEMPT when gstExempt; else AFFORDABLE when carpetAreaSqm <= 60 (metroCity) or <= 90 (elsewhere) and agreementValue <= 45,00,000.00, both known; else STANDARD.',
    enum: GST_CLASSES,
    example: 'AFFORDABLE',
  })
  gstClass: GstClass;
  @ApiProperty({ description: 'Booking status.', enum: ['ACTIVE', 'CANCELLED'], example: 'ACTIVE' })
  status: string;
  @ApiProperty({
    description: 'When it was created (UTC).',
    format: 'date-time',
    example: '2026-11-22T01:17:30.123Z',
  })
  created: string;
  @ApiProperty({
    description: 'Who created it (preferred_username, else sub, of the token).',
    example: 'priya.sharma',
  })
  createdBy: string;
}

export function toBookingView(row: BookingRow, tenant: TenantContext): BookingView {
  return {
    id: row.id,
    bookingNumber: row.booking_number,
    unit: row.unit_id,
    unitName: row.unit_name,
    buyerName: row.buyer_name,
    buyerId: row.buyer_id,
    bookingDate: row.booking_date,
    agreementValue:
      row.agreement_value === null
        ? null
        : toMoney(row.agreement_value, tenant.currency, tenant.locale),
    // numeric(10,2) text: Number() is the JSON number of exactly those digits.
    carpetAreaSqm: row.carpet_area_sqm === null ? null : Number(row.carpet_area_sqm),
    metroCity: row.metro_city,
    gstExempt: row.gst_exempt,
    buyerAddress: row.buyer_address,
    buyerGstin: row.buyer_gstin,
    allotmentDate: row.allotment_date,
    gstClass: gstClass({
      gstExempt: row.gst_exempt,
      carpetAreaSqm: row.carpet_area_sqm,
      metroCity: row.metro_city,
      agreementValue: row.agreement_value,
    }),
    status: row.status,
    created: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
  };
}
