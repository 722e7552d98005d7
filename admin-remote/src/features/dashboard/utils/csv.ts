// CSV export of the paid bookings, built in the browser: RFC 4180 quoting and spreadsheet formula guarding.
import { formatRinggit, type StaffBookingRow } from 'shared-api';
import { formatDay, formatInstantRange, formatPhone, formatTimeRange } from '../../../lib/format';
import { slotDayMY } from './format';
import { bookingStateLabel, childRefundText, refundText } from './history';
import { dashboardText } from '../i18n';
import { csvRow, phoneCell } from '../../../lib/csv';
import { attendanceText, type AttendanceMarks } from './attendance';

// The cell quoting and formula guard live in lib/csv (the audit export uses them too).
export { csvCell, csvRow, guardFormula, phoneCell } from '../../../lib/csv';

const CSV_COLUMNS = ['csvName', 'csvEmail', 'csvPhone', 'csvSchool', 'csvChild', 'csvChildYear', 'csvDate', 'csvTime', 'csvAmount', 'csvReference', 'csvStatus', 'csvRefund', 'csvAttendance'] as const;

/** The header row's words, in the page's language. */
export const csvHeader = (): string[] => CSV_COLUMNS.map((id) => dashboardText(id));

/** Paid bookings (cancelled ones too) whose visit's GMT+8 day lies in [from, to] (inclusive, YYYY-MM-DD), earliest first. */
export function bookingsInRange(bookings: StaffBookingRow[], from: string, to: string): StaffBookingRow[] {
  return bookings
    .filter((b) => {
      const day = slotDayMY(b.start);
      return day >= from && day <= to;
    })
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** The CSV text (CRLF line ends, header first) for the paid bookings of a date range, with their status, refund and attendance; a row per child. */
export function bookingsCsv(bookings: StaffBookingRow[], from: string, to: string, marks: AttendanceMarks = new Map()): string {
  const lines = [csvRow(csvHeader())];
  for (const booking of bookingsInRange(bookings, from, to)) {
    // A booking of several children (issue 37): a row per child, with the child's school, year and share.
    const children = booking.children ?? [{ childName: booking.childName ?? '', childYear: booking.childYear ?? '', selectedSchool: booking.school, amountSen: booking.amountPaidSen, cancelled: false, refundSen: null }];
    for (const child of children) {
      // A child staff moved alone to another time: that child's own day and time (GMT+8).
      const time = 'time' in child ? child.time : undefined;
      lines.push(
        csvRow([
          booking.visitorName,
          booking.visitorEmail,
          // As on screen ('016-577 3086'), a text cell: spreadsheets keep the leading zero.
          phoneCell(formatPhone(booking.visitorContactNo)),
          child.selectedSchool,
          child.childName,
          child.childYear,
          time ? formatDay(time.date) : formatDay(booking.start),
          time ? formatTimeRange(time.startTime, time.endTime) : formatInstantRange(booking.start, booking.end),
          formatRinggit(child.amountSen),
          booking.reference,
          child.cancelled ? bookingStateLabel('cancelled') : bookingStateLabel(booking.state),
          // A child cancelled alone: what came back for that child; otherwise the booking's refund.
          child.cancelled ? childRefundText(child.refundSen) : refundText(booking.state, booking.refund),
          // Issue 40: Arrived / No-show of the child's visit (a child moved alone has a visit of its own).
          attendanceText(marks, booking.reference, time ?? booking.start),
        ]),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
