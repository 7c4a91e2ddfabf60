import { validationFailed } from './validation';
import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@/common/app-error';

export const MAX_BODY_DEPTH = 32;
export const MAX_OBJECT_KEYS = 1000;

/** Content-Encodings the JSON parser decodes (docs/api.md, Errors); others are 415. */
export const ACCEPTED_CONTENT_ENCODINGS = new Set(['gzip', 'deflate', 'br', 'identity']);

/** What is wrong with a body: the code to answer with, the field (JSON path) and a message. */
export interface BodyProblem {
  code: 'BODY_TOO_COMPLEX' | 'VALIDATION_FAILED';
  field: string;
  message: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as given (PostgreSQL text holds neither NUL nor lone surrogates). */
export function textProblem(value: string, invalidUtf8 = false): string | null {
  if (value.includes('\u0000')) return 'contains a NUL (\\u0000) character';
  if (LONE_SURROGATE.test(value)) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
  // The raw bytes were not UTF-8: the decoder replaced them with U+FFFD; never store that.
  if (invalidUtf8 && value.includes('\uFFFD')) return 'contains bytes that are not valid UTF-8';
  return null;
}

const childPath = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/**
 * Checks a parsed JSON body without recursion: at most MAX_BODY_DEPTH levels of nesting, at most
 * MAX_OBJECT_KEYS keys in one object or items in one array (cheap to check, expensive to
 * validate), and every string and key valid Unicode without NUL. Returns the first problem.
 */
export function bodyProblem(body: unknown, invalidUtf8 = false): BodyProblem | null {
  const stack: [unknown, number, string][] = [[body, 1, '']];
  let text: BodyProblem | null = null;
  const field = (path: string) => path || '(body)';
  while (stack.length > 0) {
    const [value, depth, path] = stack.pop()!;
    if (typeof value === 'string') {
      const message: string | null = text ? null : textProblem(value, invalidUtf8);
      if (message) text = { code: 'VALIDATION_FAILED', field: field(path), message };
    } else if (value !== null && typeof value === 'object') {
      if (depth > MAX_BODY_DEPTH) {
        const message = `nested deeper than ${MAX_BODY_DEPTH} levels`;
        return { code: 'BODY_TOO_COMPLEX', field: field(path), message };
      }
      const entries = Array.isArray(value)
        ? value.map((v, i) => [i, v] as const)
        : Object.entries(value);
      if (entries.length > MAX_OBJECT_KEYS) {
        const message = `has ${entries.length} ${Array.isArray(value) ? 'items' : 'keys'}, more than ${MAX_OBJECT_KEYS}`;
        return { code: 'BODY_TOO_COMPLEX', field: field(path), message };
      }
      for (const [key, child] of entries) {
        const at = childPath(path, key);
        const message: string | null =
          typeof key === 'string' && !text ? textProblem(key, invalidUtf8) : null;
        if (message) text = { code: 'VALIDATION_FAILED', field: at, message: `name ${message}` };
        stack.push([child, depth + 1, at]);
      }
    }
  }
  // Complexity is reported first (it is checked over the whole body); then the first bad string.
  return text;
}

/** body-parser `verify` hook: remembers raw bodies that are not valid UTF-8. */
export function markInvalidUtf8(req: Request, _res: Response, buf: Buffer): void {
  if (!isUtf8(buf)) (req as Request & { invalidUtf8?: boolean }).invalidUtf8 = true;
}

/** Runs before the body parser: an encoding it does not decode is 415, not a silent pass. */
export function contentEncodingGuard(req: Request, _res: Response, next: NextFunction): void {
  const header = req.headers['content-encoding'];
  if (header === undefined) return next();
  const encoding = header.trim().toLowerCase();
  if (ACCEPTED_CONTENT_ENCODINGS.has(encoding)) return next();
  return next(unsupportedContentEncoding());
}

/** 415: a body in an encoding the service does not decode (docs/api.md, Errors). */
export function unsupportedContentEncoding(): AppError {
  return new AppError(
    415,
    'UNSUPPORTED_CONTENT_ENCODING',
    'Unsupported Media Type',
    'Content-Encoding must be one of gzip, deflate, br or identity.',
  );
}

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Runs after the JSON body parser. A body in another media type is refused (415) instead of being
 * silently ignored; an empty body is "no body" even when sent with Content-Type: application/json
 * (body-parser would hand over `{}`); a JSON body that is too deep or too wide is 400
 * BODY_TOO_COMPLEX, and one holding text that is not valid Unicode is 400 VALIDATION_FAILED,
 * both before any validation runs.
 */
export function requestBodyGuard(req: Request, _res: Response, next: NextFunction): void {
  if (!hasBody(req)) {
    req.body = undefined;
    return next();
  }
  // A file upload read as bytes by rawUpload (bank statements): its route reads it.
  if (Buffer.isBuffer(req.body)) return next();
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
  const invalidUtf8 = (req as Request & { invalidUtf8?: boolean }).invalidUtf8 === true;
  const problem = bodyProblem(req.body, invalidUtf8);
  if (!problem) return next();
  const errors = [{ field: problem.field, message: problem.message }];
  const detail = `The request body is not accepted: ${problem.field} ${problem.message}.`;
  return next(
    problem.code === 'BODY_TOO_COMPLEX'
      ? AppError.badRequest('BODY_TOO_COMPLEX', detail, errors)
      : validationFailed(errors),
  );
}
