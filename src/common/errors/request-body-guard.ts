import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

export const MAX_BODY_DEPTH = 32;

/**
 * Checks a parsed JSON body without recursion: at most MAX_BODY_DEPTH levels of nesting and no
 * NUL character in any string or key (PostgreSQL text cannot hold one). Returns the problem.
 */
export function bodyProblem(body: unknown): string | null {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'a string contains a NUL (\\u0000) character';
    } else if (value !== null && typeof value === 'object') {
      if (depth > MAX_BODY_DEPTH) return `the body is nested deeper than ${MAX_BODY_DEPTH} levels`;
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return 'a property name contains a NUL (\\u0000) character';
        stack.push([child, depth + 1]);
      }
    }
  }
  return null;
}

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Runs after the JSON body parser. A body in another media type is refused (415) instead of being
 * silently ignored; an empty body is "no body" even when sent with Content-Type: application/json
 * (body-parser would hand over `{}`); a JSON body that is too deep or holds NUL characters is 400.
 */
export function requestBodyGuard(req: Request, _res: Response, next: NextFunction): void {
  if (!hasBody(req)) {
    req.body = undefined;
    return next();
  }
  if (!req.is(['application/json', 'application/*+json'])) {
    return next(
      new AppError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported Media Type',
        'Request bodies must be JSON (Content-Type: application/json).',
      ),
    );
  }
  const problem = bodyProblem(req.body);
  return next(
    problem
      ? AppError.badRequest('INVALID_BODY', `The request body is not accepted: ${problem}.`)
      : undefined,
  );
}
