/** Every statement on `demands` and `demand_splits`, with its row types and parameter builders. */

/** A demands row as selected by DEMAND_COLUMNS (money as numeric text). */
export interface DemandRow {
  id: string;
  booking_id: string;
  unit_id: string;
  milestone_id: string | null;
  demand_type: string;
  demand_number: string;
  total_amount: string;
  received_amount: string;
  due_date: string;
  demand_date: string;
  remarks: string;
  status: string;
  buyer_name: string;
  /** The last day an INTEREST demand bills; null for every other demand. */
  interest_through: string | null;
  charge_type: string;
  /** A taxed demand's breakdown (DemandTaxRecord); null while untaxed. */
  tax: DemandTaxRecord | null;
  /** Numeric text: the tax's total, 0.00 while untaxed. */
  tax_amount: string;
  invoice_id: string | null;
  invoice_number: string | null;
  gst_credit_time_barred: boolean;
}

/** A taxed demand's breakdown as stored (demands.tax): money as two-decimal text. */
export interface DemandTaxRecord {
  landDeduction: string;
  taxableValue: string;
  cgstRate: string;
  cgst: string;
  sgstRate: string;
  sgst: string;
  total: string;
  sac: string;
}

export const DEMAND_COLUMNS = `id, booking_id, unit_id, milestone_id, demand_type, demand_number,
  total_amount::text AS total_amount, received_amount::text AS received_amount,
  due_date::text AS due_date, demand_date::text AS demand_date, remarks, status, buyer_name,
  interest_through::text AS interest_through, charge_type, tax, tax_amount::text AS tax_amount,
  invoice_id, invoice_number, gst_credit_time_barred`;

/** A demand_splits row as selected by DEMAND_SPLIT_COLUMNS. */
export interface DemandSplitRow {
  id: string;
  demand_id: string;
  payer_type: string;
  payer_id: string;
  payer_name: string | null;
  demand_split_number: string;
  amount: string;
  /** Numeric text: its share of the demand's tax, 0.00 while untaxed. */
  tax_amount: string;
  paid_amount: string;
  status: string;
}

export const DEMAND_SPLIT_COLUMNS = `id, demand_id, payer_type, payer_id, payer_name, demand_split_number,
  amount::text AS amount, tax_amount::text AS tax_amount, paid_amount::text AS paid_amount, status`;

/** What a new demand copies from its booking, and whether the booking is still active. */
export interface BookingForDemandRow {
  booking_number: string;
  unit_id: string;
  unit_name: string | null;
  buyer_name: string;
  booking_date: string;
  status: string;
  /** What its GST class is derived from, and what its tax invoice names of the buyer. */
  gst_exempt: boolean;
  carpet_area_sqm: string | null;
  metro_city: boolean;
  agreement_value: string | null;
  buyer_address: string | null;
  buyer_gstin: string | null;
}

/**
 * The booking a new demand is raised on. FOR SHARE: a booking being cancelled waits for this
 * demand, or this waits and sees it cancelled.
 */
export const BOOKING_FOR_DEMAND_SQL = `SELECT booking_number, unit_id, unit_name, buyer_name, booking_date::text AS booking_date, status,
       gst_exempt, carpet_area_sqm::text AS carpet_area_sqm, metro_city,
       agreement_value::text AS agreement_value, buyer_address, buyer_gstin
  FROM bookings
 WHERE tenant_id = $1 AND id = $2 FOR SHARE`;

export const bookingForDemandParams = (p: { tenantId: string; bookingId: string }): unknown[] => [
  p.tenantId,
  p.bookingId,
];

/**
 * Inserts a demand and, when it is taxed, its tax invoice as frozen, in one statement (one round
 * trip: the invoice costs a taxed demand no extra one). Params: insertDemandParams.
 */
export const INSERT_DEMAND_SQL = `WITH d AS (
       INSERT INTO demands (tenant_id, booking_id, unit_id, buyer_name, milestone_id, demand_type,
                            demand_number, total_amount, received_amount, due_date, demand_date,
                            remarks, status, created_by, interest_through, charge_type, tax,
                            tax_amount, invoice_id, invoice_number)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::numeric, 0, $9, $10, $11, 'PENDING', $12, $13::date,
               $14, $15::jsonb, $16::numeric, $17::uuid, $18)
       RETURNING *),
     i AS (
       INSERT INTO tax_invoices (tenant_id, id, demand_id, number, invoice_date, recipient_gstin,
                                 document)
       SELECT d.tenant_id, d.invoice_id, d.id, d.invoice_number, d.demand_date, $19, $20::jsonb
         FROM d
        WHERE d.invoice_id IS NOT NULL)
SELECT ${DEMAND_COLUMNS} FROM d`;

export const insertDemandParams = (p: {
  tenantId: string;
  bookingId: string;
  unitId: string;
  buyerName: string;
  milestoneId: string | null;
  demandType: string;
  demandNumber: string;
  /** Numeric text, two decimals. */
  totalAmount: string;
  dueDate: string;
  demandDate: string;
  remarks: string;
  createdBy: string;
  /** An INTEREST demand's last billed day (POST /bookings/{id}/interest-demands), else null. */
  interestThrough?: string | null;
  chargeType: string;
  /** A taxed demand's breakdown; null untaxed. */
  tax: DemandTaxRecord | null;
  /** The invoice a taxed demand is (its id generated here), and its document as frozen. */
  invoice: {
    id: string;
    number: string;
    recipientGstin: string | null;
    document: TaxInvoiceDocument;
  } | null;
}): unknown[] => [
  p.tenantId,
  p.bookingId,
  p.unitId,
  p.buyerName,
  p.milestoneId,
  p.demandType,
  p.demandNumber,
  p.totalAmount,
  p.dueDate,
  p.demandDate,
  p.remarks,
  p.createdBy,
  p.interestThrough ?? null,
  p.chargeType,
  p.tax === null ? null : JSON.stringify(p.tax),
  p.tax?.total ?? '0.00',
  p.invoice?.id ?? null,
  p.invoice?.number ?? null,
  p.invoice?.recipientGstin ?? null,
  p.invoice ? JSON.stringify(p.invoice.document) : null,
];

/** All splits of a new demand in one statement; WITH ORDINALITY keeps the order they were sent in. */
export const INSERT_DEMAND_SPLITS_SQL = `INSERT INTO demand_splits (tenant_id, demand_id, payer_type, payer_id, demand_split_number,
                                  amount, paid_amount, status, payer_name, tax_amount)
       SELECT $1, $2, t.payer_type, t.payer_id, t.number, t.amount, 0, 'PENDING', t.payer_name,
              t.tax_amount
         FROM unnest($3::text[], $4::uuid[], $5::text[], $6::numeric[], $7::text[], $8::numeric[])
              WITH ORDINALITY AS t(payer_type, payer_id, number, amount, payer_name, tax_amount, ord)
        ORDER BY t.ord
       RETURNING ${DEMAND_SPLIT_COLUMNS}`;

export const insertDemandSplitsParams = (p: {
  tenantId: string;
  demandId: string;
  splits: {
    payerType: string;
    payerId: string;
    demandSplitNumber: string;
    /** Numeric text, two decimals. */
    amount: string;
    payerName: string | null;
    /** Numeric text: its share of the tax (0.00 untaxed). */
    taxAmount: string;
  }[];
}): unknown[] => [
  p.tenantId,
  p.demandId,
  p.splits.map((s) => s.payerType),
  p.splits.map((s) => s.payerId),
  p.splits.map((s) => s.demandSplitNumber),
  p.splits.map((s) => s.amount),
  p.splits.map((s) => s.payerName),
  p.splits.map((s) => s.taxAmount),
];

/** A demand's tax invoice as issued (none for an untaxed demand). Params: demandByIdParams. */
export const TAX_INVOICE_OF_DEMAND_SQL = `SELECT id, number, invoice_date::text AS invoice_date, document
  FROM tax_invoices WHERE tenant_id = $1 AND demand_id = $2`;

export interface TaxInvoiceRow {
  id: string;
  number: string;
  invoice_date: string;
  document: TaxInvoiceDocument;
}

/**
 * The invoice as frozen when issued (money as two-decimal text): everything printed but the
 * amount in words and the demand itself, which the reader adds.
 */
export interface TaxInvoiceDocument {
  number: string;
  date: string;
  supplier: { legalName: string; address: string; gstin: string; stateCode: string };
  recipient: {
    name: string;
    address: string | null;
    gstin: string | null;
    bookingNumber: string;
    unit: string;
    unitName: string | null;
  };
  placeOfSupply: { stateCode: string };
  lines: {
    description: string;
    sac: string;
    consideration: string;
    landDeduction: string;
    taxableValue: string;
    cgstRate: string;
    cgst: string;
    sgstRate: string;
    sgst: string;
  }[];
  totals: {
    consideration: string;
    taxableValue: string;
    cgst: string;
    sgst: string;
    tax: string;
    grossAmount: string;
  };
  reverseCharge: false;
}

export const DEMAND_BY_ID_SQL = `SELECT ${DEMAND_COLUMNS} FROM demands WHERE tenant_id = $1 AND id = $2`;

export const demandByIdParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];

/** The splits of one demand, in the order they were created (and numbered). */
export const SPLITS_OF_DEMAND_SQL = `SELECT ${DEMAND_SPLIT_COLUMNS} FROM demand_splits WHERE tenant_id = $1 AND demand_id = $2
        ORDER BY created_at, length(demand_split_number), demand_split_number, id`;

export const splitsOfDemandParams = (p: { tenantId: string; demandId: string }): unknown[] => [
  p.tenantId,
  p.demandId,
];

/** The splits of the demands of a search page, each demand's in the order they were created. */
export const SPLITS_OF_DEMANDS_SQL = `SELECT ${DEMAND_SPLIT_COLUMNS} FROM demand_splits
              WHERE tenant_id = $1 AND demand_id = ANY($2::uuid[])
              ORDER BY created_at, length(demand_split_number), demand_split_number, id`;

export const splitsOfDemandsParams = (p: { tenantId: string; demandIds: string[] }): unknown[] => [
  p.tenantId,
  p.demandIds,
];

/** A credit note as frozen when issued (money as two-decimal text). */
export interface CreditNoteDocumentRecord {
  number: string;
  date: string;
  reason: string;
  /** Copied from the invoices it credits. */
  supplier: TaxInvoiceDocument['supplier'];
  recipient: TaxInvoiceDocument['recipient'];
  invoices: { number: string; date: string }[];
  lines: (Omit<TaxInvoiceDocument['lines'][number], 'landDeduction'> & { invoice: string })[];
  totals: Omit<TaxInvoiceDocument['totals'], 'grossAmount'> & { value: string };
}

/** A credit note as issued. */
export interface CreditNoteRow {
  id: string;
  booking_id: string;
  number: string;
  note_date: string;
  document: CreditNoteDocumentRecord;
}

const CREDIT_NOTE_COLUMNS = `id, booking_id, number, note_date::text AS note_date, document`;

/** One credit note of the tenant. Params: demandByIdParams (its id). */
export const CREDIT_NOTE_BY_ID_SQL = `SELECT ${CREDIT_NOTE_COLUMNS} FROM credit_notes WHERE tenant_id = $1 AND id = $2`;

/**
 * A page of the tenant's credit notes, oldest first (date, then number), optionally of one
 * booking and within dates, with the total count. Params: creditNotesParams.
 */
export const CREDIT_NOTES_PAGE_SQL = `SELECT ${CREDIT_NOTE_COLUMNS}, count(*) OVER ()::int AS total
  FROM credit_notes
 WHERE tenant_id = $1
   AND ($2::uuid IS NULL OR booking_id = $2::uuid)
   AND ($3::date IS NULL OR note_date >= $3::date)
   AND ($4::date IS NULL OR note_date <= $4::date)
 ORDER BY note_date, length(number), number
 LIMIT $5 OFFSET $6`;

export const creditNotesParams = (p: {
  tenantId: string;
  booking?: string;
  from?: string;
  to?: string;
  page: number;
  size: number;
}): unknown[] => [
  p.tenantId,
  p.booking ?? null,
  p.from ?? null,
  p.to ?? null,
  p.size,
  p.page * p.size,
];
