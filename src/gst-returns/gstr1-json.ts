/**
 * The return as the JSON the GST portal's offline tool imports, pure: paise and basis points
 * become JSON numbers with at most two decimals (`1333333.33`, `7.5`), everything else is kept.
 * numeric(18,2) amounts have at most 15 significant digits, so each number is its decimal exactly.
 */
import { paiseText } from '@/common/money/paise';
import type { Gstr1Return } from './gstr1';

/** `T` with every bigint (paise, basis points) as the JSON number it is written as. */
export type PortalJson<T> = T extends bigint
  ? number
  : T extends readonly (infer U)[]
    ? PortalJson<U>[]
    : T extends object
      ? { [K in keyof T]: PortalJson<T[K]> }
      : T;

export type Gstr1Json = PortalJson<Gstr1Return>;

function convert(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(paiseText(value));
  if (Array.isArray(value)) return value.map(convert);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
  }
  return value;
}

/** The offline tool's JSON of the return. */
export function gstr1Json(ret: Gstr1Return): Gstr1Json {
  return convert(ret) as Gstr1Json;
}
