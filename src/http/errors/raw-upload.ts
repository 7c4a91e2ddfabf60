import express, { type RequestHandler } from 'express';

/**
 * Reads the body of `POST <path>` as raw bytes, whatever its Content-Type (a file upload:
 * the content decides what it is), up to `limit` bytes after Content-Encoding is decoded (413
 * above, through bodyParserErrors). Mounted before the JSON parser, which then skips the request;
 * requestBodyGuard lets the Buffer through. Every other request is untouched.
 */
export function rawUpload(path: RegExp, limit: number): RequestHandler {
  const parser = express.raw({ type: () => true, limit, inflate: true });
  return (req, res, next) =>
    req.method === 'POST' && path.test(req.path) ? parser(req, res, next) : next();
}
