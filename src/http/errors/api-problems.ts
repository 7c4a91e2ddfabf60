import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type { ProblemDefinition } from '@/common/app-error';

export class FieldErrorView {
  @ApiProperty({
    description: 'Path of the offending input (body field, query parameter or header).',
    example: 'filters[0].query',
  })
  field: string;
  @ApiProperty({ description: 'What is wrong with it.', example: 'not a valid UUID' })
  message: string;
}

/** The problem+json body every error uses (RFC 9457 plus code and traceId). */
export class ProblemView {
  @ApiProperty({
    description: 'URI identifying the problem type.',
    example: 'https://errors.finance-service.dev/validation-failed',
  })
  type: string;
  @ApiProperty({ description: 'Short summary of the HTTP status.', example: 'Bad Request' })
  title: string;
  @ApiProperty({ description: 'HTTP status code.', type: 'integer', example: 400 }) status: number;
  @ApiProperty({
    description: 'Human-readable explanation of this occurrence.',
    example: 'The request is not valid: amount must not be less than 0.01.',
  })
  detail: string;
  @ApiProperty({ description: 'The request path.', example: '/receipts' }) instance: string;
  @ApiProperty({ description: 'Stable machine-readable error code.', example: 'VALIDATION_FAILED' })
  code: string;
  @ApiProperty({
    description: 'Request id, also in the service log (send X-Request-Id to set it).',
    example: '5f2b8c1e-7a8d-4c1b-9a55-0c9d2e7f1a23',
  })
  traceId: string;
  @ApiPropertyOptional({
    description: 'Field-level problems of a validation error.',
    type: [FieldErrorView],
  })
  errors?: FieldErrorView[];
  @ApiPropertyOptional({
    description: '`errors` lists at most 50 entries; how many more there were.',
    type: 'integer',
    example: 12,
  })
  errorsTruncated?: number;
}

const PROBLEMS: Record<
  number,
  { title: string; description: string; code: string; detail: string }
> = {
  400: {
    title: 'Bad Request',
    description: 'Invalid input; `errors` names each offending field or parameter.',
    code: 'VALIDATION_FAILED',
    detail: 'The request is not valid: amount must not be less than 0.01.',
  },
  401: {
    title: 'Unauthorized',
    description: 'Missing, malformed, expired, not-yet-valid or badly signed bearer token.',
    code: 'UNAUTHENTICATED',
    detail: 'A valid bearer token is required.',
  },
  403: {
    title: 'Forbidden',
    description:
      'Unknown or inactive tenant, a tenant the token does not grant, or a missing scope.',
    code: 'TENANT_FORBIDDEN',
    detail: 'The token does not grant access to this tenant.',
  },
  404: {
    title: 'Not Found',
    description: 'Not found (also for ids that belong to another tenant).',
    code: 'NOT_FOUND',
    detail: 'Not found.',
  },
  409: {
    title: 'Conflict',
    description: 'Conflicts with the current state.',
    code: 'CONFLICT',
    detail: 'The request conflicts with the current state.',
  },
  412: {
    title: 'Precondition Failed',
    description: '`If-Match` does not match the current `ETag`.',
    code: 'CONFIGURATION_CHANGED',
    detail:
      'The configuration changed since it was read (If-Match does not match the current ETag); GET it again and retry.',
  },
  413: {
    title: 'Content Too Large',
    description: 'The body (after decompression) is larger than the configured limit.',
    code: 'PAYLOAD_TOO_LARGE',
    detail: 'The request body is larger than 1mb.',
  },
  415: {
    title: 'Unsupported Media Type',
    description:
      'The body is not `application/json`, or its `Content-Encoding` is not gzip, deflate or br.',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    detail: 'Send the body as application/json.',
  },
  422: {
    title: 'Unprocessable Content',
    description: 'Well-formed, but breaks a business rule.',
    code: 'UNPROCESSABLE',
    detail: 'The request breaks a business rule.',
  },
  429: {
    title: 'Too Many Requests',
    description: 'Over the rate limit; retry after the `Retry-After` delay.',
    code: 'RATE_LIMITED',
    detail: 'Too many requests; retry later.',
  },
  503: {
    title: 'Service Unavailable',
    description:
      'The database is unavailable or busy, or the service is shutting down; nothing was saved. Retry after the `Retry-After` delay.',
    code: 'DATABASE_UNAVAILABLE',
    detail:
      'The database is unreachable, starting or stopping; nothing was saved. Retry after the Retry-After delay.',
  },
};

/** Statuses documented on every operation of a kind (see `addStandardProblems`). */
export const STANDARD_PROBLEMS = {
  all: [400],
  authenticated: [401, 403, 429, 503],
  withBody: [413, 415],
} as const;

/** A status with the code and detail of this operation's example (defaults per status). */
export interface ProblemExample {
  status: number;
  code: string;
  detail: string;
}

/** What a route documents as one of its errors: a status, an example, or a feature's definition. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- definitions of any arity
export type DocumentedProblem = number | ProblemExample | ProblemDefinition<any>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

function exampleOf(problem: DocumentedProblem): ProblemExample {
  if (typeof problem === 'number') {
    const known = PROBLEMS[problem];
    return {
      status: problem,
      code: known?.code ?? `HTTP_${problem}`,
      detail: known?.detail ?? 'Error.',
    };
  }
  if ('example' in problem) {
    const detail = problem.detail as (...args: unknown[]) => string;
    const example = problem.example as unknown[];
    return { status: problem.status, code: problem.code, detail: detail(...example) };
  }
  return problem;
}

function problemBody(example: ProblemExample, instance: string): object {
  return {
    type: `https://errors.finance-service.dev/${example.code.toLowerCase().replace(/_/g, '-')}`,
    title: PROBLEMS[example.status]?.title ?? 'Error',
    status: example.status,
    detail: example.detail,
    instance,
    code: example.code,
    traceId: '5f2b8c1e-7a8d-4c1b-9a55-0c9d2e7f1a23',
    // The generic 400 shows a field error; a feature's own 400 shows its detail alone.
    ...(example.status === 400 && example.detail === PROBLEMS[400].detail
      ? { errors: [{ field: 'amount', message: 'amount must not be less than 0.01' }] }
      : {}),
  };
}

/**
 * The OpenAPI response of one error status: problem+json with an example of each documented
 * code (one `example`, or named `examples` when a status has several codes).
 */
export function problemResponse(
  problems: DocumentedProblem | DocumentedProblem[],
  instance = '/receipts',
): { description: string; content: Record<string, object> } {
  const examples = (Array.isArray(problems) ? problems : [problems]).map(exampleOf);
  const status = examples[0].status;
  const known = PROBLEMS[status];
  const codes = [...new Set(examples.map((e) => e.code))];
  const description =
    examples.length > 1 || (known && codes[0] !== known.code)
      ? `${known?.description ?? 'Error.'} Codes: ${codes.join(', ')}.`
      : (known?.description ?? 'Error.');
  const schema = { $ref: '#/components/schemas/ProblemView' };
  return {
    description,
    content: {
      [PROBLEM_CONTENT_TYPE]:
        examples.length === 1
          ? { schema, example: problemBody(examples[0], instance) }
          : {
              schema,
              examples: Object.fromEntries(
                examples.map((e) => [e.code, { value: problemBody(e, instance) }]),
              ),
            },
    },
  };
}

/**
 * Error responses of one operation, beyond the standard ones every operation of its kind gets,
 * grouped by status. A bare status uses the generic example; a feature's ProblemDefinition (or
 * `{ status, code, detail }`) shows this operation's own.
 */
export const ApiProblems = (...problems: DocumentedProblem[]) => {
  const byStatus = new Map<number, DocumentedProblem[]>();
  for (const problem of problems) {
    const status = exampleOf(problem).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), problem]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, group]) => ApiResponse({ status, ...problemResponse(group) })),
  );
};

/** `409 NUMBERING_EXHAUSTED, 422 IDEMPOTENCY_KEY_REUSED`: the codes, for an operation's prose. */
export const problemCodes = (problems: readonly DocumentedProblem[]): string =>
  problems
    .map(exampleOf)
    .map((e) => `${e.status} ${e.code}`)
    .join(', ');
