import { types } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { InitialSchema1763776800000 } from '../../migrations/1763776800000-InitialSchema';
import { ReceiptSearchVersions1763863200000 } from '../../migrations/1763863200000-ReceiptSearchVersions';
import { Housekeeping1764000000000 } from '../../migrations/1764000000000-Housekeeping';
import { IncrementalCounts1764200000000 } from '../../migrations/1764200000000-IncrementalCounts';
import { CountIndexes1764200000001 } from '../../migrations/1764200000001-CountIndexes';
import { KeywordSearch1764300000000 } from '../../migrations/1764300000000-KeywordSearch';
import { SearchIndexUpkeep1764400000000 } from '../../migrations/1764400000000-SearchIndexUpkeep';
import { StatusChanges1764500000000 } from '../../migrations/1764500000000-StatusChanges';
import { DemandBookingSearch1764600000000 } from '../../migrations/1764600000000-DemandBookingSearch';
import { Events1764700000000 } from '../../migrations/1764700000000-Events';
import { EventRetention1764800000000 } from '../../migrations/1764800000000-EventRetention';
import { Webhooks1764900000000 } from '../../migrations/1764900000000-Webhooks';
import { TdsAndInterest1765024000000 } from '../../migrations/1765024000000-TdsAndInterest';
import { ReceiptsLeftActive1765050000000 } from '../../migrations/1765050000000-ReceiptsLeftActive';
import { Interest1765100000000 } from '../../migrations/1765100000000-Interest';
import { BankStatements1765200000000 } from '../../migrations/1765200000000-BankStatements';
import { BankMatching1765300000000 } from '../../migrations/1765300000000-BankMatching';
import { AnalyzeGrant1765400000000 } from '../../migrations/1765400000000-AnalyzeGrant';
import { BankLinesAmountPaise1765450000000 } from '../../migrations/1765450000000-BankLinesAmountPaise';
import { SecretsAtRest1765500000000 } from '../../migrations/1765500000000-SecretsAtRest';
import { RateLimitBudgets1765520000000 } from '../../migrations/1765520000000-RateLimitBudgets';
import { Letters1765530000000 } from '../../migrations/1765530000000-Letters';
import { BookingKeywordSearch1765550000000 } from '../../migrations/1765550000000-BookingKeywordSearch';
import { TenantWalks1765550000001 } from '../../migrations/1765550000001-TenantWalks';
import { BankReferenceKeyLeakproof1765560000000 } from '../../migrations/1765560000000-BankReferenceKeyLeakproof';
import { ReceiptAmountPaise1765570000000 } from '../../migrations/1765570000000-ReceiptAmountPaise';
import { NamesOnPaper1765580000000 } from '../../migrations/1765580000000-NamesOnPaper';
import { GstDocumentNumbers1765620000000 } from '../../migrations/1765620000000-GstDocumentNumbers';
import { GstSettings1765630000000 } from '../../migrations/1765630000000-GstSettings';
import { DemandTax1765640000000 } from '../../migrations/1765640000000-DemandTax';
import { QueueStartGrant1765650000000 } from '../../migrations/1765650000000-QueueStartGrant';
import { Cancellations1765670000000 } from '../../migrations/1765670000000-Cancellations';
import { RealisationHotUpdate1765671000000 } from '../../migrations/1765671000000-RealisationHotUpdate';
import { SeedDeferredIndexes1765672000000 } from '../../migrations/1765672000000-SeedDeferredIndexes';
import { Books1765680000000 } from '../../migrations/1765680000000-Books';

// `date` columns stay 'YYYY-MM-DD' strings: a JS Date would shift them by the server's zone.
types.setTypeParser(types.builtins.DATE, (value: string) => value);

/** Migration classes are listed, not globbed, so the same list works from ts-jest and dist. */
export const MIGRATIONS = [
  InitialSchema1763776800000,
  ReceiptSearchVersions1763863200000,
  Housekeeping1764000000000,
  IncrementalCounts1764200000000,
  CountIndexes1764200000001,
  KeywordSearch1764300000000,
  SearchIndexUpkeep1764400000000,
  StatusChanges1764500000000,
  DemandBookingSearch1764600000000,
  Events1764700000000,
  EventRetention1764800000000,
  Webhooks1764900000000,
  TdsAndInterest1765024000000,
  ReceiptsLeftActive1765050000000,
  Interest1765100000000,
  BankStatements1765200000000,
  BankMatching1765300000000,
  AnalyzeGrant1765400000000,
  BankLinesAmountPaise1765450000000,
  SecretsAtRest1765500000000,
  RateLimitBudgets1765520000000,
  Letters1765530000000,
  BookingKeywordSearch1765550000000,
  TenantWalks1765550000001,
  BankReferenceKeyLeakproof1765560000000,
  ReceiptAmountPaise1765570000000,
  NamesOnPaper1765580000000,
  GstDocumentNumbers1765620000000,
  GstSettings1765630000000,
  DemandTax1765640000000,
  QueueStartGrant1765650000000,
  Cancellations1765670000000,
  RealisationHotUpdate1765671000000,
  SeedDeferredIndexes1765672000000,
  Books1765680000000,
];

export function dataSourceOptions(
  url: string,
  poolSize = 10,
  connectTimeoutMs = 3000,
  // Entity classes come from the composition root (AppModule): this folder knows no feature.
  entities: DataSourceOptions['entities'] = [],
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'all',
    synchronize: false,
    // Migrations own the schema; gen_random_uuid() is built in. Left on, TypeORM runs CREATE
    // EXTENSION "uuid-ossp" on every connect, which the application role may not do.
    installExtensions: false,
    logging: false,
    extra: {
      max: poolSize,
      // Covers both a new connection and waiting for a free one: a dead database fails fast
      // (503 DATABASE_UNAVAILABLE) instead of holding requests until the client gives up.
      connectionTimeoutMillis: connectTimeoutMs,
      application_name: 'finance-service',
      // Dates as YYYY-MM-DD and timestamps in UTC whatever the server's or role's defaults are.
      options: '-c DateStyle=ISO,YMD -c TimeZone=UTC',
    },
  };
}
