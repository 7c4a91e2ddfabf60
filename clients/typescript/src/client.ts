/**
 * A tiny typed client for the finance service: openapi-fetch over the types that
 * openapi-typescript generates from the repository's openapi.json (`src/schema.d.ts`).
 * Every call is checked against the document: paths, path/query parameters, bodies and
 * response shapes. Errors come back as `{ error }` holding the problem+json body.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type Schemas = components['schemas'];

export interface FinanceClientOptions {
  /** For example http://localhost:3000 */
  baseUrl: string;
  /** Bearer JWT; locally `npm run -s token -- --tenant demo`. */
  token: string;
  /** Tenant key sent as x-tenant-id (must be in the token's tenant claim). */
  tenant: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export function createFinanceClient(options: FinanceClientOptions) {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Both headers on every request (the service needs both on every route but /health/*).
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${options.token}`);
      request.headers.set('x-tenant-id', options.tenant);
      return request;
    },
  };
  client.use(auth);
  return client;
}

export type FinanceClient = ReturnType<typeof createFinanceClient>;

/** A fresh Idempotency-Key: send one per logical write and reuse it only to retry that write. */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
