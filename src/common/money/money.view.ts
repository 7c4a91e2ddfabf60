import { ApiProperty } from '@nestjs/swagger';

export class MoneyView {
  @ApiProperty({ example: 150000.5, description: 'Exact amount, at most two decimals.' })
  amount: number;
  @ApiProperty({ example: 'INR', description: "ISO 4217 code: the tenant's currency." })
  currency: string;
  @ApiProperty({ description: "The currency's symbol.", example: '₹' })
  currencySymbol: string;
  @ApiProperty({
    example: '1,50,000.50',
    description: "Grouped per the tenant's locale, two decimals, no symbol.",
  })
  formatted: string;
}
