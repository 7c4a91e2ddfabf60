import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { FieldError } from '@/common/app-error';
import { toMoney } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { parseCursorQuery, refuseInvalidQuery } from '@/http/cursor-query';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { maskAccountNumber, maskAccountNumberIn } from './account-number';
import { BANK_ACCOUNT_EXISTS, BANK_ACCOUNT_NOT_FOUND, BANK_LINE_NOT_FOUND } from './bank.errors';
import {
  ACCOUNT_SQL,
  accountParams,
  ACCOUNTS_SQL,
  BankAccountRow,
  CLEAR_COLLECTION_SQL,
  clearCollectionParams,
  COLLECTION_ACCOUNT_SQL,
  collectionAccountParams,
  collectionLockParams,
  LOCK_COLLECTION_SQL,
  UPDATE_ACCOUNT_SQL,
  updateAccountParams,
  BankLineRow,
  INSERT_ACCOUNT_SQL,
  insertAccountParams,
  LINE_SQL,
  LineDetailRow,
  lineParams,
  LINES_PAGE_SQL,
  linesPageParams,
  LinesPageRow,
  LINES_BY_IDS_SQL,
  linesByIdsParams,
  tenantParams,
} from './bank.sql';
import { LINE_HISTORY_SQL, LineHistoryRow, lineLockParams } from './bank-matching.sql';
import { BankAccountList, BankAccountView } from './dto/bank-account.view';
import {
  BankLineDetailView,
  BankLinePage,
  BankLineView,
  LINE_STATUSES,
  LineStatus,
} from './dto/bank-line.view';
import { CreateBankAccountRequest } from './dto/create-bank-account.request';
import { UpdateBankAccountRequest } from './dto/update-bank-account.request';

export const LINES_LIMITS = Object.freeze({ defaultLimit: 100, maxLimit: 500 });

export interface LinesQuery {
  status?: unknown;
  after?: unknown;
  limit?: unknown;
}

/** Bank accounts and their lines (docs/bank.md): reads and the account write. */
@Injectable()
export class BankService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
  ) {}

  async create(
    tenant: TenantContext,
    body: CreateBankAccountRequest,
    { recordEvent = true } = {},
  ): Promise<BankAccountView> {
    const collection = body.collection ?? false;
    const cleared = collection
      ? await this.clearCollection(tenant, body.currency, null, recordEvent)
      : undefined;
    const [row] = await this.txHost.tx
      .query<BankAccountRow[]>(
        INSERT_ACCOUNT_SQL,
        insertAccountParams({
          tenantId: tenant.tenantId,
          name: body.name,
          accountNumber: body.accountNumber,
          ifsc: body.ifsc ?? null,
          currency: body.currency,
          actor: tenant.actor,
          collection,
        }),
      )
      .catch((error: unknown) => {
        throw maskAccountNumberIn(error, body.accountNumber);
      });
    if (!row) throw BANK_ACCOUNT_EXISTS.error(maskAccountNumber(body.accountNumber));
    const view = accountView(row);
    if (recordEvent) {
      for (const other of cleared ?? []) this.outbox.record('bank-account.updated', other);
      this.outbox.record('bank-account.created', view);
    }
    return view;
  }

  /**
   * PATCH /bank-accounts/{id}: renames the account and sets or clears `collection` (setting it
   * clears it on the tenant's other account in the currency: one bank-account.updated each).
   */
  async update(
    tenant: TenantContext,
    accountId: string,
    body: UpdateBankAccountRequest,
  ): Promise<BankAccountView> {
    const current = await this.account(tenant, accountId);
    const cleared =
      body.collection === true
        ? await this.clearCollection(tenant, current.currency, accountId, true)
        : [];
    const [row] = await this.txHost.tx.query<BankAccountRow[]>(
      UPDATE_ACCOUNT_SQL,
      updateAccountParams({
        tenantId: tenant.tenantId,
        accountId,
        name: body.name ?? null,
        collection: body.collection ?? null,
      }),
    );
    if (!row) throw BANK_ACCOUNT_NOT_FOUND.error(accountId);
    const view = accountView(row);
    for (const other of cleared) this.outbox.record('bank-account.updated', other);
    if (row.name !== current.name || row.collection !== current.collection) {
      this.outbox.record('bank-account.updated', view);
    }
    return view;
  }

  /**
   * The tenant's collection account in its own currency, its number in full (the one place it is
   * shown: a letter tells payers where to pay); null when there is none.
   */
  async collectionAccount(tenant: TenantContext): Promise<BankAccountRow | null> {
    const [row] = await this.txHost.tx.query<BankAccountRow[]>(
      COLLECTION_ACCOUNT_SQL,
      collectionAccountParams({ tenantId: tenant.tenantId, currency: tenant.currency }),
    );
    return row ?? null;
  }

  /** Takes the flag off the tenant's other collection account in `currency`, under a lock. */
  private async clearCollection(
    tenant: TenantContext,
    currency: string,
    exceptId: string | null,
    recordEvent: boolean,
  ): Promise<BankAccountView[]> {
    await this.txHost.tx.query(
      LOCK_COLLECTION_SQL,
      collectionLockParams({ tenantId: tenant.tenantId, currency }),
    );
    const rows = await this.txHost.tx.query<BankAccountRow[]>(
      CLEAR_COLLECTION_SQL,
      clearCollectionParams({ tenantId: tenant.tenantId, currency, exceptId }),
    );
    return recordEvent ? rows.map(accountView) : [];
  }

  async list(tenant: TenantContext): Promise<BankAccountList> {
    const rows = await this.txHost.tx.query<BankAccountRow[]>(
      ACCOUNTS_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    return { accounts: rows.map(accountView) };
  }

  async findOne(tenant: TenantContext, accountId: string): Promise<BankAccountView> {
    return accountView(await this.account(tenant, accountId));
  }

  /** The account's row, or 404 (also for another tenant's account). */
  async account(tenant: TenantContext, accountId: string): Promise<BankAccountRow> {
    const [row] = await this.txHost.tx.query<BankAccountRow[]>(
      ACCOUNT_SQL,
      accountParams({ tenantId: tenant.tenantId, accountId }),
    );
    if (!row) throw BANK_ACCOUNT_NOT_FOUND.error(accountId);
    return row;
  }

  /**
   * GET /bank-accounts/{id}/lines: the account's lines after a sequence, in order. With `status`,
   * a short page moves `nextAfter` to the account's last sequence in the same snapshot (as
   * GET /events does with `type`): every later line has a higher sequence.
   */
  async lines(tenant: TenantContext, accountId: string, query: LinesQuery): Promise<BankLinePage> {
    const errors: FieldError[] = [];
    const { after, limit } = parseCursorQuery(query, LINES_LIMITS, errors);
    let status: LineStatus | null = null;
    if (query.status !== undefined) {
      if (LINE_STATUSES.includes(query.status as LineStatus)) status = query.status as LineStatus;
      else errors.push({ field: 'status', message: `must be one of ${LINE_STATUSES.join(', ')}` });
    }
    refuseInvalidQuery(errors);
    const rows = await this.txHost.tx.query<LinesPageRow[]>(
      LINES_PAGE_SQL,
      linesPageParams({ tenantId: tenant.tenantId, accountId, after, status, limit }),
    );
    if (rows.length === 0) throw BANK_ACCOUNT_NOT_FOUND.error(accountId);
    const lines = rows.flatMap((r) =>
      r.id === null ? [] : [lineView(r as BankLineRow, r.currency, tenant)],
    );
    const lastReturned = lines.at(-1)?.sequence;
    const nextAfter =
      status !== null && lines.length < limit
        ? Math.max(after, Number(rows[0].last_sequence))
        : (lastReturned ?? after);
    return { lines, nextAfter };
  }

  /** GET /bank-lines/{id}. */
  async line(tenant: TenantContext, lineId: string): Promise<BankLineDetailView> {
    const [row] = await this.txHost.tx.query<LineDetailRow[]>(
      LINE_SQL,
      lineParams({ tenantId: tenant.tenantId, lineId }),
    );
    if (!row) throw BANK_LINE_NOT_FOUND.error(lineId);
    const history = await this.txHost.tx.query<LineHistoryRow[]>(
      LINE_HISTORY_SQL,
      lineLockParams({ tenantId: tenant.tenantId, lineId }),
    );
    return {
      ...lineView(row, row.currency, tenant),
      statement: row.statement_id,
      bankAccount: row.bank_account_id,
      fileLine: row.file_line,
      raw: row.raw,
      history: history.map((h) => ({
        at: h.at.toISOString(),
        actor: h.actor,
        action: h.action,
        rule: h.rule,
        reason: h.reason,
        receipts: h.receipts,
      })),
    };
  }

  /** Some lines as the lines feed shows them (the data of bank-line events). */
  async linesByIds(tenant: TenantContext, ids: string[]): Promise<BankLineView[]> {
    if (ids.length === 0) return [];
    const rows = await this.txHost.tx.query<(BankLineRow & { currency: string })[]>(
      LINES_BY_IDS_SQL,
      linesByIdsParams({ tenantId: tenant.tenantId, ids }),
    );
    return rows.map((r) => lineView(r, r.currency, tenant));
  }
}

export function accountView(row: BankAccountRow): BankAccountView {
  return {
    id: row.id,
    name: row.name,
    accountNumber: maskAccountNumber(row.account_number),
    ifsc: row.ifsc,
    currency: row.currency,
    collection: row.collection,
    created: row.created_at.toISOString(),
  };
}

export function lineView(row: BankLineRow, currency: string, tenant: TenantContext): BankLineView {
  const money = (amount: string) => toMoney(amount, currency, tenant.locale);
  return {
    id: row.id,
    sequence: Number(row.sequence),
    valueDate: row.value_date,
    bookingDate: row.booking_date,
    direction: row.direction,
    amount: money(row.amount),
    narration: row.narration,
    reference: row.reference,
    utr: row.utr,
    chequeNumber: row.cheque_number,
    balance: row.balance === null ? null : money(row.balance),
    status: row.status,
    possibleDuplicate: row.possible_duplicate,
    matches: row.matches.map((m) => ({
      receipt: m.receipt,
      receiptNumber: m.receiptNumber,
      amount: toMoney(m.amount, currency, tenant.locale),
      rule: m.rule,
      score: Number(m.score),
    })),
    suggestions: row.suggestions.map((s) => ({
      receipts: s.receipts,
      receiptNumbers: s.receiptNumbers,
      rule: s.rule,
      score: Number(s.score),
      reasons: s.reasons,
    })),
  };
}
