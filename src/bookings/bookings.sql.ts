/** Every statement on `bookings`, with its row type and parameter builders. */

/** A bookings row as selected by BOOKING_COLUMNS. */
export interface BookingRow {
  id: string;
  booking_number: string;
  unit_id: string;
  unit_name: string | null;
  buyer_name: string;
  buyer_id: string | null;
  booking_date: string;
  /** Numeric text; null when not given. */
  agreement_value: string | null;
  status: string;
  created_at: Date;
  created_by: string;
}

export const BOOKING_COLUMNS =
  'id, booking_number, unit_id, unit_name, buyer_name, buyer_id, booking_date::text AS booking_date, agreement_value::text AS agreement_value, status, created_at, created_by';

export const INSERT_BOOKING_SQL = `INSERT INTO bookings (tenant_id, booking_number, unit_id, buyer_name, buyer_id, booking_date, status, created_by, agreement_value, unit_name)
VALUES ($1, $2, $3, $4, $5, $6, 'ACTIVE', $7, $8::numeric, $9)
RETURNING ${BOOKING_COLUMNS}`;

export const insertBookingParams = (p: {
  tenantId: string;
  bookingNumber: string;
  unitId: string;
  buyerName: string;
  buyerId: string | null;
  bookingDate: string;
  createdBy: string;
  /** Numeric text with two decimals, or null. */
  agreementValue: string | null;
  unitName: string | null;
}): unknown[] => [
  p.tenantId,
  p.bookingNumber,
  p.unitId,
  p.buyerName,
  p.buyerId,
  p.bookingDate,
  p.createdBy,
  p.agreementValue,
  p.unitName,
];

export const BOOKING_BY_ID_SQL = `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE tenant_id = $1 AND id = $2`;

export const bookingByIdParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];
