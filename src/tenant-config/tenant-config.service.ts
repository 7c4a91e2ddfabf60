import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { DEFAULT_NUMBERING, DOCUMENT_TYPES } from '@/numbering/number-pattern';
import { formatLocalDate } from '@/common/dates/local-date';
import { NumberingService } from '@/numbering/numbering.service';
import { TenantConfigurationInput } from './dto/tenant-configuration.request';
import {
  ConfigurationPreview,
  ConfigurationVersion,
  TenantConfigurationView,
} from './dto/tenant-configuration.view';
import { CONFIGURATION_CHANGED, CONFIGURATION_NOT_FOUND } from './tenant-config.errors';
import { RAISE_COUNTER_SQL, raiseCounterParams } from './tenant-config.sql';
import {
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
    const next = pickSettings(input);
    const changes = SETTINGS_FIELDS.filter((f) => current[f] !== next[f]).map((field) => ({
      field,
      from: current[field],
      to: next[field],
    }));
    if (changes.length === 0) return { view: before, etag: etagOf(before) };

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
    const candidate = pickSettings(input);
    const today = this.clock.todayFields(tenant);
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
