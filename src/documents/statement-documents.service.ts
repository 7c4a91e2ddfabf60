import { Injectable } from '@nestjs/common';
import { renderStatementPdf, StatementDocumentInput } from './statement-pdf';

/** The printed statement of account, for the feature that serves it (statements). */
@Injectable()
export class StatementDocumentsService {
  /** The A4 PDF's bytes (statement-pdf.ts). */
  pdf(input: StatementDocumentInput): Promise<Buffer> {
    return renderStatementPdf(input);
  }
}
