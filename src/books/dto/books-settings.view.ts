import { ApiProperty } from '@nestjs/swagger';

export class BooksLedgersView {
  @ApiProperty({
    description: 'Income of CONSTRUCTION demands (credited by Sales, debited by credit notes).',
    example: 'Sales - Construction',
  })
  construction: string;

  @ApiProperty({ description: 'Income of OTHER_CHARGES demands.', example: 'Other Charges' })
  otherCharges: string;

  @ApiProperty({
    description: 'Income of INTEREST demands.',
    example: 'Interest on Delayed Payment',
  })
  interest: string;

  @ApiProperty({ description: 'Output CGST of invoices and credit notes.', example: 'Output CGST' })
  cgst: string;

  @ApiProperty({ description: 'Output SGST of invoices and credit notes.', example: 'Output SGST' })
  sgst: string;

  @ApiProperty({ description: 'Debited by TDS receipts.', example: 'TDS Receivable u/s 194-IA' })
  tds: string;

  @ApiProperty({
    description: 'Debited by the interest paid with a refund.',
    example: 'Interest on Refunds',
  })
  refundInterest: string;

  @ApiProperty({
    description: 'Debited by GST that can no longer be credited (time-barred invoices).',
    example: 'GST Written Off',
  })
  gstNotRecoverable: string;

  @ApiProperty({
    description:
      'Debited by non-cash receipts not realised into a bank account, credited by refunds when there is no collection account.',
    example: 'Bank',
  })
  bank: string;

  @ApiProperty({
    description: 'Debited by CASH receipts, credited by CASH refunds.',
    example: 'Cash',
  })
  cash: string;
}

/** The tenant's books settings as GET and PUT return them. */
export class BooksSettingsView {
  @ApiProperty({
    description: "The Tally company the vouchers are for (default: the tenant's name).",
    example: 'Skyline Developers Private Limited',
  })
  company: string;
  @ApiProperty({
    description: "Template of each booking's party ledger name.",
    example: '{buyerName} ({bookingNumber})',
  })
  partyLedger: string;
  @ApiProperty({ description: 'The group of the party ledgers.', example: 'Sundry Debtors' })
  partyGroup: string;
  @ApiProperty({ description: 'The ledgers vouchers post to.', type: BooksLedgersView })
  ledgers: BooksLedgersView;
}
