import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { defer, lastValueFrom, Observable } from 'rxjs';
import { IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_REUSED } from './idempotency.errors';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { SecretsKeyring } from '@/platform/secrets/secrets-keyring';
import { idempotencySecretsContext, sealResponse, unsealResponse } from './idempotency-secrets';
import {
  IDEMPOTENCY_FIND_SQL,
  IDEMPOTENCY_LOCK_SQL,
  IDEMPOTENCY_STORE_SQL,
  idempotencyLockKey,
} from '@/platform/idempotency/idempotency.sql';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Metadata: the top-level response fields that carry a secret (Idempotent(secretFields)). */
const SECRET_FIELDS = 'idempotency:secret-fields';
/** 1..200 printable ASCII characters (space included, control characters not). */
const KEY_FORMAT = /^[\x20-\x7e]{1,200}$/;

/** JSON with object keys sorted at every level: equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** What identifies a request for replay: method, path (no query) and canonical body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

interface StoredResponse {
  request_hash: string;
  response_status: number;
  /** The response as sent: JSON text kept in a jsonb string, so a replay is byte-identical. */
  response_body: string;
  /** Its secret fields, sealed (response_body has them as null); null: none. */
  response_secrets: Buffer | null;
}

/**
 * `Idempotency-Key` support for creating POSTs. Runs inside the request's tenant transaction
 * (the global TenantTransactionInterceptor wraps it): takes a transaction-scoped advisory lock
 * on (tenant, key) so requests with one key run one after the other; a stored response for the
 * same request is replayed and nothing is created; a stored response for another request is a
 * 422. Otherwise the handler runs and its response is stored in the same transaction, so a
 * failed request (which rolls back) stores nothing and the key can be used again. A route's
 * secret fields (POST /webhooks' `secret`) are stored sealed with SECRETS_KEY, never in clear.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
    private readonly keyring: SecretsKeyring,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return next.handle();
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!KEY_FORMAT.test(key)) {
      throw IDEMPOTENCY_KEY_INVALID.errorWith({
        errors: [{ field: 'Idempotency-Key', message: key.length === 0 ? 'empty' : 'invalid' }],
      });
    }
    const tenant = req.tenant;
    if (!tenant) throw new Error('Idempotency requires a tenant request (TenantGuard)');
    const path = (req.originalUrl ?? req.url).split('?')[0];
    const hash = requestHash(req.method, path, req.body);
    const secretFields =
      this.reflector.get<readonly string[] | undefined>(SECRET_FIELDS, context.getHandler()) ?? [];
    return defer(() => this.run(tenant.tenantId, key, hash, secretFields, res, next));
  }

  private async run(
    tenantId: string,
    key: string,
    hash: string,
    secretFields: readonly string[],
    res: Response,
    next: CallHandler,
  ): Promise<unknown> {
    const em = this.txHost.tx;
    await em.query(IDEMPOTENCY_LOCK_SQL, [idempotencyLockKey(tenantId, key)]);
    const [stored] = await em.query<StoredResponse[]>(IDEMPOTENCY_FIND_SQL, [tenantId, key]);
    if (stored) {
      if (stored.request_hash !== hash) {
        throw IDEMPOTENCY_KEY_REUSED.error();
      }
      const context = idempotencySecretsContext(tenantId, key);
      const body = unsealResponse(
        stored.response_body,
        stored.response_secrets,
        this.keyring,
        context,
      );
      res.status(stored.response_status);
      res.setHeader('Idempotent-Replayed', 'true');
      return body;
    }
    const body: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
    const { json, secrets } = sealResponse(
      body,
      secretFields,
      this.keyring,
      idempotencySecretsContext(tenantId, key),
    );
    const record = { key, hash, status: res.statusCode, body: json, secrets };
    // Written with the transaction's events, in its last statement (one round trip less).
    if (!this.outbox.deferIdempotencyRecord(record)) {
      await em.query(IDEMPOTENCY_STORE_SQL, [tenantId, key, hash, record.status, json, secrets]);
    }
    return body;
  }
}

/**
 * Makes a creating POST idempotent under the `Idempotency-Key` header (optional) and documents
 * the header. The route must be a tenant route (its transaction is where the key is stored).
 * `secretFields`: top-level fields of the response that carry a secret, stored sealed.
 */
export const Idempotent = (secretFields: readonly string[] = []) =>
  applyDecorators(
    SetMetadata(SECRET_FIELDS, secretFields),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        example: '5d0c1c7e-3b0b-4f7e-8d44-2f8a1c6e9b10',
      },
      description:
        'Optional, 1 to 200 printable ASCII characters (a UUID is a good choice). A retry with the same key, path and body returns the original status and body (with `Idempotent-Replayed: true`) and creates nothing; the same key with another body or path is 422 IDEMPOTENCY_KEY_REUSED. A request that fails stores nothing, so its key may be used again. Keys are per tenant.',
      example: '5d0c1c7e-3b0b-4f7e-8d44-2f8a1c6e9b10',
    }),
  );
