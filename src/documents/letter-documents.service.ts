import { Injectable } from '@nestjs/common';
import { LetterDocumentInput, renderLetterPdf } from './letter-pdf';

/** The printed demand letter, for the feature that serves it (letters). */
@Injectable()
export class LetterDocumentsService {
  /** The A4 PDF's bytes (letter-pdf.ts). */
  pdf(input: LetterDocumentInput): Promise<Buffer> {
    return renderLetterPdf(input);
  }
}
