import { Module } from '@nestjs/common';
import { ReceiptExportController } from './receipt-export.controller';
import { ReceiptExportService } from './receipt-export.service';
import { SpreadsheetsService } from './spreadsheets.service';

/**
 * Files of receipts (CSV, XLSX), streamed on a database pool of their own; and the XLSX writer
 * for other features' files.
 */
@Module({
  controllers: [ReceiptExportController],
  providers: [ReceiptExportService, SpreadsheetsService],
  exports: [SpreadsheetsService],
})
export class ExportsModule {}
