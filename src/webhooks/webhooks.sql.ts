/**
 * Every statement on `webhook_subscriptions` and `webhook_deliveries`, with its row types and
 * parameter builders: managing subscriptions (in the request's tenant transaction) and delivering
 * to them (on the webhook pool, in the batch transaction, and the dispatcher's due lists).
 */

// ---------------------------------------------------------------------------------------------
// Subscriptions

/** A webhook_subscriptions row as selected by WEBHOOK_COLUMNS. */
export interface WebhookRow {
  id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  delivered_sequence: string;
  failing_attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  created_by: string;
  updated_at: Date;
}

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP = '24 hours';

export const WEBHOOK_COLUMNS = `id, url, event_types, description, enabled, disabled_reason, disabled_at,
  delivered_sequence::text AS delivered_sequence, failing_attempts, next_attempt_at, last_error,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END
    AS previous_secret_expires_at,
  created_at, created_by, updated_at`;

/** Serialises concurrent creates of one tenant for the limit check (transaction-scoped). */
export const LOCK_TENANT_SUBSCRIPTIONS_SQL = `SELECT pg_advisory_xact_lock(hashtextextended($1, 8))`;

export const lockTenantSubscriptionsParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

export const COUNT_SUBSCRIPTIONS_SQL = `SELECT count(*)::int AS count FROM webhook_subscriptions
 WHERE tenant_id = $1 AND deleted_at IS NULL`;

export const countSubscriptionsParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

/**
 * A new subscription receives the events written from now on: the cursor starts at the tenant's
 * last sequence (replays of the past are what GET /events is for).
 */
export const INSERT_SUBSCRIPTION_SQL = `INSERT INTO webhook_subscriptions
       (tenant_id, id, url, event_types, description, secret, delivered_sequence, created_by)
VALUES ($1, $2, $3, $4, $5, $6,
        COALESCE((SELECT last_sequence FROM event_sequences WHERE tenant_id = $1), 0), $7)
RETURNING ${WEBHOOK_COLUMNS}`;

/** `id`: chosen before the insert, since the sealed secret is bound to it. */
export const insertSubscriptionParams = (p: {
  tenantId: string;
  id: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  sealedSecret: Buffer;
  createdBy: string;
}): unknown[] => [
  p.tenantId,
  p.id,
  p.url,
  p.eventTypes,
  p.description,
  p.sealedSecret,
  p.createdBy,
];

export const LIST_SUBSCRIPTIONS_SQL = `SELECT ${WEBHOOK_COLUMNS} FROM webhook_subscriptions
 WHERE tenant_id = $1 AND deleted_at IS NULL
 ORDER BY created_at, id`;

export const listSubscriptionsParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

export const SUBSCRIPTION_BY_ID_SQL = `SELECT ${WEBHOOK_COLUMNS} FROM webhook_subscriptions
 WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`;

export const subscriptionByIdParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];

/**
 * A change of any of url, event types, description and enabled (null: unchanged). Re-enabling
 * clears the failure state: the first undelivered event is tried at once.
 */
export const UPDATE_SUBSCRIPTION_SQL = `WITH changed AS (UPDATE webhook_subscriptions SET
   url = COALESCE($3::text, url),
   event_types = COALESCE($4::text[], event_types),
   description = CASE WHEN $5::boolean THEN $6::text ELSE description END,
   enabled = COALESCE($7::boolean, enabled),
   disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason
                          WHEN $7 THEN NULL ELSE 'DISABLED_BY_USER' END,
   disabled_at = CASE WHEN $7 IS NULL THEN disabled_at
                      WHEN $7 THEN NULL ELSE COALESCE(disabled_at, now()) END,
   failing_attempts = CASE WHEN $7 AND NOT enabled THEN 0 ELSE failing_attempts END,
   next_attempt_at = CASE WHEN $7 AND NOT enabled THEN NULL ELSE next_attempt_at END,
   updated_at = now()
 WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
 RETURNING *)
SELECT ${WEBHOOK_COLUMNS} FROM changed`;

/** `description`: undefined keeps it, null clears it. The other fields: null keeps them. */
export const updateSubscriptionParams = (p: {
  tenantId: string;
  id: string;
  url: string | null;
  eventTypes: string[] | null;
  description: string | null | undefined;
  enabled: boolean | null;
}): unknown[] => [
  p.tenantId,
  p.id,
  p.url,
  p.eventTypes,
  p.description !== undefined,
  p.description ?? null,
  p.enabled,
];

/** Deliveries stop; the subscription and its delivery log are kept, out of sight. */
export const DELETE_SUBSCRIPTION_SQL = `WITH deleted AS (
  UPDATE webhook_subscriptions SET deleted_at = now(), enabled = false, updated_at = now()
   WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
   RETURNING id)
SELECT id FROM deleted`;

export const deleteSubscriptionParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];

/** The new secret signs from now on; the previous one too, for ROTATION_OVERLAP. */
export const ROTATE_SECRET_SQL = `WITH rotated AS (UPDATE webhook_subscriptions SET
   previous_secret = secret,
   previous_secret_expires_at = now() + interval '${ROTATION_OVERLAP}',
   secret = $3,
   updated_at = now()
 WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
 RETURNING *)
SELECT ${WEBHOOK_COLUMNS} FROM rotated`;

export const rotateSecretParams = (p: {
  tenantId: string;
  id: string;
  sealedSecret: Buffer;
}): unknown[] => [p.tenantId, p.id, p.sealedSecret];

/** A subscription whose secrets are not all under the current key, for secrets:rotate. */
export interface SecretsToResealRow {
  id: string;
  secret: Buffer;
  /** Null when there is none, or when it has expired (it no longer signs: dropped, not re-sealed). */
  previous_secret: Buffer | null;
}

/**
 * The next subscriptions (any, deleted too) with a secret sealed under another key than $2 (the
 * current key's id: bytes 2 to 9 of a sealed value), locked until the re-sealed values are
 * written. $1 tenant, $3 how many.
 */
export const SECRETS_TO_RESEAL_SQL = `SELECT id, secret,
       CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret
  FROM webhook_subscriptions
 WHERE tenant_id = $1
   AND (substring(secret FROM 2 FOR 8) <> $2
        OR substring(previous_secret FROM 2 FOR 8) <> $2)
 ORDER BY id
 LIMIT $3
 FOR UPDATE`;

export const secretsToResealParams = (p: {
  tenantId: string;
  keyId: Buffer;
  limit: number;
}): unknown[] => [p.tenantId, p.keyId, p.limit];

/** The re-sealed secrets of SECRETS_TO_RESEAL_SQL's rows, in one statement. */
export const RESEAL_SECRETS_SQL = `UPDATE webhook_subscriptions s
   SET secret = r.secret, previous_secret = r.previous_secret
  FROM unnest($2::uuid[], $3::bytea[], $4::bytea[]) AS r(id, secret, previous_secret)
 WHERE s.tenant_id = $1 AND s.id = r.id`;

export const resealSecretsParams = (p: {
  tenantId: string;
  ids: string[];
  secrets: Buffer[];
  previousSecrets: (Buffer | null)[];
}): unknown[] => [p.tenantId, p.ids, p.secrets, p.previousSecrets];

/** A webhook_deliveries row as DELIVERIES_PAGE_SQL selects it. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  event_sequence: string;
  event_type: string;
  attempt: number;
  outcome: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: Date;
  next_retry_at: Date | null;
}

export const DELIVERIES_PAGE_SQL = `SELECT id::text AS id, event_id, event_sequence::text AS event_sequence, event_type, attempt,
       outcome, status_code, duration_ms, error, attempted_at, next_retry_at
  FROM webhook_deliveries
 WHERE tenant_id = $1 AND subscription_id = $2 AND id > $3::bigint
 ORDER BY webhook_deliveries.id LIMIT $4`;

export const deliveriesPageParams = (p: {
  tenantId: string;
  subscriptionId: string;
  after: number;
  limit: number;
}): unknown[] => [p.tenantId, p.subscriptionId, String(p.after), p.limit];

// ---------------------------------------------------------------------------------------------
// Delivery

/** A subscription with events to deliver, as the dispatcher queues it. */
export interface DueSubscriptionRow {
  tenant_id: string;
  subscription_id: string;
}

/** Which subscriptions a dispatch round looks at: all, or those of tenants that just committed. */
export type DueScope = { all: true } | { tenantIds: string[] };

const ALL_DUE_SQL = 'SELECT tenant_id, subscription_id FROM webhook_due_subscriptions()';

const TENANTS_DUE_SQL = `SELECT d.tenant_id, d.subscription_id
  FROM unnest($1::uuid[]) AS t(id), LATERAL webhook_due_subscriptions(t.id) d`;

/** The statement and parameters listing the due subscriptions of `scope`. */
export function dueSubscriptionsQuery(scope: DueScope): { sql: string; params: unknown[] } {
  return 'all' in scope
    ? { sql: ALL_DUE_SQL, params: [] }
    : { sql: TENANTS_DUE_SQL, params: [scope.tenantIds] };
}

/**
 * First statement of a delivery transaction: the tenant for row-level security, bounded waits,
 * and the subscription's transaction-scoped advisory lock. Whoever holds it is the only one
 * delivering for that subscription, on any instance, until it commits; the others skip it. A
 * transaction lock (not a session one) works through a transaction-mode pooler.
 */
export const LOCK_SUBSCRIPTION_SQL = `SELECT set_config('app.tenant_id', $1, true),
       set_config('statement_timeout', $3, true),
       set_config('idle_in_transaction_session_timeout', $4, true),
       pg_try_advisory_xact_lock(hashtextextended($2, 9)) AS locked`;

export const lockSubscriptionParams = (p: {
  tenantId: string;
  subscriptionId: string;
  statementTimeoutMs: number;
  idleTimeoutMs: number;
}): unknown[] => [
  p.tenantId,
  p.subscriptionId,
  `${p.statementTimeoutMs}ms`,
  `${p.idleTimeoutMs}ms`,
];

/** The subscription, and one of the next events after its cursor (null columns: none). */
export interface BatchRow {
  url: string;
  event_types: string[];
  /** Sealed (webhook-secrets.ts). */
  secret: Buffer;
  previous_secret: Buffer | null;
  delivered_sequence: string;
  failing_attempts: number;
  due: boolean;
  event_id: string | null;
  sequence: string | null;
  type: string | null;
  occurred_at: Date | null;
  actor: string | null;
  data: string | null;
}

/**
 * The subscription and the next events after its cursor, from one snapshot: if it was deleted
 * or disabled before these events committed, they are not delivered.
 */
export const BATCH_SQL = `SELECT s.url, s.event_types, s.secret,
       CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret,
       s.delivered_sequence::text AS delivered_sequence, s.failing_attempts,
       (s.enabled AND s.deleted_at IS NULL
         AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= now())) AS due,
       e.id AS event_id, e.sequence::text AS sequence, e.type, e.occurred_at, e.actor,
       e.data::text AS data
  FROM webhook_subscriptions s
  LEFT JOIN LATERAL (
    SELECT id, sequence, type, occurred_at, actor, data FROM events
     WHERE tenant_id = s.tenant_id AND sequence > s.delivered_sequence
     ORDER BY sequence LIMIT $3) e ON true
 WHERE s.tenant_id = $1 AND s.id = $2
   AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = s.tenant_id AND t.active)
 ORDER BY e.sequence`;

export const batchParams = (p: {
  tenantId: string;
  subscriptionId: string;
  maxEvents: number;
}): unknown[] => [p.tenantId, p.subscriptionId, p.maxEvents];

/** One attempt as RECORD_BATCH_SQL stores it (a webhook_deliveries row). */
export interface AttemptRecord {
  event_id: string;
  event_sequence: number;
  event_type: string;
  attempt: number;
  outcome: 'SUCCEEDED' | 'RETRYING' | 'FAILED';
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: string;
  next_retry_at: string | null;
}

/** The attempts of a batch and where the subscription stands, in one statement. */
export const RECORD_BATCH_SQL = `WITH attempts AS (
  INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_sequence, event_type,
         attempt, outcome, status_code, duration_ms, error, attempted_at, next_retry_at)
  SELECT $1, $2, a.event_id, a.event_sequence, a.event_type, a.attempt, a.outcome, a.status_code,
         a.duration_ms, a.error, a.attempted_at, a.next_retry_at
    FROM json_to_recordset($3::json) AS a(event_id uuid, event_sequence bigint, event_type text,
         attempt integer, outcome text, status_code integer, duration_ms integer, error text,
         attempted_at timestamptz, next_retry_at timestamptz)
  RETURNING 1)
UPDATE webhook_subscriptions SET
       delivered_sequence = $4::bigint,
       failing_attempts = $5,
       next_attempt_at = $6::timestamptz,
       last_error = $7,
       enabled = enabled AND NOT $8,
       disabled_reason = CASE WHEN $8 THEN 'FAILING' ELSE disabled_reason END,
       disabled_at = CASE WHEN $8 THEN now() ELSE disabled_at END
 WHERE tenant_id = $1 AND id = $2`;

/** `disable`: the last attempt of the schedule failed; the subscription is disabled (FAILING). */
export const recordBatchParams = (p: {
  tenantId: string;
  subscriptionId: string;
  attempts: AttemptRecord[];
  cursor: number;
  failingAttempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  disable: boolean;
}): unknown[] => [
  p.tenantId,
  p.subscriptionId,
  JSON.stringify(p.attempts),
  String(p.cursor),
  p.failingAttempts,
  p.nextAttemptAt,
  p.lastError,
  p.disable,
];
