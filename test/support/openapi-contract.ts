import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

/** The committed openapi.json, and checks of live responses against it. */
export class OpenApiContract {
  readonly document = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'),
  ) as { paths: Record<string, Record<string, Operation>> };

  /** Every (operation, status) a check has seen, for the coverage assertions. */
  readonly seen = new Map<string, Set<number>>();

  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    // OpenAPI 3.0 schemas are JSON Schema plus `nullable`, `example`, `readOnly`...: Ajv knows
    // `nullable`; strict mode off lets it ignore the annotation keywords.
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...this.document, $id: 'openapi.json' });
  }

  operations(): string[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
  }

  /**
   * Fails unless `res` is documented for `operation` ("POST /receipts/{id}/cancel"): its status
   * is declared, its content type is the declared one and its body matches the declared schema.
   */
  check(operation: string, res: Response): void {
    const [method, path] = operation.split(' ');
    const op = this.document.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${operation} is not in openapi.json`);
    const where = `${operation} answered ${res.status} ${JSON.stringify(res.body)}`;
    const response = op.responses[String(res.status)];
    if (!response) throw new Error(`${where}: status ${res.status} is not documented`);
    const declared = Object.keys(response.content ?? {});
    const actual = String(res.headers['content-type'] ?? '').split(';')[0];
    if (declared.length === 0) {
      if (res.text) throw new Error(`${where}: no body is documented`);
    } else if (!declared.includes(actual)) {
      throw new Error(`${where}: content type ${actual}, documented ${declared.join(', ')}`);
    }
    const schema = response.content?.[actual]?.schema as { format?: string } | undefined;
    if (schema?.format === 'binary') {
      // A file (CSV, XLSX, PDF): the media type is the contract; its content has tests of its own.
      if (res.status >= 300) throw new Error(`${where}: a file documented for an error`);
    } else if (declared.length > 0) {
      const pointer = [
        'paths',
        path,
        method.toLowerCase(),
        'responses',
        String(res.status),
        'content',
        actual,
        'schema',
      ]
        .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      const validate = this.validator(`openapi.json#/${pointer}`);
      // supertest parses JSON only; a text body (metrics) is validated as the string it is.
      if (!validate(actual === 'text/plain' ? res.text : res.body)) {
        throw new Error(
          `${where}: body does not match the schema: ${this.ajv.errorsText(validate.errors)}`,
        );
      }
    }
    const statuses = this.seen.get(operation) ?? new Set<number>();
    statuses.add(res.status);
    this.seen.set(operation, statuses);
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}
