import { PaymentMode, PAYMENT_MODES } from './enums';

/** What the service knows about a payment mode; every decision about a mode reads it here. */
export interface PaymentModeFacts {
  /** As printed on receipts, statements and letters. */
  label: string;
  /** A paper instrument: it can bounce, and the bank can return it (a debit line). */
  canBounce: boolean;
  /** It arrives as a bank statement line: cash and TDS never do, so they are never matched. */
  reachesBank: boolean;
}

export const PAYMENT_MODE_FACTS = {
  CASH: { label: 'Cash', canBounce: false, reachesBank: false },
  CHEQUE: { label: 'Cheque', canBounce: true, reachesBank: true },
  DEMAND_DRAFT: { label: 'Demand draft', canBounce: true, reachesBank: true },
  NEFT: { label: 'NEFT', canBounce: false, reachesBank: true },
  RTGS: { label: 'RTGS', canBounce: false, reachesBank: true },
  IMPS: { label: 'IMPS', canBounce: false, reachesBank: true },
  UPI: { label: 'UPI', canBounce: false, reachesBank: true },
  CARD: { label: 'Card', canBounce: false, reachesBank: true },
  ONLINE: { label: 'Online', canBounce: false, reachesBank: true },
  OTHER: { label: 'Other', canBounce: false, reachesBank: true },
  TDS: { label: 'TDS deducted u/s 194-IA', canBounce: false, reachesBank: false },
} as const satisfies Record<PaymentMode, PaymentModeFacts>;

const factsOf = (mode: string): PaymentModeFacts | undefined =>
  Object.hasOwn(PAYMENT_MODE_FACTS, mode) ? PAYMENT_MODE_FACTS[mode as PaymentMode] : undefined;

/** The mode as a reader sees it (the code itself for a mode the table does not know). */
export const paymentModeLabel = (mode: string): string => factsOf(mode)?.label ?? mode;

export const canBounce = (mode: string): boolean => factsOf(mode)?.canBounce ?? false;

export const reachesBank = (mode: string): boolean => factsOf(mode)?.reachesBank ?? false;

/** Modes that can bounce (cheque, demand draft). */
export const BOUNCEABLE_MODES: readonly PaymentMode[] = PAYMENT_MODES.filter(canBounce);

/** Modes that never reach the bank (cash, TDS). */
export const NEVER_IN_BANK: readonly PaymentMode[] = PAYMENT_MODES.filter((m) => !reachesBank(m));

/** A list of modes as SQL literals, for statements that decide by mode: `'CHEQUE', 'DEMAND_DRAFT'`. */
export const sqlModes = (modes: readonly PaymentMode[]): string =>
  modes.map((m) => `'${m}'`).join(', ');
