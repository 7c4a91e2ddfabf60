import { ParseUUIDPipe } from '@nestjs/common';
import { AppError } from './app-error';

/** A path id that is not a UUID is a 400 naming the parameter. */
export const uuidPipe = (name: string) =>
  new ParseUUIDPipe({
    exceptionFactory: () =>
      AppError.validation(
        [{ field: name, message: `${name} must be a UUID` }],
        `${name} must be a UUID.`,
      ),
  });
