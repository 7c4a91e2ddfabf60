import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import {
  DEFAULT_NUMBERING,
  DOCUMENT_TYPES,
  GST_DOCUMENT_TYPES,
  gstNumberingProblem,
  parsePattern,
} from '@/numbering/number-pattern';
import { formatLocalDate, LocalDate } from '@/common/dates/local-date';
import { AppError, FieldError } from '@/common/app-error';
import { NumberingService } from '@/numbering/numbering.service';
import { TenantConfigurationInput } from './dto/tenant-configuration.request';
import {
  ConfigurationPreview,
  ConfigurationVersion,
  TenantConfigurationView,
} from './dto/tenant-configuration.view';
import {
  CONFIGURATION_CHANGED,
  CONFIGURATION_NOT_FOUND,
  NUMBER_SERIES_IN_USE,
} from './tenant-config.errors';
import {
  COUNTER_BELOW_STARTING_SQL,
  CounterBelowStartingRow,
  RAISE_COUNTER_SQL,
  raiseCounterParams,
} from './tenant-config.sql';
import {
  documentFields,
  FIELD_STEM,
  NumberingSettings,
  pickSettings,
  SETTINGS_FIELDS,
} from '@/numbering/numbering-settings';
import {
  ConfigurationChangeRecord,
  TenantConfigurationHistory,
} from './tenant-configuration-history.entity';
import { TenantConfiguration } from './tenant-configuration.entity';

export type ConfigurationWithEtag = WithEtag<TenantConfigurationView>;

function defaultSettings(): NumberingSettings {
  const settings: Record<string, unknown> = {
    separator: DEFAULT_NUMBERING.separator,
    active: true,
  };
  for (const type of DOCUMENT_TYPES) {
    const d = DEFAULT_NUMBERING.documents[type];
    settings[`${FIELD_STEM[type]}NumberPrefix`] = d.prefix;
    settings[`${FIELD_STEM[type]}NumberStarting`] = d.starting;
    settings[`${FIELD_STEM[type]}NumberPattern`] = d.pattern;
  }
  return settings as unknown as NumberingSettings;
}

function toView(c: TenantConfiguration): TenantConfigurationView {
  return {
    id: c.id,
    created: c.created.toISOString(),
    createdBy: c.createdBy,
    modified: c.modified.toISOString(),
    lastModifiedBy: c.lastModifiedBy,
    ...pickSettings(c),
  };
}

/** The body's settings; the GST documents' fields it leaves out keep their `current` values. */
function mergeSettings(
  current: NumberingSettings,
  input: TenantConfigurationInput,
): NumberingSettings {
  const body = input as unknown as Partial<NumberingSettings>;
  return Object.fromEntries(
    SETTINGS_FIELDS.map((f) => [f, body[f] === undefined ? current[f] : body[f]]),
  ) as unknown as NumberingSettings;
}

/**
 * The GST documents' patterns must keep the GST rules up to their padded width with their prefix
 * and separator (400). Checked when one of those changes, so a tenant whose separator predates the
 * GST series can still change other fields.
 */
function checkGstNumbering(
  current: NumberingSettings,
  next: NumberingSettings,
  date: LocalDate,
): void {
  const errors: FieldError[] = [];
  for (const type of GST_DOCUMENT_TYPES) {
    const fields = documentFields(type);
    const shaping = [fields.prefix, fields.pattern, 'separator'] as const;
    if (shaping.every((f) => current[f] === next[f])) continue;
    const problem = gstNumberingProblem(parsePattern(next[fields.pattern] as string, type), {
      prefix: next[fields.prefix] as string,
      separator: next.separator,
      date,
    });
    if (problem) errors.push({ field: fields.pattern, message: `${fields.pattern}: ${problem}` });
  }
  if (errors.length > 0) throw AppError.validation(errors);
}

@Injectable()
export class TenantConfigService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly numbering: NumberingService,
    private readonly outbox: OutboxService,
  ) {}

  private get repo() {
    return this.txHost.tx.getRepository(TenantConfiguration);
  }

  async get(tenant: TenantContext): Promise<ConfigurationWithEtag> {
    const config = await this.load(tenant.tenantId, { forUpdate: false });
    const view = toView(config);
    return { view, etag: etagOf(view) };
  }

  async replace(
    tenant: TenantContext,
    input: TenantConfigurationInput,
    ifMatch?: string,
  ): Promise<ConfigurationWithEtag> {
    const current = await this.load(tenant.tenantId, { forUpdate: true });
    const before = toView(current);
    if (!ifMatchAllows(ifMatch, etagOf(before))) {
      throw CONFIGURATION_CHANGED.error();
    }
    const next = mergeSettings(pickSettings(current), input);
    checkGstNumbering(current, next, this.clock.todayFields(tenant));
    const changes = SETTINGS_FIELDS.filter((f) => current[f] !== next[f]).map((field) => ({
      field,
      from: current[field],
      to: next[field],
    }));
    if (changes.length === 0) return { view: before, etag: etagOf(before) };
    if (next.active) await this.refuseGappedGstSeries(tenant, current, next);

    Object.assign(current, next, {
      version: current.version + 1,
      modified: new Date(),
      lastModifiedBy: tenant.actor,
    });
    const saved = await this.repo.save(current);
    if (next.active) await this.applyRaisedStartings(tenant, changes);
    const view = toView(saved);
    await this.recordVersion(saved, view, changes);
    this.outbox.record('tenant-configuration.updated', view);
    return { view, etag: etagOf(view) };
  }

  /**
   * A raised Starting moves existing counters forward now, not at their next use, so a later
   * lowering (before any number was issued) cannot undo it. Lowering never rewinds. Called only
   * for an active configuration: an inactive one numbers with the default scheme.
   */
  private async applyRaisedStartings(
    tenant: TenantContext,
    changes: ConfigurationChangeRecord[],
  ): Promise<void> {
    for (const type of DOCUMENT_TYPES) {
      const change = changes.find((c) => c.field === `${FIELD_STEM[type]}NumberStarting`);
      if (!change || Number(change.to) <= Number(change.from)) continue;
      await this.txHost.tx.query(
        RAISE_COUNTER_SQL,
        raiseCounterParams({
          tenantId: tenant.tenantId,
          documentType: type,
          starting: String(change.to),
        }),
      );
    }
  }

  /**
   * Raising a GST series' Starting above a counter in use would skip numbers: 409. Checked when
   * the Starting changes or the configuration becomes active (an inactive one numbered with the
   * defaults, whose counters the stored Starting would move).
   */
  private async refuseGappedGstSeries(
    tenant: TenantContext,
    current: NumberingSettings,
    next: NumberingSettings,
  ): Promise<void> {
    for (const type of GST_DOCUMENT_TYPES) {
      const field = documentFields(type).starting;
      if (current[field] === next[field] && current.active) continue;
      const starting = next[field] as number;
      const [row] = await this.txHost.tx.query<CounterBelowStartingRow[]>(
        COUNTER_BELOW_STARTING_SQL,
        raiseCounterParams({
          tenantId: tenant.tenantId,
          documentType: type,
          starting: String(starting),
        }),
      );
      if (row) throw NUMBER_SERIES_IN_USE.error(field, starting, row.counterKey, row.nextValue);
    }
  }

  async history(tenant: TenantContext): Promise<ConfigurationVersion[]> {
    const rows = await this.txHost.tx
      .getRepository(TenantConfigurationHistory)
      .find({ where: { tenantId: tenant.tenantId }, order: { version: 'DESC' } });
    return rows.map((r) => ({
      version: r.version,
      changedAt: r.changedAt.toISOString(),
      changedBy: r.changedBy,
      changes: r.changes,
      configuration: r.snapshot as unknown as TenantConfigurationView,
    }));
  }

  /** Next number per document type under a candidate configuration; stores nothing. */
  async preview(
    tenant: TenantContext,
    input: TenantConfigurationInput,
  ): Promise<ConfigurationPreview> {
    const current = pickSettings(await this.load(tenant.tenantId, { forUpdate: false }));
    const candidate = mergeSettings(current, input);
    const today = this.clock.todayFields(tenant);
    checkGstNumbering(current, candidate, today);
    const documents: ConfigurationPreview['documents'] = [];
    const nextOf: Partial<Record<string, string>> = {};
    for (const type of DOCUMENT_TYPES) {
      // A parent's own preview stands in for {PARENT}.
      const parent =
        type === 'demand' ? nextOf.booking : type === 'demand-split' ? nextOf.demand : undefined;
      const { number, warnings } = await this.numbering.peek(tenant, type, candidate, {
        date: today,
        parent,
      });
      nextOf[type] = number;
      documents.push({ documentType: type, next: number, warnings });
    }
    return { date: formatLocalDate(today), active: candidate.active, documents };
  }

  /** Every tenant has a configuration from creation, with the defaults (version 1). */
  async createDefault(tenantId: string, actor: string): Promise<TenantConfiguration> {
    const now = new Date();
    const config = this.repo.create({
      tenantId,
      version: 1,
      ...defaultSettings(),
      created: now,
      createdBy: actor,
      modified: now,
      lastModifiedBy: actor,
    });
    const saved = await this.repo.save(config);
    await this.recordVersion(saved, toView(saved), []);
    return saved;
  }

  private async recordVersion(
    config: TenantConfiguration,
    view: TenantConfigurationView,
    changes: ConfigurationChangeRecord[],
  ): Promise<void> {
    const history = this.txHost.tx.getRepository(TenantConfigurationHistory);
    await history.save(
      history.create({
        tenantId: config.tenantId,
        configurationId: config.id,
        version: config.version,
        snapshot: view as unknown as Record<string, unknown>,
        changes,
        changedAt: config.modified,
        changedBy: config.lastModifiedBy,
      }),
    );
  }

  /** The tenant's configuration; `forUpdate` locks its row until commit (a replacement). */
  private async load(
    tenantId: string,
    options: { forUpdate: boolean },
  ): Promise<TenantConfiguration> {
    const config = await this.repo.findOne({
      where: { tenantId },
      ...(options.forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    // Every tenant gets one at creation; a missing row is a data problem, not the client's.
    if (!config) throw CONFIGURATION_NOT_FOUND.error();
    return config;
  }
}
