import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiOperation } from '@nestjs/swagger';
import { Public, RequireScopes, Scope } from '@/http/auth/auth.decorators';
import { ApiProblems, DocumentedProblem, problemCodes } from '@/http/errors/api-problems';
import { IDEMPOTENCY_PROBLEMS } from '@/http/idempotency/idempotency.errors';
import { Idempotent } from '@/http/idempotency/idempotency.interceptor';
import { ReplicaRead } from '@/platform/replicas/read-replicas';

/**
 * The operation's required scopes in the OpenAPI document. An extension rather than the bearer
 * requirement's list: OpenAPI 3.0 allows scopes there only for oauth2 and openIdConnect schemes.
 * docs/api.md's route table is generated from it (src/cli/route-table.ts).
 */
export const SCOPES_EXTENSION = 'x-scopes';

export interface RouteOptions {
  summary: string;
  /** What the operation does; its errors are appended from `problems`. */
  description?: string;
  /**
   * Scopes the token must carry, or `'public'`: no token, no tenant, no transaction. A public
   * controller also needs `@ApiPublic()` on its class: @nestjs/swagger drops an empty security
   * list set on a method, so the document would still ask for a token.
   */
  scopes: readonly Scope[] | 'public';
  /**
   * This operation's own errors beyond the standard ones (400, 401, 403, 413, 415, 429, 503 are
   * added to every operation of their kind): the feature's ProblemDefinitions, so what is
   * documented is what is thrown.
   */
  problems?: readonly DocumentedProblem[];
  /**
   * Honours an Idempotency-Key (and documents it, with 422 IDEMPOTENCY_KEY_REUSED).
   * `secretFields`: top-level response fields that carry a secret; the stored response keeps
   * them sealed with SECRETS_KEY, never in clear, and a replay shows them again.
   */
  idempotent?: boolean | { secretFields: readonly string[] };
  /** A read a replica may serve (documents X-Consistency-Token). */
  replicaRead?: boolean;
}

/** One decorator per route: its summary, description, scopes and errors. */
export function Route(options: RouteOptions): MethodDecorator {
  const problems = [
    ...(options.problems ?? []),
    ...(options.idempotent ? IDEMPOTENCY_PROBLEMS : []),
  ];
  const errors = problems.length > 0 ? `Errors: ${problemCodes(problems)}.` : '';
  const description = [options.description, errors].filter(Boolean).join(' ');
  return applyDecorators(
    ApiOperation({ summary: options.summary, ...(description ? { description } : {}) }),
    ...(options.scopes === 'public'
      ? [Public()]
      : [RequireScopes(...options.scopes), ApiExtension(SCOPES_EXTENSION, [...options.scopes])]),
    ...(problems.length > 0 ? [ApiProblems(...problems)] : []),
    ...(options.idempotent
      ? [Idempotent(options.idempotent === true ? [] : options.idempotent.secretFields)]
      : []),
    ...(options.replicaRead ? [ReplicaRead()] : []),
  );
}
