import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@/common/app-error';
import { unsupportedContentEncoding } from '@/http/errors/request-body-guard';

/** Errors body-parser raises before any route runs (they carry a `type`). */
interface BodyParserError {
  type?: string;
  code?: unknown;
}

/**
 * Express error middleware placed right after the body parser: turns its failures into
 * AppErrors with stable codes before Nest would flatten them into a generic 400.
 */
export function bodyParserErrors(
  err: unknown,
  req: Request,
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
      return next(unsupportedContentEncoding());
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
      // zlib failures (Z_DATA_ERROR, Z_BUF_ERROR, brotli ERR_*) carry a code and no type.
      if (isDecodeFailure(err, req)) {
        return next(
          AppError.badRequest(
            'BODY_ENCODING_INVALID',
            `The request body cannot be decoded as Content-Encoding: ${req.headers['content-encoding']}.`,
          ),
        );
      }
      return next(err);
  }
}

function isDecodeFailure(err: unknown, req: Request): boolean {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  const e = err as BodyParserError | undefined;
  return (
    !(err instanceof AppError) &&
    encoding !== undefined &&
    encoding !== 'identity' &&
    e?.type === undefined &&
    typeof e?.code === 'string'
  );
}
