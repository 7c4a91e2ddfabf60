/** Who is asking, for which tenant: handed by controllers to services. */
export interface TenantContext {
  tenantId: string;
  tenantKey: string;
  currency: string;
  locale: string;
  timezone: string;
  fyStartMonth: number;
  /** `preferred_username`, else `sub`, of the token. */
  actor: string;
}
