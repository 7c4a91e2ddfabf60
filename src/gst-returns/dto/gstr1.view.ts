import { ApiProperty } from '@nestjs/swagger';

/**
 * GET /gst/gstr1's JSON, described for the OpenAPI document: the GST portal's offline-tool layout
 * (keys as the portal and India Compliance's GSTR-1 export write them). Amounts are JSON numbers
 * with at most two decimals, rates are percent numbers (7.5), dates dd-mm-yyyy. A section with
 * nothing in it is left out.
 */

export class Gstr1ItemDetailView {
  @ApiProperty({
    description: 'Combined rate in percent (CGST + SGST): 7.5, 1.5 or 18.',
    example: 7.5,
  })
  rt: number;
  @ApiProperty({ description: 'Taxable value (after the land deduction).', example: 1333333.33 })
  txval: number;
  @ApiProperty({ description: "IGST: always 0 (the flat is in the supplier's state).", example: 0 })
  iamt: number;
  @ApiProperty({ description: 'CGST.', example: 50000 })
  camt: number;
  @ApiProperty({ description: 'SGST.', example: 50000 })
  samt: number;
  @ApiProperty({ description: 'Cess: always 0.', example: 0 })
  csamt: number;
}

export class Gstr1ItemView {
  @ApiProperty({
    description: 'Item number, from 1 within the document (one item per rate).',
    example: 1,
  })
  num: number;
  @ApiProperty({ description: 'The item.', type: Gstr1ItemDetailView })
  itm_det: Gstr1ItemDetailView;
}

export class Gstr1B2bInvoiceView {
  @ApiProperty({ description: 'Invoice number.', example: 'INV/26-27/00003' })
  inum: string;
  @ApiProperty({ description: 'Invoice date, dd-mm-yyyy.', example: '10-10-2026' })
  idt: string;
  @ApiProperty({ description: 'Invoice value: the gross (consideration + tax).', example: 2100000 })
  val: number;
  @ApiProperty({ description: 'Place of supply: two-digit state code.', example: '27' })
  pos: string;
  @ApiProperty({ description: 'Reverse charge: always N.', enum: ['N'], example: 'N' })
  rchrg: string;
  @ApiProperty({ description: 'Invoice type: R (regular).', enum: ['R'], example: 'R' })
  inv_typ: string;
  @ApiProperty({ description: 'One item per rate.', type: [Gstr1ItemView] })
  itms: Gstr1ItemView[];
}

export class Gstr1B2bView {
  @ApiProperty({ description: "The recipient's GSTIN.", example: '29AAGCB7383J1Z4' })
  ctin: string;
  @ApiProperty({
    description: 'Its invoices of the period, by date and number.',
    type: [Gstr1B2bInvoiceView],
  })
  inv: Gstr1B2bInvoiceView[];
}

export class Gstr1B2csView {
  @ApiProperty({
    description: 'Supply type: INTRA (always intra-state).',
    enum: ['INTRA'],
    example: 'INTRA',
  })
  sply_ty: string;
  @ApiProperty({ description: 'Place of supply: two-digit state code.', example: '27' })
  pos: string;
  @ApiProperty({ description: 'OE (not through e-commerce).', enum: ['OE'], example: 'OE' })
  typ: string;
  @ApiProperty({ description: 'Combined rate in percent.', example: 7.5 })
  rt: number;
  @ApiProperty({
    description:
      "Taxable value of the period's invoices to recipients without a GSTIN, less its credit notes to them (may be negative).",
    example: 272611.88,
  })
  txval: number;
  @ApiProperty({ description: 'IGST: always 0.', example: 0 })
  iamt: number;
  @ApiProperty({ description: 'CGST, net of credit notes.', example: 10222.95 })
  camt: number;
  @ApiProperty({ description: 'SGST, net of credit notes.', example: 10222.95 })
  samt: number;
  @ApiProperty({ description: 'Cess: always 0.', example: 0 })
  csamt: number;
}

export class Gstr1NoteView {
  @ApiProperty({ description: 'Note type: C (credit).', enum: ['C'], example: 'C' })
  ntty: string;
  @ApiProperty({ description: 'Credit note number.', example: 'CRN/26-27/00001' })
  nt_num: string;
  @ApiProperty({ description: 'Credit note date, dd-mm-yyyy.', example: '28-10-2026' })
  nt_dt: string;
  @ApiProperty({ description: "The note's value (consideration + tax).", example: 630000 })
  val: number;
  @ApiProperty({ description: 'Place of supply: two-digit state code.', example: '27' })
  pos: string;
  @ApiProperty({ description: 'Reverse charge: always N.', enum: ['N'], example: 'N' })
  rchrg: string;
  @ApiProperty({ description: 'Invoice type: R (regular).', enum: ['R'], example: 'R' })
  inv_typ: string;
  @ApiProperty({ description: 'One item per rate.', type: [Gstr1ItemView] })
  itms: Gstr1ItemView[];
}

export class Gstr1CdnrView {
  @ApiProperty({ description: "The recipient's GSTIN.", example: '29AAGCB7383J1Z4' })
  ctin: string;
  @ApiProperty({ description: 'Its credit notes of the period.', type: [Gstr1NoteView] })
  nt: Gstr1NoteView[];
}

export class Gstr1NilRowView {
  @ApiProperty({
    description: 'INTRAB2C: intra-state, to unregistered persons.',
    enum: ['INTRAB2C'],
    example: 'INTRAB2C',
  })
  sply_ty: string;
  @ApiProperty({ description: 'Exempted supplies: always 0.', example: 0 })
  expt_amt: number;
  @ApiProperty({ description: 'Nil-rated supplies: always 0.', example: 0 })
  nil_amt: number;
  @ApiProperty({
    description:
      'Non-GST supplies: the consideration of the untaxed demands of EXEMPT bookings dated in the period.',
    example: 500000,
  })
  ngsup_amt: number;
}

export class Gstr1NilView {
  @ApiProperty({ description: 'One row.', type: [Gstr1NilRowView] })
  inv: Gstr1NilRowView[];
}

export class Gstr1HsnRowView {
  @ApiProperty({ description: 'Row number, from 1 within its list.', example: 1 })
  num: number;
  @ApiProperty({ description: 'The SAC.', example: '995411' })
  hsn_sc: string;
  @ApiProperty({
    description: 'What the SAC is (at most 30 characters).',
    example: 'Residential construction',
  })
  desc: string;
  @ApiProperty({ description: 'Unit: NA (a service).', enum: ['NA'], example: 'NA' })
  uqc: string;
  @ApiProperty({ description: 'Quantity: 0 (a service).', example: 0 })
  qty: number;
  @ApiProperty({ description: 'Combined rate in percent.', example: 7.5 })
  rt: number;
  @ApiProperty({ description: 'Taxable value, net of credit notes.', example: 1333333.33 })
  txval: number;
  @ApiProperty({ description: 'IGST: always 0.', example: 0 })
  iamt: number;
  @ApiProperty({ description: 'CGST, net of credit notes.', example: 50000 })
  camt: number;
  @ApiProperty({ description: 'SGST, net of credit notes.', example: 50000 })
  samt: number;
  @ApiProperty({ description: 'Cess: always 0.', example: 0 })
  csamt: number;
}

export class Gstr1HsnView {
  @ApiProperty({
    description:
      'Per (SAC, rate): invoices and credit notes to recipients with a GSTIN. Left out when empty.',
    type: [Gstr1HsnRowView],
    required: false,
  })
  hsn_b2b?: Gstr1HsnRowView[];
  @ApiProperty({
    description:
      'Per (SAC, rate): the rest (recipients without a GSTIN), net of credit notes. Left out when empty.',
    type: [Gstr1HsnRowView],
    required: false,
  })
  hsn_b2c?: Gstr1HsnRowView[];
}

export class Gstr1DocRangeView {
  @ApiProperty({ description: 'Row number, from 1 within its nature of document.', example: 1 })
  num: number;
  @ApiProperty({
    description: 'The lowest number of the series issued in the period.',
    example: 'INV/26-27/00002',
  })
  from: string;
  @ApiProperty({ description: 'The highest.', example: 'INV/26-27/00005' })
  to: string;
  @ApiProperty({ description: 'How many of the series are dated in the period.', example: 4 })
  totnum: number;
  @ApiProperty({
    description: 'Cancelled: always 0 (a credit note undoes an invoice).',
    example: 0,
  })
  cancel: number;
  @ApiProperty({ description: 'totnum - cancel.', example: 4 })
  net_issue: number;
}

export class Gstr1DocDetView {
  @ApiProperty({
    description: 'Nature of document: 1 invoices for outward supply, 5 credit notes.',
    enum: [1, 5],
    example: 1,
  })
  doc_num: number;
  @ApiProperty({ description: 'One range per numbering series.', type: [Gstr1DocRangeView] })
  docs: Gstr1DocRangeView[];
}

export class Gstr1DocIssueView {
  @ApiProperty({
    description: 'Invoices, then credit notes (each only when some were issued).',
    type: [Gstr1DocDetView],
  })
  doc_det: Gstr1DocDetView[];
}

export class Gstr1View {
  @ApiProperty({
    description:
      "The tenant's GSTIN (from the GST settings; else the documents'); null when it has none.",
    nullable: true,
    type: String,
    example: '27AAPFU0939F1ZV',
  })
  gstin: string | null;
  @ApiProperty({ description: 'The return period, MMYYYY.', example: '102026' })
  fp: string;
  @ApiProperty({
    description: 'Table 4A: invoices to recipients with a GSTIN, by GSTIN. Left out when empty.',
    type: [Gstr1B2bView],
    required: false,
  })
  b2b?: Gstr1B2bView[];
  @ApiProperty({
    description:
      'Table 7: the other invoices per (place of supply, rate), net of credit notes to recipients without a GSTIN. Left out when empty.',
    type: [Gstr1B2csView],
    required: false,
  })
  b2cs?: Gstr1B2csView[];
  @ApiProperty({
    description:
      'Table 9B: credit notes to recipients with a GSTIN, by GSTIN. Left out when empty.',
    type: [Gstr1CdnrView],
    required: false,
  })
  cdnr?: Gstr1CdnrView[];
  @ApiProperty({
    description: 'Table 8: non-GST supplies. Left out when there are none.',
    type: Gstr1NilView,
    required: false,
  })
  nil?: Gstr1NilView;
  @ApiProperty({
    description: 'Table 12: the HSN (SAC) summary, B2B and B2C apart. Left out when empty.',
    type: Gstr1HsnView,
    required: false,
  })
  hsn?: Gstr1HsnView;
  @ApiProperty({
    description: 'Table 13: documents issued, per numbering series. Left out when none were.',
    type: Gstr1DocIssueView,
    required: false,
  })
  doc_issue?: Gstr1DocIssueView;
}
