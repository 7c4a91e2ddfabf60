import { FieldError } from '@/common/app-error';
import { STATEMENT_FORMAT_UNKNOWN, STATEMENT_LAYOUT_UNKNOWN } from './bank.errors';
import { BANK_LAYOUTS, CSV_LAYOUTS, CsvLayout, genericLayout } from './statements/csv-layouts';
import { STATEMENT_FORMATS, StatementFormat } from './statements/statement-line';
import { DATE_FORMATS, DateFormat } from './statements/values';
import { validationFailed } from '@/http/errors/validation';

/** The query of POST /bank-accounts/{id}/statements, as sent. */
export interface RawImportQuery {
  format?: unknown;
  layout?: unknown;
  columns?: unknown;
  dateFormat?: unknown;
}

export interface ImportOptions {
  /** Null: the content decides. */
  format: StatementFormat | null;
  /** The CSV layout asked for (generic built from columns= and dateFormat=); undefined: the header decides. */
  layout?: CsvLayout;
}

/**
 * Reads the import's query: an unknown format is 400 STATEMENT_FORMAT_UNKNOWN, an unknown layout
 * 400 STATEMENT_LAYOUT_UNKNOWN listing the layouts; `columns` (which implies `generic`) and
 * `dateFormat` belong to the generic layout, and a layout to CSV: anything else is 400
 * VALIDATION_FAILED naming the parameter.
 */
export function parseImportQuery(query: RawImportQuery): ImportOptions {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const format = text(query.format);
  if (format !== undefined && !(STATEMENT_FORMATS as readonly string[]).includes(format)) {
    throw STATEMENT_FORMAT_UNKNOWN.errorWith(
      { errors: [{ field: 'format', message: `must be one of ${STATEMENT_FORMATS.join(', ')}` }] },
      format,
      STATEMENT_FORMATS,
    );
  }
  const layoutName = text(query.layout);
  if (layoutName !== undefined && !(CSV_LAYOUTS as readonly string[]).includes(layoutName)) {
    throw STATEMENT_LAYOUT_UNKNOWN.errorWith(
      { errors: [{ field: 'layout', message: `must be one of ${CSV_LAYOUTS.join(', ')}` }] },
      `The layout ${JSON.stringify(layoutName)} is not known`,
      CSV_LAYOUTS,
    );
  }
  const errors: FieldError[] = [];
  const columns = text(query.columns);
  const dateFormatText = text(query.dateFormat);
  const generic = layoutName === 'generic' || (layoutName === undefined && columns !== undefined);
  let dateFormat: DateFormat = 'YYYY-MM-DD';
  if (dateFormatText !== undefined) {
    if ((DATE_FORMATS as readonly string[]).includes(dateFormatText)) {
      dateFormat = dateFormatText as DateFormat;
    } else {
      errors.push({ field: 'dateFormat', message: `must be one of ${DATE_FORMATS.join(', ')}` });
    }
    if (!generic) errors.push({ field: 'dateFormat', message: 'applies to layout=generic only' });
  }
  if (columns !== undefined && !generic) {
    errors.push({ field: 'columns', message: 'applies to layout=generic only' });
  }
  if (generic && columns === undefined) {
    errors.push({
      field: 'columns',
      message:
        'is required with layout=generic: date:<header>,narration:<header>,reference:<header>,credit:<header>,debit:<header>,balance:<header> (or amount and drcr instead of credit and debit)',
    });
  }
  const csvOnly = layoutName !== undefined || columns !== undefined;
  if (csvOnly && format !== undefined && format !== 'csv') {
    errors.push({
      field: layoutName !== undefined ? 'layout' : 'columns',
      message: 'applies to format=csv only',
    });
  }
  let layout: CsvLayout | undefined;
  if (generic && columns !== undefined) layout = genericLayout(columns, dateFormat, errors);
  else if (layoutName !== undefined) layout = BANK_LAYOUTS.find((l) => l.name === layoutName);
  if (errors.length > 0) {
    throw validationFailed(errors);
  }
  return {
    format: (format as StatementFormat | undefined) ?? (csvOnly ? 'csv' : null),
    ...(layout ? { layout } : {}),
  };
}
