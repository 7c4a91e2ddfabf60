import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { ReceiptView } from '@/receipts/dto/receipt.view';

/** One payment over many dues: its amount and the receipts it was recorded as. */
export class PaymentView {
  @ApiProperty({ description: 'The whole payment.', type: MoneyView })
  amount: MoneyView;

  @ApiProperty({
    description:
      'One receipt per split paid, in the order paid (oldest due first, or as listed), each exactly as GET /receipts/{id} returns it; they share the transactionRef.',
    type: [ReceiptView],
  })
  receipts: ReceiptView[];
}
