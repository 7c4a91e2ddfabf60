import { Module } from '@nestjs/common';
import { ReceiptExportController } from './receipt-export.controller';
import { ReceiptExportService } from './receipt-export.service';

/** Files of receipts (CSV, XLSX), streamed on a database pool of their own. */
@Module({
  controllers: [ReceiptExportController],
  providers: [ReceiptExportService],
})
export class ExportsModule {}
