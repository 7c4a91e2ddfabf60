import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';

/** Interest forgiven to a payer of a booking (POST /bookings/{id}/interest-waivers). */
export class InterestWaiverView {
  @ApiProperty({
    description: 'Waiver identifier.',
    format: 'uuid',
    example: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
  })
  id: string;
  @ApiProperty({
    description: 'The booking whose interest is waived (an extension: events carry it too).',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({
    description: 'The payer whose interest is waived.',
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({ description: 'How much interest is forgiven.', type: MoneyView })
  amount: MoneyView;
  @ApiProperty({ description: 'Why.', example: 'Possession delayed by the developer' })
  reason: string;
  @ApiProperty({
    description: "The day it was waived (the tenant's calendar).",
    format: 'date',
    example: '2026-11-26',
  })
  waivedOn: string;
  @ApiProperty({
    description: 'Who waived it (preferred_username, else sub).',
    example: 'arjun.mehta',
  })
  waivedBy: string;
}
