/**
 * Names on paper: who a printed document or letter says paid or is asked to pay, and which unit,
 * so a buyer never reads an id where a name belongs.
 */

/** A payer without a name of its own, by type (a BUYER's is the buyer's name instead). */
export const PAYER_TYPE_LABELS: Readonly<Record<string, string>> = {
  CO_BUYER: 'Co-buyer',
  BANK: 'Home-loan bank',
  OTHER: 'Other',
};

/** The split's payerName when given; else a BUYER's is the buyer's name, any other its label. */
export function printedPayerName(payer: {
  payerName: string | null | undefined;
  payerType: string;
  buyerName: string;
}): string {
  if (payer.payerName) return payer.payerName;
  if (payer.payerType === 'BUYER') return payer.buyerName;
  return PAYER_TYPE_LABELS[payer.payerType] ?? PAYER_TYPE_LABELS.OTHER;
}

/** The unit's name, or its id when it has none. */
export function printedUnit(unit: { unitId: string; unitName: string | null | undefined }): string {
  return unit.unitName || unit.unitId;
}
