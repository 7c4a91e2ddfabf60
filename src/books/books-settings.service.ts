import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TenantContext } from '@/common/tenant-context';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { BOOKS_SETTINGS_CHANGED } from './books.errors';
import {
  BOOKS_SETTINGS_SQL,
  BooksSettingsRow,
  BooksSettingsValues,
  ENSURE_BOOKS_SETTINGS_SQL,
  ensureBooksSettingsParams,
  LOCK_BOOKS_SETTINGS_SQL,
  REPLACE_BOOKS_SETTINGS_SQL,
  replaceBooksSettingsParams,
  tenantParams,
} from './books.sql';
import { BooksSettingsRequest } from './dto/books-settings.request';
import { BooksSettingsView } from './dto/books-settings.view';
import {
  BooksLedgers,
  BooksSettings,
  DEFAULT_LEDGERS,
  DEFAULT_PARTY_GROUP,
  DEFAULT_PARTY_LEDGER,
  LEDGER_KEYS,
} from './vouchers';

/** Every ledger, in LEDGER_KEYS order (so equal settings print, and hash, alike). */
function pickLedgers(pick: (key: keyof BooksLedgers) => string): BooksLedgers {
  return Object.fromEntries(LEDGER_KEYS.map((k) => [k, pick(k)])) as unknown as BooksLedgers;
}

/** Every tenant's settings until it stores some. */
export const DEFAULT_BOOKS_SETTINGS: BooksSettingsValues = {
  company: null,
  partyLedger: DEFAULT_PARTY_LEDGER,
  partyGroup: DEFAULT_PARTY_GROUP,
  ledgers: DEFAULT_LEDGERS,
};

/** The stored values (none: the defaults) with the company resolved to the tenant's name. */
export function toBooksSettings(row: BooksSettingsRow | undefined): BooksSettings {
  const values =
    row && row.party_ledger !== null
      ? {
          company: row.company,
          partyLedger: row.party_ledger,
          partyGroup: row.party_group ?? DEFAULT_PARTY_GROUP,
          // A ledger added after the row was stored takes its default.
          ledgers: { ...DEFAULT_LEDGERS, ...row.ledgers },
        }
      : DEFAULT_BOOKS_SETTINGS;
  return {
    company: values.company ?? row?.tenant_name ?? '',
    partyLedger: values.partyLedger,
    partyGroup: values.partyGroup,
    ledgers: pickLedgers((k) => values.ledgers[k]),
  };
}

/** The values a PUT stores: an omitted (or null) field takes its default. */
export function valuesOf(input: BooksSettingsRequest): BooksSettingsValues {
  const given = input.ledgers ?? {};
  return {
    company: input.company?.trim() || null,
    partyLedger: input.partyLedger ?? DEFAULT_PARTY_LEDGER,
    partyGroup: input.partyGroup?.trim() || DEFAULT_PARTY_GROUP,
    ledgers: pickLedgers((k) => given[k]?.trim() || DEFAULT_LEDGERS[k]),
  };
}

/** The tenant's books settings (GET / PUT /tenant/books): ledger names, no money. */
@Injectable()
export class BooksSettingsService {
  constructor(private readonly txHost: TransactionHost<RoutingTransactionAdapter>) {}

  /** The settings in force, read in the caller's transaction. */
  async settings(tenant: TenantContext): Promise<BooksSettings> {
    const [row] = await this.txHost.tx.query<BooksSettingsRow[]>(
      BOOKS_SETTINGS_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    return toBooksSettings(row);
  }

  async get(tenant: TenantContext): Promise<WithEtag<BooksSettingsView>> {
    const view = await this.settings(tenant);
    return { view, etag: etagOf(view) };
  }

  /**
   * PUT: replaces the settings unless nothing changes. The row is locked first, so concurrent
   * replacements queue and If-Match sees the latest.
   */
  async replace(
    tenant: TenantContext,
    input: BooksSettingsRequest,
    ifMatch?: string,
  ): Promise<WithEtag<BooksSettingsView>> {
    const values = valuesOf(input);
    const em = this.txHost.tx;
    const tenantId = tenant.tenantId;
    await em.query(
      ENSURE_BOOKS_SETTINGS_SQL,
      ensureBooksSettingsParams({ tenantId, actor: tenant.actor, ...DEFAULT_BOOKS_SETTINGS }),
    );
    const [current] = await em.query<BooksSettingsRow[]>(
      LOCK_BOOKS_SETTINGS_SQL,
      tenantParams({ tenantId }),
    );
    const before = toBooksSettings(current);
    if (!ifMatchAllows(ifMatch, etagOf(before))) throw BOOKS_SETTINGS_CHANGED.error();
    const view = toBooksSettings({
      ...current,
      company: values.company,
      party_ledger: values.partyLedger,
      party_group: values.partyGroup,
      ledgers: values.ledgers,
    });
    if (JSON.stringify(view) === JSON.stringify(before)) return { view, etag: etagOf(view) };
    await em.query(
      REPLACE_BOOKS_SETTINGS_SQL,
      replaceBooksSettingsParams({
        tenantId,
        version: current.version + 1,
        actor: tenant.actor,
        ...values,
      }),
    );
    return { view, etag: etagOf(view) };
  }
}
