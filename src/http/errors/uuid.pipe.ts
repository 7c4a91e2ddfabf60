import { ParseUUIDPipe, PipeTransform } from '@nestjs/common';
import { validationFailed } from './validation';

/**
 * A path id that is not a UUID is a 400 naming the parameter. Valid ids are lower-cased, the
 * form PostgreSQL returns, so an id sent in upper case finds the same record.
 */
export const uuidPipe = (name: string): PipeTransform<string, Promise<string>> => {
  const parse = new ParseUUIDPipe({
    exceptionFactory: () => validationFailed([{ field: name, message: `${name} must be a UUID` }]),
  });
  return {
    transform: async (value, metadata) => (await parse.transform(value, metadata)).toLowerCase(),
  };
};
