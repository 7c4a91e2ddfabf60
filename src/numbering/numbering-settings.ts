import { DocumentType, DOCUMENT_TYPES } from './number-pattern';

/** The camel-case stem of each document type's three configuration fields. */
export const FIELD_STEM: Record<DocumentType, string> = {
  booking: 'booking',
  demand: 'demand',
  'demand-split': 'demandSplit',
  receipt: 'receipt',
  snag: 'snag',
};

export interface DocumentNumbering {
  prefix: string;
  starting: number;
  pattern: string;
}

/** The 17 writable fields, as stored and as sent in a PUT. */
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
