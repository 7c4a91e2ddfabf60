import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError, MAX_FIELD_ERRORS, defineProblem } from '@/common/app-error';

/**
 * The one 400 VALIDATION_FAILED: bodies (the pipe below), query parameters (each route's parser)
 * and path ids all answer it, so a client reads one wording.
 */
export const VALIDATION_FAILED = defineProblem({
  status: 400,
  code: 'VALIDATION_FAILED',
  detail: (problems: string) => `The request is not valid: ${problems}.`,
  example: ['amount must not be less than 0.01'],
});

/** Each message starts with the full path of its field, so it reads alone (in `detail` too). */
function named({ field, message }: FieldError): FieldError {
  const own = field.slice(field.lastIndexOf('.') + 1);
  if (message.startsWith(`${field} `)) return { field, message };
  if (message.startsWith(`${own} `)) return { field, message: field + message.slice(own.length) };
  return { field, message: `${field} ${message}` };
}

/** 400 VALIDATION_FAILED listing every field error, each message naming its field. */
export function validationFailed(errors: FieldError[]): AppError {
  const fieldErrors = errors.map(named);
  const shown = fieldErrors.slice(0, MAX_FIELD_ERRORS).map((e) => e.message);
  if (fieldErrors.length > MAX_FIELD_ERRORS) shown.push('…');
  return VALIDATION_FAILED.errorWith({ errors: fieldErrors }, shown.join('; '));
}

/** Rewordings of class-validator's defaults that read badly. */
const REWORDED: Record<string, (field: string) => string> = {
  arrayUnique: (field) => `${field} must not list the same value twice`,
  whitelistValidation: (field) => `${field} is an unknown field`,
};

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const constraints = Object.entries(e.constraints ?? {});
    const messages = constraints.map(([name, message]) => REWORDED[name]?.(field) ?? message);
    // A missing field fails every constraint it has (length, range, ...); only its absence
    // matters, said by a rule's own "is required" message when it has one.
    const missing = e.value === undefined && !e.constraints?.whitelistValidation;
    const required = messages.filter((m) => m.includes(' is required'));
    const own = (
      missing && messages.length > 0
        ? required.length > 0
          ? required
          : [`${field} is required`]
        : messages
    ).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Bodies declared as a DTO class are JSON objects; anything else is refused before validation. */
class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.type === 'body' && typeof metadata.metatype === 'function';
    const builtIn = [Object, Array, String, Number, Boolean] as unknown[];
    // No body at all is validated as before (an empty object); only a body of another shape is refused.
    if (
      dto &&
      !builtIn.includes(metadata.metatype) &&
      value !== undefined &&
      !isJsonObject(value)
    ) {
      throw validationFailed([{ field: 'body', message: 'body must be a JSON object' }]);
    }
    return super.transform(value, metadata);
  }
}

const isJsonObject = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** class-validator failures become one 400 problem listing every field. */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => validationFailed(flatten(errors)),
  });
}
