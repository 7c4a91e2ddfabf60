/** One field-level problem, reported in the `errors` array of a problem+json body. */
export interface FieldError {
  field: string;
  message: string;
}

/** `errors` lists at most this many entries, plus `errorsTruncated` (docs/api.md, Errors). */
export const MAX_FIELD_ERRORS = 50;

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  422: 'Unprocessable Content',
  503: 'Service Unavailable',
};

/** The RFC 9110 reason phrase a problem+json `title` carries for `status`. */
const titleOf = (status: number): string => STATUS_TITLES[status] ?? 'Error';

/**
 * A failure the client can act on. The global problem filter turns it into an RFC 9457
 * application/problem+json body; `code` is stable and documented, `detail` is for humans.
 */
export class AppError extends Error {
  readonly errors?: FieldError[];
  /** How many field errors were left out of `errors` (absent when none were). */
  readonly errorsTruncated?: number;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
    if (errors) {
      this.errors = errors.slice(0, MAX_FIELD_ERRORS);
      if (errors.length > MAX_FIELD_ERRORS) this.errorsTruncated = errors.length - MAX_FIELD_ERRORS;
    }
  }

  static badRequest(code: string, detail: string, errors?: FieldError[]): AppError {
    return new AppError(400, code, titleOf(400), detail, errors);
  }

  static validation(errors: FieldError[], detail = 'The request is not valid.'): AppError {
    return new AppError(400, 'VALIDATION_FAILED', titleOf(400), detail, errors);
  }

  static notFound(code: string, detail: string): AppError {
    return new AppError(404, code, titleOf(404), detail);
  }

  static conflict(code: string, detail: string): AppError {
    return new AppError(409, code, titleOf(409), detail);
  }

  static unprocessable(code: string, detail: string, errors?: FieldError[]): AppError {
    return new AppError(422, code, titleOf(422), detail, errors);
  }

  static preconditionFailed(code: string, detail: string): AppError {
    return new AppError(412, code, titleOf(412), detail);
  }
}

/**
 * One error a feature answers, declared once in its `<feature>.errors.ts`: services throw
 * `DEFINITION.error(...)`, and the route's documentation (`@Route({ problems })`) shows
 * `DEFINITION.detail(...example)`, so the documented and the thrown text cannot drift.
 */
export interface ProblemDefinition<A extends unknown[] = never[]> {
  readonly status: number;
  readonly code: string;
  readonly detail: (...args: A) => string;
  /** The arguments of the documented example. */
  readonly example: A;
  /** The error to throw for this occurrence (field errors for a 400 or 422 that has them). */
  error(...args: A): AppError;
  /** The same, with field errors or response headers. */
  errorWith(
    extra: { errors?: FieldError[]; headers?: Record<string, string> },
    ...args: A
  ): AppError;
}

export function defineProblem<A extends unknown[]>(definition: {
  status: number;
  code: string;
  detail: (...args: A) => string;
  example: A;
}): ProblemDefinition<A> {
  const title = titleOf(definition.status);
  return {
    ...definition,
    error: (...args: A) =>
      new AppError(definition.status, definition.code, title, definition.detail(...args)),
    errorWith: (extra, ...args: A) =>
      new AppError(
        definition.status,
        definition.code,
        title,
        definition.detail(...args),
        extra.errors,
        extra.headers,
      ),
  };
}
