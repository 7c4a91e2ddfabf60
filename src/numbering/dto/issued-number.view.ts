import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_TYPES, DocumentType } from '../number-pattern';

export class IssuedNumberView {
  @ApiProperty({
    description: 'The document type the number was issued for.',
    enum: DOCUMENT_TYPES,
    example: 'snag',
  })
  documentType: DocumentType;
  @ApiProperty({
    description: 'The number issued; never issued again.',
    example: 'SNG/26-27/00007',
  })
  number: string;
}
