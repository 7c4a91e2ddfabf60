/** The statement `npm run token` checks tenant keys with (token-checks.ts). */

/** Which of the keys name an active tenant. Params: the keys (text[]). */
export const ACTIVE_TENANT_KEYS_SQL = `SELECT key FROM tenants WHERE key = ANY($1::text[]) AND active`;
