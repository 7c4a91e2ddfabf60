import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { LRUCache } from 'lru-cache';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import {
  NUMBER_ISSUED_WITH_DOCUMENT,
  NUMBERING_EXHAUSTED,
  NUMBERING_PARENT_REQUIRED,
  NUMBER_TOO_LONG,
} from './numbering.errors';
import { TenantContext } from '@/common/tenant-context';
import { documentNumbering, DocumentNumbering, NumberingSettings } from './numbering-settings';
import {
  counterKey,
  DEFAULT_NUMBERING,
  DocumentType,
  EXTERNAL_DOCUMENT_TYPES,
  fyStartMonthFor,
  GST_MAX_LENGTH,
  isGstDocumentType,
  ParsedPattern,
  numberWarnings,
  parsePattern,
  patternUsesParent,
  renderNumber,
  RenderContext,
} from './number-pattern';
import { LocalDate } from '@/common/dates/local-date';
import {
  CLAIM_NUMBER_SQL,
  claimNumberParams,
  CounterValueRow,
  NEXT_COUNTER_VALUE_SQL,
  nextCounterValueParams,
  NUMBERING_SETTINGS_SQL,
  numberingSettingsParams,
  PEEK_COUNTER_SQL,
  peekCounterParams,
} from './numbering.sql';

/** How many already-taken numbers the allocator steps over before giving up. */
const MAX_COLLISIONS = 1000;

export interface NumberRequest {
  /** The document's own date (tenant calendar). Defaults to today in the tenant's zone. */
  date?: LocalDate;
  /** The parent document's number, for {PARENT}. */
  parent?: string;
}

export interface ResolvedScheme {
  numbering: DocumentNumbering;
  separator: string;
  parsed: ParsedPattern;
}

/**
 * Issues document numbers inside the caller's transaction (the request's tenant transaction):
 * a rolled-back document consumes no number, so receipt numbers are gap-free. The counter row
 * is locked by the upsert until commit, so concurrent allocations queue rather than collide.
 */
@Injectable()
export class NumberingService {
  // Bounded: preview parses candidate patterns that may never be used again.
  private readonly patternCache = new LRUCache<string, ParsedPattern>({ max: 1000 });

  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
  ) {}

  /** A bare number for a document kept elsewhere (`POST /numbers/{documentType}`). */
  async issueForExternalDocument(
    tenant: TenantContext,
    type: DocumentType,
    request: NumberRequest,
  ): Promise<string> {
    if (!EXTERNAL_DOCUMENT_TYPES.includes(type)) {
      throw NUMBER_ISSUED_WITH_DOCUMENT.error(type, EXTERNAL_DOCUMENT_TYPES);
    }
    return this.allocate(tenant, type, request);
  }

  /**
   * The next number of a series, inside the caller's transaction: call it in the transaction
   * that writes the document (as receipts, and tax invoices, credit notes and refunds must), so a
   * rolled-back document consumes no number and the series stays gap-free. Allocate as late in
   * the transaction as possible: the counter row stays locked until commit.
   */
  async allocate(
    tenant: TenantContext,
    type: DocumentType,
    request: NumberRequest = {},
  ): Promise<string> {
    return (await this.allocateMany(tenant, type, request, 1))[0];
  }

  /** `count` consecutive numbers of one series (e.g. a demand's splits), reading the scheme once. */
  async allocateMany(
    tenant: TenantContext,
    type: DocumentType,
    request: NumberRequest,
    count: number,
  ): Promise<string[]> {
    const scheme = await this.scheme(tenant.tenantId, type);
    const ctx = this.renderContext(tenant, scheme, request);
    const numbers: string[] = [];
    for (let i = 0; i < count; i++) numbers.push(await this.next(tenant, type, scheme, ctx));
    return numbers;
  }

  /**
   * One number of each type asked for, in order, from one read of the settings (a taxed demand
   * takes its demand number and its invoice number together).
   */
  async allocateEach(
    tenant: TenantContext,
    requests: readonly { type: DocumentType; request: NumberRequest }[],
  ): Promise<string[]> {
    const [settings] = await this.txHost.tx.query<NumberingSettings[]>(
      NUMBERING_SETTINGS_SQL,
      numberingSettingsParams({ tenantId: tenant.tenantId }),
    );
    const numbers: string[] = [];
    for (const { type, request } of requests) {
      const scheme = this.schemeFrom(settings ?? null, type);
      numbers.push(
        await this.next(tenant, type, scheme, this.renderContext(tenant, scheme, request)),
      );
    }
    return numbers;
  }

  private async next(
    tenant: TenantContext,
    type: DocumentType,
    scheme: ResolvedScheme,
    ctx: RenderContext,
  ): Promise<string> {
    const key = counterKey(scheme.parsed, ctx);
    const em = this.txHost.tx;
    for (let attempt = 0; attempt < MAX_COLLISIONS; attempt++) {
      const rows = await em.query<CounterValueRow[]>(
        NEXT_COUNTER_VALUE_SQL,
        nextCounterValueParams({
          tenantId: tenant.tenantId,
          documentType: type,
          counterKey: key,
          starting: String(scheme.numbering.starting),
        }),
      );
      const number = renderNumber(scheme.parsed, ctx, BigInt(rows[0].value));
      // Thrown before the claim; the caller's rollback takes the counter back, so nothing is used.
      if (isGstDocumentType(type) && [...number].length > GST_MAX_LENGTH) {
        throw NUMBER_TOO_LONG.error(type, number, GST_MAX_LENGTH);
      }
      const issued = await em.query<unknown[]>(
        CLAIM_NUMBER_SQL,
        claimNumberParams({ tenantId: tenant.tenantId, documentType: type, number }),
      );
      // Taken already (by an older pattern that renders the same text): step over it.
      if (issued.length === 1) return number;
    }
    throw NUMBERING_EXHAUSTED.error(type, MAX_COLLISIONS);
  }

  /** The number the next document would get (and its warnings), without consuming it. */
  async peek(
    tenant: TenantContext,
    type: DocumentType,
    settings: NumberingSettings | null,
    request: NumberRequest = {},
  ): Promise<{ number: string; warnings: string[] }> {
    const scheme = this.schemeFrom(settings, type);
    const ctx = this.renderContext(tenant, scheme, request);
    const rows = await this.txHost.tx.query<CounterValueRow[]>(
      PEEK_COUNTER_SQL,
      peekCounterParams({
        tenantId: tenant.tenantId,
        documentType: type,
        counterKey: counterKey(scheme.parsed, ctx),
      }),
    );
    const starting = BigInt(scheme.numbering.starting);
    const current = rows.length > 0 ? BigInt(rows[0].value) : starting;
    const seq = current > starting ? current : starting;
    return {
      number: renderNumber(scheme.parsed, ctx, seq),
      warnings: numberWarnings(scheme.parsed, ctx, seq),
    };
  }

  private renderContext(
    tenant: TenantContext,
    scheme: ResolvedScheme,
    request: NumberRequest,
  ): RenderContext {
    return numberRenderContext(tenant, scheme, request, this.clock.todayFields(tenant));
  }

  private async scheme(tenantId: string, type: DocumentType): Promise<ResolvedScheme> {
    const [settings] = await this.txHost.tx.query<NumberingSettings[]>(
      NUMBERING_SETTINGS_SQL,
      numberingSettingsParams({ tenantId }),
    );
    return this.schemeFrom(settings ?? null, type);
  }

  private schemeFrom(settings: NumberingSettings | null, type: DocumentType): ResolvedScheme {
    return resolveScheme(settings, type, (pattern) => this.parse(pattern, type));
  }

  private parse(pattern: string, type: DocumentType): ParsedPattern {
    const cacheKey = `${type}\u0000${pattern}`;
    let parsed = this.patternCache.get(cacheKey);
    if (!parsed) {
      parsed = parsePattern(pattern, type);
      this.patternCache.set(cacheKey, parsed);
    }
    return parsed;
  }
}

/** Inactive or missing configuration falls back to the built-in default scheme. */
export function resolveScheme(
  settings: NumberingSettings | null,
  type: DocumentType,
  parse: (pattern: string) => ParsedPattern = (pattern) => parsePattern(pattern, type),
): ResolvedScheme {
  const useDefault = !settings || !settings.active;
  const numbering = useDefault
    ? DEFAULT_NUMBERING.documents[type]
    : documentNumbering(settings, type);
  const separator = useDefault ? DEFAULT_NUMBERING.separator : settings.separator;
  return { numbering: { ...numbering }, separator, parsed: parse(numbering.pattern) };
}

export function numberRenderContext(
  tenant: TenantContext,
  scheme: ResolvedScheme,
  request: NumberRequest,
  today: LocalDate,
): RenderContext {
  if (request.parent === undefined && patternUsesParent(scheme.parsed)) {
    throw NUMBERING_PARENT_REQUIRED.error(scheme.parsed.documentType, scheme.parsed.source);
  }
  return {
    prefix: scheme.numbering.prefix,
    separator: scheme.separator,
    date: request.date ?? today,
    fyStartMonth: fyStartMonthFor(scheme.parsed.documentType, tenant.fyStartMonth),
    parent: request.parent,
  };
}
