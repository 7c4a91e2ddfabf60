import { DocumentType, DOCUMENT_TYPES } from './number-pattern';

/** The camel-case stem of each document type's three configuration fields. */
export const FIELD_STEM: Record<DocumentType, string> = {
  booking: 'booking',
  demand: 'demand',
  'demand-split': 'demandSplit',
  receipt: 'receipt',
  snag: 'snag',
  'tax-invoice': 'taxInvoice',
  'credit-note': 'creditNote',
  refund: 'refund',
};

export interface DocumentNumbering {
  prefix: string;
  starting: number;
  pattern: string;
}

/**
 * The 26 writable fields, as stored and as sent in a PUT (the nine of the GST documents may be
 * left out of a PUT: they keep their current values).
 */
export interface NumberingSettings {
  separator: string;
  active: boolean;
  bookingNumberPrefix: string;
  bookingNumberStarting: number;
  bookingNumberPattern: string;
  demandNumberPrefix: string;
  demandNumberStarting: number;
  demandNumberPattern: string;
  demandSplitNumberPrefix: string;
  demandSplitNumberStarting: number;
  demandSplitNumberPattern: string;
  receiptNumberPrefix: string;
  receiptNumberStarting: number;
  receiptNumberPattern: string;
  snagNumberPrefix: string;
  snagNumberStarting: number;
  snagNumberPattern: string;
  taxInvoiceNumberPrefix: string;
  taxInvoiceNumberStarting: number;
  taxInvoiceNumberPattern: string;
  creditNoteNumberPrefix: string;
  creditNoteNumberStarting: number;
  creditNoteNumberPattern: string;
  refundNumberPrefix: string;
  refundNumberStarting: number;
  refundNumberPattern: string;
}

export const SETTINGS_FIELDS: (keyof NumberingSettings)[] = [
  ...DOCUMENT_TYPES.flatMap((t) =>
    (['Prefix', 'Starting', 'Pattern'] as const).map(
      (part) => `${FIELD_STEM[t]}Number${part}` as keyof NumberingSettings,
    ),
  ),
  'separator',
  'active',
];

/** The three fields of one document type: `receiptNumberPrefix`, `…Starting`, `…Pattern`. */
export function documentFields(type: DocumentType): {
  prefix: keyof NumberingSettings;
  starting: keyof NumberingSettings;
  pattern: keyof NumberingSettings;
} {
  const stem = FIELD_STEM[type];
  return {
    prefix: `${stem}NumberPrefix` as keyof NumberingSettings,
    starting: `${stem}NumberStarting` as keyof NumberingSettings,
    pattern: `${stem}NumberPattern` as keyof NumberingSettings,
  };
}

export function documentNumbering(
  settings: NumberingSettings,
  type: DocumentType,
): DocumentNumbering {
  const s = settings as unknown as Record<string, unknown>;
  const stem = FIELD_STEM[type];
  return {
    prefix: s[`${stem}NumberPrefix`] as string,
    starting: s[`${stem}NumberStarting`] as number,
    pattern: s[`${stem}NumberPattern`] as string,
  };
}

export function pickSettings(source: NumberingSettings): NumberingSettings {
  return Object.fromEntries(
    SETTINGS_FIELDS.map((f) => [f, source[f]]),
  ) as unknown as NumberingSettings;
}
