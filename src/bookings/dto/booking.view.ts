import type { BookingRow } from '@/bookings/bookings.sql';
import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { toMoney } from '@/common/money/money';
import { MoneyView } from '@/common/money/money.view';
import { TenantContext } from '@/common/tenant-context';

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
    status: row.status,
    created: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
  };
}
