// CSV built in the browser, for every export on the staff side: RFC 4180 quoting, spreadsheet formula guarding and
// the download itself. Shared by features (which must not import one another).

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe. */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A cell already made safe by `phoneCell`: written as it is (quoted when needed), not guarded again. */
export type TextCell = { text: string };
export type CsvValue = string | number | null | undefined | TextCell;

/**
 * A phone number as a text cell. Written as on screen ('016-577 3086'), it is text to Excel and LibreOffice and keeps
 * its leading zero. One a spreadsheet would read as a number or a formula (digits only, or starting with '+') gets a
 * leading tab instead of the formula guard's apostrophe: both keep it text, only the tab shows nothing. Only digits,
 * '+', spaces, hyphens, dots and brackets pass here, so it is never a formula; anything else is guarded like any cell.
 */
export function phoneCell(phone: string | null | undefined): CsvValue {
  if (!phone) return '';
  if (!/^\+?[\d\s().-]+$/.test(phone)) return phone;
  return { text: /^\d[\d\s().-]*\D/.test(phone) ? phone : `\t${phone}` };
}

/** Quotes a cell when it holds a comma, quote or line break; quotes inside are doubled. */
export function csvCell(value: CsvValue): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : typeof value === 'object' ? value.text : guardFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: CsvValue[]): string => cells.map(csvCell).join(',');

/** The CSV text of a header and rows: CRLF line ends, one after the last row too. */
export const csvText = (header: readonly string[], rows: CsvValue[][]): string =>
  `${[csvRow([...header]), ...rows.map(csvRow)].join('\r\n')}\r\n`;

/** Hands the CSV to the browser as a file download (UTF-8 with a BOM so spreadsheets read names correctly). */
export function downloadCsv(filename: string, csv: string): void {
  downloadFile(filename, ['\uFEFF', csv], 'text/csv;charset=utf-8');
}

/** Hands text to the browser as a file download. */
export function downloadFile(filename: string, parts: string[], type: string): void {
  const blob = new Blob(parts, { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
