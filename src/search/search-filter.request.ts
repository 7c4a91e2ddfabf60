import { ApiProperty } from '@nestjs/swagger';

/**
 * The operator and value of one element of a search body (documentation only: bodies are parsed
 * by search-request.ts). Each resource adds its own `field` with its catalogue's names.
 */
export class SearchFilterBaseDto {
  @ApiProperty({
    description:
      'Value, parsed by the field type (UUID, YYYY-MM-DD, decimal, enum, text). BETWEEN takes "a,b" (inclusive); IN / NOT_IN a comma-separated list (at most 100). Ignored by IS_NULL / IS_NOT_NULL.',
    example: 'PENDING,PARTIALLY_PAID',
    maxLength: 200,
    required: false,
  })
  query?: string;

  @ApiProperty({
    description:
      'Operator (case-insensitive): EQUALS (eq, is, =), NOT_EQUALS (ne, !=), CONTAINS (like, ilike), NOT_CONTAINS, STARTS_WITH, ENDS_WITH, GT, GTE, LT, LTE, BETWEEN, IN, NOT_IN, IS_NULL, IS_NOT_NULL. Each field type admits only the operators that make sense for it.',
    example: 'IN',
  })
  type: string;
}
