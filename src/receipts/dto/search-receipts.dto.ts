import { ApiProperty } from '@nestjs/swagger';

/** One element of the search body (documentation only: the body is parsed by search-request). */
export class SearchFilterDto {
  @ApiProperty({
    description:
      'Field to filter on: id, demandSplit, demand, booking, payerType, paymentMode, status, receiptNumber, transactionRef, amount, receivedDate, demandSplitMeta.payerId (payerId), demandSplitMeta.demandSplitNumber (demandSplitNumber), demandSplitMeta.status, demandMeta.unit (unit), demandMeta.milestone (milestone), demandMeta.demandType (demandType), demandMeta.demandNumber (demandNumber), demandMeta.dueDate, demandMeta.status, demandMeta.buyerName (buyerName), keyword.',
    example: 'paymentMode',
    maxLength: 64,
  })
  field: string;

  @ApiProperty({
    description:
      'Value, parsed by the field type (UUID, YYYY-MM-DD, decimal, enum, text). BETWEEN takes "a,b" (inclusive); IN / NOT_IN a comma-separated list (at most 100). Ignored by IS_NULL / IS_NOT_NULL.',
    example: 'NEFT,RTGS',
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
