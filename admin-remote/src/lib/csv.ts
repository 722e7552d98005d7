// CSV built in the browser, for every export on the staff side: RFC 4180 quoting, spreadsheet formula guarding and
// the download itself. Shared by features (which must not import one another).

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe. */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Quotes a cell when it holds a comma, quote or line break; quotes inside are doubled. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : guardFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: Array<string | number | null | undefined>): string => cells.map(csvCell).join(',');

/** The CSV text of a header and rows: CRLF line ends, one after the last row too. */
export const csvText = (header: readonly string[], rows: Array<Array<string | number | null | undefined>>): string =>
  `${[csvRow([...header]), ...rows.map(csvRow)].join('\r\n')}\r\n`;

/** Hands the CSV to the browser as a file download (UTF-8 with a BOM so spreadsheets read names correctly). */
export function downloadCsv(filename: string, csv: string): void {
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
