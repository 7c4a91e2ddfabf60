import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

export class FieldErrorView {
  @ApiProperty({
    description: 'Path of the offending input (body field, query parameter or header).',
    example: 'filters[0].query',
  })
  field: string;
  @ApiProperty({ description: 'What is wrong with it.', example: 'not a valid UUID' })
  message: string;
}

/** The problem+json body every error uses (RFC 9457 plus code and traceId). */
export class ProblemView {
  @ApiProperty({
    description: 'URI identifying the problem type.',
    example: 'https://errors.finance-service.dev/validation-failed',
  })
  type: string;
  @ApiProperty({ description: 'Short summary of the HTTP status.', example: 'Bad Request' })
  title: string;
  @ApiProperty({ description: 'HTTP status code.', example: 400 }) status: number;
  @ApiProperty({
    description: 'Human-readable explanation of this occurrence.',
    example: 'The request is not valid: amount: amount must not be less than 0.01',
  })
  detail: string;
  @ApiProperty({ description: 'The request path.', example: '/receipts' }) instance: string;
  @ApiProperty({ description: 'Stable machine-readable error code.', example: 'VALIDATION_FAILED' })
  code: string;
  @ApiProperty({
    description: 'Request id, also in the service log (send X-Request-Id to set it).',
    example: '5f2b8c1e-7a8d-4c1b-9a55-0c9d2e7f1a23',
  })
  traceId: string;
  @ApiPropertyOptional({
    description: 'Field-level problems of a validation error.',
    type: [FieldErrorView],
  })
  errors?: FieldErrorView[];
  @ApiPropertyOptional({
    description: '`errors` lists at most 50 entries; how many more there were.',
    example: 12,
  })
  errorsTruncated?: number;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (problem+json lists each field).',
  401: 'Missing, malformed, expired or badly signed token.',
  403: 'Unknown/inactive tenant, tenant not in the token, or missing scope.',
  404: 'Not found (also for ids of another tenant).',
  409: 'Conflicts with the current state.',
  412: 'If-Match does not match the current ETag.',
  413: 'Body too large.',
  422: 'Well-formed but breaks a business rule.',
  429: 'Too many requests; see Retry-After.',
};

export const ApiProblems = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        type: ProblemView,
      }),
    ),
  );
