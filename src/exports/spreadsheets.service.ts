import { Injectable } from '@nestjs/common';
import { XlsxRecord, XlsxSheet, XlsxSheetRows, xlsxBytes, xlsxWorkbookBytes } from './xlsx-sheet';

/**
 * The export's XLSX writer, for features that serve a file of their own (the statement of
 * account, GSTR-1): worksheets with typed cells (xlsx-sheet.ts), as the receipt export writes them.
 */
@Injectable()
export class SpreadsheetsService {
  /** One worksheet as the bytes of an .xlsx file (for sheets small enough to hold in memory). */
  xlsx(sheet: XlsxSheet, rows: Iterable<XlsxRecord>): Promise<Buffer> {
    return xlsxBytes(sheet, rows);
  }

  /** Several worksheets, in the order given, as the bytes of one .xlsx file. */
  workbook(sheets: readonly XlsxSheetRows[]): Promise<Buffer> {
    return xlsxWorkbookBytes(sheets);
  }
}
