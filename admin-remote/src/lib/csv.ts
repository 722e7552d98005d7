// CSV built in the browser, for every export on the staff side: the product's one CSV writer (shared-api/csv, which
// the API's CSV answers use too: quoting, formula guard, phones as text, the BOM) and the download itself. Shared by
// features (which must not import one another).

import { CSV_BOM } from 'shared-api/csv';

export { csvCell, csvRow, csvText, guardFormula, phoneCell, type CsvValue, type TextCell } from 'shared-api/csv';

/**
 * Hands the CSV to the browser as a file download (UTF-8 with one BOM so spreadsheets read names correctly; an API's
 * CSV answer already starts with one, which fetch's text() usually drops: never two).
 */
export function downloadCsv(filename: string, csv: string): void {
  downloadFile(filename, [CSV_BOM, csv.startsWith(CSV_BOM) ? csv.slice(CSV_BOM.length) : csv], 'text/csv;charset=utf-8');
}

/** Hands bytes to the browser as a file download (never opened on the product's origin). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Hands text to the browser as a file download. */
export function downloadFile(filename: string, parts: string[], type: string): void {
  saveBlob(new Blob(parts, { type }), filename);
}
