import { Injectable } from '@nestjs/common';
import { XlsxRecord, XlsxSheet, xlsxBytes } from './xlsx-sheet';

/**
 * The export's XLSX writer, for features that serve a file of their own (the statement of
 * account): one worksheet with typed cells (xlsx-sheet.ts), as the receipt export writes it.
 */
@Injectable()
export class SpreadsheetsService {
  /** One worksheet as the bytes of an .xlsx file (for sheets small enough to hold in memory). */
  xlsx(sheet: XlsxSheet, rows: Iterable<XlsxRecord>): Promise<Buffer> {
    return xlsxBytes(sheet, rows);
  }
}
