import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

/** Errors body-parser raises before any route runs (they carry a `type`). */
interface BodyParserError {
  type?: string;
}

/**
 * Express error middleware placed right after the body parser: turns its failures into
 * AppErrors with stable codes before Nest would flatten them into a generic 400.
 */
export function bodyParserErrors(
  err: unknown,
  _req: Request,
  _res: Response,
  next: NextFunction,
): void {
  switch ((err as BodyParserError)?.type) {
    case 'entity.parse.failed':
      return next(AppError.badRequest('MALFORMED_JSON', 'The request body is not valid JSON.'));
    case 'entity.too.large':
      return next(
        new AppError(
          413,
          'PAYLOAD_TOO_LARGE',
          'Content Too Large',
          'The request body is larger than allowed.',
        ),
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return next(
        new AppError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Unsupported Media Type',
          'The request body encoding is not supported.',
        ),
      );
    default:
      return next(err);
  }
}
