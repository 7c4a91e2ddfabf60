import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError, MAX_FIELD_ERRORS } from '@/common/app-error';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** class-validator failures become one 400 problem listing every field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors).map((e) =>
        e.message.startsWith('property ') && e.message.endsWith('should not exist')
          ? { field: e.field, message: 'unknown field' }
          : e,
      );
      return AppError.validation(
        fieldErrors,
        `The request is not valid: ${fieldErrors
          .slice(0, MAX_FIELD_ERRORS)
          .map((e) => `${e.field}: ${e.message}`)
          .join('; ')}${fieldErrors.length > MAX_FIELD_ERRORS ? '; …' : ''}`,
      );
    },
  });
}
