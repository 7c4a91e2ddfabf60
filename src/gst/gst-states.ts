/**
 * The state codes of GST (the first two digits of a GSTIN) and the names a tax invoice prints
 * for its place of supply, as the GST portal lists them. Pure.
 */

/**
 * Code → name. 25 (Daman and Diu) stays for registrations made before it was merged into 26 in
 * 2020; 28 is Andhra Pradesh's code from before Telangana (36) was formed, 37 the present one.
 */
export const GST_STATES: Readonly<Record<string, string>> = Object.freeze({
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '25': 'Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '28': 'Andhra Pradesh (Before Division)',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
});

/** The state's name for a two-digit code (`27` → Maharashtra), or null for an unknown code. */
export function gstStateName(code: string): string | null {
  return Object.prototype.hasOwnProperty.call(GST_STATES, code) ? GST_STATES[code] : null;
}
