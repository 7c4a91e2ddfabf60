import { ApiProperty } from '@nestjs/swagger';

export class BankAccountView {
  @ApiProperty({
    description: 'Bank account id.',
    format: 'uuid',
    example: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  id: string;

  @ApiProperty({
    description: 'What the desk calls it.',
    example: 'HDFC collections (Skyline Heights)',
  })
  name: string;

  @ApiProperty({
    description: 'The account number, masked but its last four characters.',
    example: 'XXXXXXXXXX5678',
  })
  accountNumber: string;

  @ApiProperty({
    description: 'Branch IFSC.',
    example: 'HDFC0001234',
    nullable: true,
    type: String,
  })
  ifsc: string | null;

  @ApiProperty({ description: 'ISO 4217 code.', example: 'INR' })
  currency: string;

  @ApiProperty({
    description:
      'The account buyers pay into (at most one per currency): demand letters print it, number in full, as where to pay.',
    example: true,
  })
  collection: boolean;

  @ApiProperty({
    description: 'When it was added.',
    format: 'date-time',
    example: '2026-11-22T10:15:30.123Z',
  })
  created: string;
}

export class BankAccountList {
  @ApiProperty({ type: [BankAccountView], description: 'Oldest first.' })
  accounts: BankAccountView[];
}
