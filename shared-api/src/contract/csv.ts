// The one CSV writer of the product (issue 35): the staff side's downloads built in the browser (admin-remote's
// lib/csv) and the API's CSV answers (the breach contacts, the PDPA export) write cells, rows and files here.
// RFC 4180 quoting, CRLF line ends, spreadsheet formula guarding, phones kept as text, and a UTF-8 BOM on the file so
// Excel reads Chinese and Malay names right.

/** Put before a CSV file's text: without it Excel reads UTF-8 as the machine's code page (Chinese names garble). */
export const CSV_BOM = '\uFEFF';

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe. */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A cell already made safe by `phoneCell`: written as it is (quoted when needed), not guarded again. */
export type TextCell = { text: string };
export type CsvValue = string | number | boolean | null | undefined | TextCell;

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
    value === null || value === undefined
      ? ''
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : typeof value === 'object'
          ? value.text
          : guardFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: CsvValue[]): string => cells.map(csvCell).join(',');

/** The CSV text of a header and rows: CRLF line ends, one after the last row too (no BOM: see csvFile). */
export const csvText = (header: readonly string[], rows: CsvValue[][]): string => `${[csvRow([...header]), ...rows.map(csvRow)].join('\r\n')}\r\n`;

/** A whole CSV file as an API answers it or a browser saves it: the BOM, then csvText. */
export const csvFile = (header: readonly string[], rows: CsvValue[][]): string => CSV_BOM + csvText(header, rows);
