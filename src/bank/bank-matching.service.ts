import { Injectable, OnModuleInit } from '@nestjs/common';
import { reachesBank } from '@/common/domain/payment-modes';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { TenantContext } from '@/common/tenant-context';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { RETURN_LINE_NOT_FOUND, RETURN_LINE_NOT_MATCHABLE } from '@/receipts/receipts.errors';
import { ReceiptsService } from '@/receipts/receipts.service';
import { BANK_LINE_NOT_FOUND, LINE_NOT_MATCHABLE, LINE_NOT_MATCHED } from './bank.errors';
import { BankService } from './bank.service';
import { matchEventsSql } from './match-events.sql';
import { moneyFormat } from '@/common/money/money-json.sql';
import { manualMatchDecision, manualMatchLine } from './manual-match';
import {
  ReceiptHooks,
  ReceiptReturnHook,
  ReceiptsRecordedHook,
  RecordedReceipt,
} from '@/receipts/receipt-hooks';
import {
  accountOpenLinesParams,
  IGNORE_SQL,
  LOCK_ACCOUNT_OPEN_LINES_SQL,
  LOCK_OPEN_LINES_OF_AMOUNTS_SQL,
  openLinesOfAmountsParams,
  OpenLineRow,
  RECEIPT_FOR_RETURN_SQL,
  ReceiptForReturnRow,
  returnParams,
  returnSql,
  LOCK_LINE_SQL,
  LOCK_RECEIPTS_SQL,
  LockedLineRow,
  LockedReceiptRow,
  lineLockParams,
  MANUAL_MATCH_SQL,
  manualMatchParams,
  MatchOutcomeRow,
  matchLockSql,
  matchParams,
  MatchScope,
  matchSql,
  receiptsLockParams,
  UNMATCH_SQL,
  UnmatchRow,
  unmatchParams,
} from './bank-matching.sql';
import { BankLineReasonRequest, MatchBankLineRequest } from './dto/bank-line-actions.request';
import { BankLineDetailView } from './dto/bank-line.view';

/** What a matching run did to the lines it took. */
export interface MatchCounts {
  auto: number;
  suggested: number;
  /** Lines of the run left UNMATCHED. */
  unmatched: number;
}

export interface MatchOutcome extends MatchCounts {
  /** The receipts the run realised. */
  realised: string[];
}

export interface MatchRunOptions {
  /** The line statuses the run takes. */
  statuses: readonly ('UNMATCHED' | 'SUGGESTED')[];
  /** Only these receipts (a new receipt's check), else every open receipt of the tenant. */
  receipts?: string[];
  /** Whether to suggest by AMOUNT_DATE (rule 3); later receipts try rules 1 and 2 only. */
  amountDate: boolean;
  /** False: write no events (the demo seed's import, which writes none either). */
  recordEvents?: boolean;
}

/** Line and receipt views read per query for the events of a matching run. */
const VIEWS_PER_QUERY = 500;

/**
 * Matching statement lines to receipts (bank-matching.sql.ts): the set-based run
 * that imports, rematches and new receipts start, and the manual match, unmatch and ignore. Every
 * write is in the request's transaction; lines are locked before receipts, receipts in id order
 * (as cancelling one finds it: a realised receipt is never cancelled).
 *
 * Lock order: lines, then receipts, then (realisation moved a searchable column) the tenant's
 * receipt version row. Recording a receipt holds that row before its hook runs here, so the hook
 * skips lines another transaction holds (SKIP LOCKED) instead of waiting in the opposite order.
 */
@Injectable()
export class BankMatchingService implements ReceiptsRecordedHook, ReceiptReturnHook, OnModuleInit {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
    private readonly bank: BankService,
    private readonly receipts: ReceiptsService,
    private readonly hooks: ReceiptHooks,
  ) {}

  /** Receipts sit below bank: they call back through the hook registry (receipt-hooks.ts). */
  onModuleInit(): void {
    this.hooks.onRecorded(this);
    this.hooks.onReturn(this);
  }

  /** Rule RETURN over the debit lines of a scope (bank-matching.sql.ts returnSql): suggested. */
  async returns(
    tenant: TenantContext,
    scope: MatchScope,
    scopeValue: string | string[],
  ): Promise<number> {
    const [row] = await this.txHost.tx.query<{ suggested: number }[]>(
      returnSql(scope),
      returnParams({ tenantId: tenant.tenantId, currency: tenant.currency, scopeValue }),
    );
    return row.suggested;
  }

  /** ReceiptReturnHook: the bounce's bankLine, checked and locked before the bounce. */
  async lockReturnLine(tenant: TenantContext, receiptId: string, lineId: string): Promise<void> {
    const [line] = await this.txHost.tx.query<LockedLineRow[]>(
      LOCK_LINE_SQL,
      lineLockParams({ tenantId: tenant.tenantId, lineId }),
    );
    if (!line) throw RETURN_LINE_NOT_FOUND.error(lineId);
    if (line.direction !== 'DEBIT') throw RETURN_LINE_NOT_MATCHABLE.error(lineId, 'it is a CREDIT');
    if (line.status === 'MATCHED' || line.status === 'IGNORED') {
      throw RETURN_LINE_NOT_MATCHABLE.error(lineId, `it is ${line.status}`);
    }
    const [receipt] = await this.txHost.tx.query<ReceiptForReturnRow[]>(
      RECEIPT_FOR_RETURN_SQL,
      lineLockParams({ tenantId: tenant.tenantId, lineId: receiptId }),
    );
    // An unknown receipt is the bounce's own 404, next.
    if (!receipt) return;
    if (!new Decimal(receipt.amount).eq(line.amount)) {
      const amounts = `its amount ${new Decimal(line.amount).toFixed(2)} is not the receipt's ${receipt.amount}`;
      throw RETURN_LINE_NOT_MATCHABLE.error(lineId, amounts);
    }
    if (receipt.returned_by !== null) {
      const why = `the receipt is matched to return line ${receipt.returned_by}`;
      throw RETURN_LINE_NOT_MATCHABLE.error(lineId, why);
    }
  }

  /** ReceiptReturnHook: after the bounce, the line is MATCHED to the receipt (rule RETURN). */
  async matchReturnLine(tenant: TenantContext, receiptId: string, lineId: string): Promise<void> {
    const [line] = await this.txHost.tx.query<LockedLineRow[]>(
      LOCK_LINE_SQL,
      lineLockParams({ tenantId: tenant.tenantId, lineId }),
    );
    await this.txHost.tx.query(
      MANUAL_MATCH_SQL,
      manualMatchParams({
        tenantId: tenant.tenantId,
        lineId,
        receipts: [receiptId],
        valueDate: line.value_date,
        actor: tenant.actor,
        kind: 'RETURN',
        rule: 'RETURN',
      }),
    );
    await this.recordLine(tenant, 'bank-line.matched', lineId);
  }

  /**
   * Runs rules 1-3 over the lines of `scope` (bank-matching.sql.ts MATCH_SCOPES), writes the
   * events of what it matched, and answers the counts.
   */
  async run(
    tenant: TenantContext,
    scope: MatchScope,
    scopeValue: string | string[],
    options: MatchRunOptions,
  ): Promise<MatchOutcome> {
    const em = this.txHost.tx;
    const params = matchParams({
      tenantId: tenant.tenantId,
      currency: tenant.currency,
      scopeValue,
      statuses: options.statuses,
      receipts: options.receipts ?? null,
      amountDate: options.amountDate,
      actor: tenant.actor,
    });
    // The lock statement binds $1-$5 only.
    await em.query(matchLockSql(scope), params.slice(0, 5));
    const [row] = await em.query<MatchOutcomeRow[]>(matchSql(scope), params);
    await this.realisedChanged(tenant, row.realised_receipts);
    const format = moneyFormat(tenant.currency, tenant.locale);
    if ((options.recordEvents ?? true) && format) {
      // Made in SQL at the flush, one statement (match-events.sql.ts): no view is read into the
      // service, no JSON sent back.
      this.outbox.recordQuery(
        [
          ...row.matched_lines.map(() => 'bank-line.matched' as const),
          ...row.realised_receipts.map(() => 'receipt.realised' as const),
        ],
        matchEventsSql(format),
        [row.matched_lines, row.realised_receipts],
      );
    } else if (options.recordEvents ?? true) {
      // A locale whose amounts SQL cannot format as Intl does (money-json.sql.ts): the views read
      // in slices (an import can match thousands of lines; only the events' text is kept).
      for (let i = 0; i < row.matched_lines.length; i += VIEWS_PER_QUERY) {
        const ids = row.matched_lines.slice(i, i + VIEWS_PER_QUERY);
        for (const line of await this.bank.linesByIds(tenant, ids)) {
          this.outbox.record('bank-line.matched', line);
        }
      }
      for (let i = 0; i < row.realised_receipts.length; i += VIEWS_PER_QUERY) {
        const ids = row.realised_receipts.slice(i, i + VIEWS_PER_QUERY);
        for (const receipt of await this.receipts.loadByIds(tenant, ids)) {
          this.outbox.record('receipt.realised', receipt);
        }
      }
    }
    return {
      auto: row.auto,
      suggested: row.suggested,
      unmatched: row.unmatched,
      realised: row.realised_receipts,
    };
  }

  /**
   * POST /bank-accounts/{id}/rematch: every rule again over the account's UNMATCHED and SUGGESTED
   * credit lines, locked first (a manual match in flight is waited for, never overwritten).
   */
  async rematch(tenant: TenantContext, accountId: string): Promise<MatchCounts> {
    await this.bank.account(tenant, accountId);
    const lines = await this.txHost.tx.query<OpenLineRow[]>(
      LOCK_ACCOUNT_OPEN_LINES_SQL,
      accountOpenLinesParams({ tenantId: tenant.tenantId, accountId, currency: tenant.currency }),
    );
    const of = (direction: OpenLineRow['direction']) =>
      lines.filter((l) => l.direction === direction).map((l) => l.id);
    const credits = of('CREDIT');
    const debits = of('DEBIT');
    const outcome =
      credits.length === 0
        ? { auto: 0, suggested: 0, unmatched: 0 }
        : await this.run(tenant, 'lines', credits, {
            statuses: ['UNMATCHED', 'SUGGESTED'],
            amountDate: true,
          });
    const returns = debits.length === 0 ? 0 : await this.returns(tenant, 'lines', debits);
    return {
      auto: outcome.auto,
      suggested: outcome.suggested + returns,
      unmatched: outcome.unmatched,
    };
  }

  /**
   * Receipts just recorded (POST /receipts, a payment) try rules REFERENCE and GROUP against the
   * tenant's UNMATCHED credit lines of their amounts (each, and all together), in the recording
   * transaction; lines held by another transaction are skipped. Answers the receipts realised.
   */
  async afterRecorded(tenant: TenantContext, receipts: RecordedReceipt[]): Promise<string[]> {
    const open = receipts.filter(
      (r) => reachesBank(r.paymentMode) && r.transactionRef.trim() !== '',
    );
    if (open.length === 0) return [];
    const total = open.reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
    const amounts = [...new Set([...open.map((r) => r.amount), total.toFixed(2)])];
    const lines = await this.txHost.tx.query<{ id: string }[]>(
      LOCK_OPEN_LINES_OF_AMOUNTS_SQL,
      openLinesOfAmountsParams({ tenantId: tenant.tenantId, amounts, currency: tenant.currency }),
    );
    if (lines.length === 0) return [];
    const outcome = await this.run(
      tenant,
      'lines',
      lines.map((l) => l.id),
      { statuses: ['UNMATCHED'], receipts: open.map((r) => r.id), amountDate: false },
    );
    return outcome.realised;
  }

  /** POST /bank-lines/{id}/match: rule MANUAL. */
  async match(
    tenant: TenantContext,
    lineId: string,
    body: MatchBankLineRequest,
  ): Promise<BankLineDetailView> {
    const locked = await this.lockLine(tenant, lineId);
    const line = {
      ...locked,
      suggestedReturn:
        locked.direction === 'DEBIT' &&
        locked.status === 'SUGGESTED' &&
        (await this.bank.linesByIds(tenant, [lineId]))[0].suggestions.some(
          (s) => s.rule === 'RETURN',
        ),
    };
    // The line is refused before its receipts are locked.
    manualMatchLine(line, tenant.currency);
    const receipts = await this.lockReceipts(tenant, body.receipts);
    const { kind, rule } = manualMatchDecision(line, tenant.currency, body.receipts, receipts);
    const isReturn = kind === 'RETURN';
    await this.txHost.tx.query(
      MANUAL_MATCH_SQL,
      manualMatchParams({
        tenantId: tenant.tenantId,
        lineId,
        receipts: body.receipts,
        valueDate: locked.value_date,
        actor: tenant.actor,
        kind,
        rule,
      }),
    );
    await this.recordLine(tenant, 'bank-line.matched', lineId);
    if (!isReturn) {
      await this.realisedChanged(tenant, body.receipts);
      for (const receipt of await this.receipts.loadByIds(tenant, body.receipts)) {
        this.outbox.record('receipt.realised', receipt);
      }
    }
    return this.bank.line(tenant, lineId);
  }

  /** POST /bank-lines/{id}/unmatch: the pairs are kept in history, never matched again. */
  async unmatch(
    tenant: TenantContext,
    lineId: string,
    body: BankLineReasonRequest,
  ): Promise<BankLineDetailView> {
    const line = await this.lockLine(tenant, lineId);
    if (line.status !== 'MATCHED') throw LINE_NOT_MATCHED.error(lineId, line.status);
    const matched = (await this.bank.linesByIds(tenant, [lineId]))[0].matches.map((m) => m.receipt);
    await this.lockReceipts(tenant, matched);
    const [row] = await this.txHost.tx.query<UnmatchRow[]>(
      UNMATCH_SQL,
      unmatchParams({
        tenantId: tenant.tenantId,
        lineId,
        actor: tenant.actor,
        reason: body.reason,
      }),
    );
    await this.realisedChanged(tenant, row.unrealised);
    await this.recordLine(tenant, 'bank-line.unmatched', lineId);
    for (const receipt of await this.receipts.loadByIds(tenant, row.unrealised)) {
      this.outbox.record('receipt.unrealised', receipt);
    }
    return this.bank.line(tenant, lineId);
  }

  /** POST /bank-lines/{id}/ignore: bank interest, charges; never matched. */
  async ignore(
    tenant: TenantContext,
    lineId: string,
    body: BankLineReasonRequest,
  ): Promise<BankLineDetailView> {
    const line = await this.lockLine(tenant, lineId);
    if (line.status === 'MATCHED') {
      throw LINE_NOT_MATCHABLE.error(lineId, 'it is MATCHED; unmatch it first');
    }
    if (line.status === 'IGNORED') throw LINE_NOT_MATCHABLE.error(lineId, 'it is IGNORED');
    await this.txHost.tx.query(
      IGNORE_SQL,
      unmatchParams({
        tenantId: tenant.tenantId,
        lineId,
        actor: tenant.actor,
        reason: body.reason,
      }),
    );
    await this.recordLine(tenant, 'bank-line.ignored', lineId);
    return this.bank.line(tenant, lineId);
  }

  private async lockLine(tenant: TenantContext, lineId: string): Promise<LockedLineRow> {
    const [line] = await this.txHost.tx.query<LockedLineRow[]>(
      LOCK_LINE_SQL,
      lineLockParams({ tenantId: tenant.tenantId, lineId }),
    );
    if (!line) throw BANK_LINE_NOT_FOUND.error(lineId);
    return line;
  }

  private async lockReceipts(
    tenant: TenantContext,
    ids: string[],
  ): Promise<Map<string, LockedReceiptRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.txHost.tx.query<LockedReceiptRow[]>(
      LOCK_RECEIPTS_SQL,
      receiptsLockParams({ tenantId: tenant.tenantId, ids }),
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * realisedOn is searchable: a change to it moves the receipt status version, so cached search
   * totals that filter on it are recounted (receipts/search/exact-counts.ts). Last lock taken.
   */
  private async realisedChanged(tenant: TenantContext, receipts: string[]): Promise<void> {
    if (receipts.length === 0) return;
    await this.receipts.markChanged(tenant, { receiptStatus: true, demandStatus: false });
  }

  private async recordLine(
    tenant: TenantContext,
    type: 'bank-line.matched' | 'bank-line.unmatched' | 'bank-line.ignored',
    lineId: string,
  ): Promise<void> {
    const [line] = await this.bank.linesByIds(tenant, [lineId]);
    this.outbox.record(type, line);
  }
}
