import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

export class FieldErrorView {
  @ApiProperty({ example: 'filters[0].query' }) field: string;
  @ApiProperty({ example: 'not a valid UUID' }) message: string;
}

/** The problem+json body every error uses (RFC 9457 plus code and traceId). */
export class ProblemView {
  @ApiProperty({ example: 'https://errors.finance-service.dev/validation-failed' }) type: string;
  @ApiProperty({ example: 'Bad Request' }) title: string;
  @ApiProperty({ example: 400 }) status: number;
  @ApiProperty({ example: 'The request is not valid: amount: amount must not be less than 0.01' })
  detail: string;
  @ApiProperty({ example: '/receipts' }) instance: string;
  @ApiProperty({ example: 'VALIDATION_FAILED' }) code: string;
  @ApiProperty({ example: '5f2b8c1e-7a8d-4c1b-9a55-0c9d2e7f1a23' }) traceId: string;
  @ApiPropertyOptional({ type: [FieldErrorView] }) errors?: FieldErrorView[];
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
