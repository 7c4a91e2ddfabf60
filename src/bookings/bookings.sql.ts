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
  /** Numeric text; null when not given. */
  carpet_area_sqm: string | null;
  metro_city: boolean;
  gst_exempt: boolean;
  buyer_address: string | null;
  buyer_gstin: string | null;
  /** The stored date, else the booking date. */
  allotment_date: string;
  status: string;
  created_at: Date;
  created_by: string;
}

export const BOOKING_COLUMNS =
  'id, booking_number, unit_id, unit_name, buyer_name, buyer_id, booking_date::text AS booking_date, agreement_value::text AS agreement_value, carpet_area_sqm::text AS carpet_area_sqm, metro_city, gst_exempt, buyer_address, buyer_gstin, coalesce(allotment_date, booking_date)::text AS allotment_date, status, created_at, created_by';

/** What a booking's GST fields are stored as (PATCH writes them all). */
export interface BookingGstValues {
  /** Numeric text with two decimals, or null. */
  carpetAreaSqm: string | null;
  metroCity: boolean;
  gstExempt: boolean;
  buyerAddress: string | null;
  buyerGstin: string | null;
  /** Null: the booking date. */
  allotmentDate: string | null;
}

export const INSERT_BOOKING_SQL = `INSERT INTO bookings (tenant_id, booking_number, unit_id, buyer_name, buyer_id, booking_date, status, created_by, agreement_value, unit_name,
       carpet_area_sqm, metro_city, gst_exempt, buyer_address, buyer_gstin, allotment_date)
VALUES ($1, $2, $3, $4, $5, $6, 'ACTIVE', $7, $8::numeric, $9, $10::numeric, $11, $12, $13, $14, $15::date)
RETURNING ${BOOKING_COLUMNS}`;

export const insertBookingParams = (
  p: {
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
  } & BookingGstValues,
): unknown[] => [
  p.tenantId,
  p.bookingNumber,
  p.unitId,
  p.buyerName,
  p.buyerId,
  p.bookingDate,
  p.createdBy,
  p.agreementValue,
  p.unitName,
  p.carpetAreaSqm,
  p.metroCity,
  p.gstExempt,
  p.buyerAddress,
  p.buyerGstin,
  p.allotmentDate,
];

export const BOOKING_BY_ID_SQL = `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE tenant_id = $1 AND id = $2`;

export const bookingByIdParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];

/**
 * The booking locked until commit, before PATCH changes it: the booking comes first in the lock
 * order every writer shares (cancellations.service.ts), so a concurrent cancel either sees the
 * change or the change sees the cancel. Its stored values (allotment_date as stored, null for
 * the booking date). Params: bookingByIdParams.
 */
export const LOCK_BOOKING_FOR_UPDATE_SQL = `SELECT status, booking_date::text AS booking_date, unit_name,
       agreement_value::text AS agreement_value, carpet_area_sqm::text AS carpet_area_sqm,
       metro_city, gst_exempt, buyer_address, buyer_gstin, allotment_date::text AS allotment_date
  FROM bookings WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

export interface LockedBookingRow {
  status: string;
  booking_date: string;
  unit_name: string | null;
  agreement_value: string | null;
  carpet_area_sqm: string | null;
  metro_city: boolean;
  gst_exempt: boolean;
  buyer_address: string | null;
  buyer_gstin: string | null;
  allotment_date: string | null;
}

/**
 * Writes every field PATCH may change and answers the booking's row. A SELECT around the UPDATE:
 * TypeORM answers a bare UPDATE ... RETURNING as [rows, count]. Params: updateBookingParams.
 */
export const UPDATE_BOOKING_SQL = `WITH changed AS (
  UPDATE bookings
     SET unit_name = $3, agreement_value = $4::numeric, carpet_area_sqm = $5::numeric,
         metro_city = $6, gst_exempt = $7, buyer_address = $8, buyer_gstin = $9,
         allotment_date = $10::date
   WHERE tenant_id = $1 AND id = $2
  RETURNING *)
SELECT ${BOOKING_COLUMNS} FROM changed`;

export const updateBookingParams = (
  p: {
    tenantId: string;
    id: string;
    unitName: string | null;
    /** Numeric text with two decimals, or null. */
    agreementValue: string | null;
  } & BookingGstValues,
): unknown[] => [
  p.tenantId,
  p.id,
  p.unitName,
  p.agreementValue,
  p.carpetAreaSqm,
  p.metroCity,
  p.gstExempt,
  p.buyerAddress,
  p.buyerGstin,
  p.allotmentDate,
];
