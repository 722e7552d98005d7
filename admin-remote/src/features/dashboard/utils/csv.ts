// CSV export of booked slots, built in the browser: RFC 4180 quoting and spreadsheet formula guarding.
import { formatSlotDate, formatSlotTimeRange, slotDayMY, slotSortKey } from './format';
import type { StaffSlot } from 'shared-api';

export const CSV_HEADER = ['Name', 'Email', 'Phone', 'School', 'Date', 'Time', 'Amount (RM)', 'Reference'] as const;

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

const amountRM = (sen: number | null): string => (sen === null ? '' : (sen / 100).toFixed(2));

/** Booked slots whose GMT+8 day lies in [from, to] (inclusive, YYYY-MM-DD), earliest first. */
export function bookedSlotsInRange(slots: StaffSlot[], from: string, to: string): StaffSlot[] {
  return slots
    .filter((s) => s.visitorName !== null)
    .filter((s) => {
      const day = slotDayMY(s.date);
      return day >= from && day <= to;
    })
    .sort((a, b) => slotSortKey(a).localeCompare(slotSortKey(b)));
}

/** The CSV text (CRLF line ends, header first) for the booked slots of a date range. */
export function bookedSlotsCsv(slots: StaffSlot[], from: string, to: string): string {
  const lines = [csvRow([...CSV_HEADER])];
  for (const slot of bookedSlotsInRange(slots, from, to)) {
    lines.push(
      csvRow([
        slot.visitorName,
        slot.visitorEmail,
        slot.visitorContactNo,
        slot.selectedSchool,
        formatSlotDate(slot.date),
        formatSlotTimeRange(slot),
        amountRM(slot.amountSen),
        slot.bookingReference,
      ]),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
