// The Booked view's columns after the spec's (ID, Date & Time, Status, Action): who booked, searchable and sortable.
import type { DataSort } from 'shared-ui/data';
import { formatPhone } from '../../../lib/format';
import type en from '../locales/en.json';
import { attendanceText, type AttendanceMarks } from './attendance';
import { seatsOf, type BookedRow } from './bookedRows';
import { slotSortKey } from './format';

/**
 * One column of who booked: its header (a catalogue id), the text a cell shows (and sorts by), an optional second line,
 * and what the search box matches in it.
 */
export type BookedColumn = {
  id: string;
  header: keyof typeof en;
  text: (slot: BookedRow) => string;
  detail?: (slot: BookedRow) => string | null;
  /** A booking of several children (issue 37): what the cell lists instead, a line (and its second line) each. */
  lines?: (slot: BookedRow) => Array<{ text: string; detail?: string | null }> | null;
  /** The second line is an email address: it wraps only after its @ or before a dot. */
  detailIsEmail?: boolean;
  /** What a search matches besides `text` (lower case is applied by the caller). */
  searchable?: (slot: BookedRow) => string[];
};

const digits = (text: string | null) => (text ?? '').replace(/\D/g, '');

/** The schools of a row's children, each once, in the children's order. */
const schoolsOf = (slot: BookedRow): string[] => [...new Set(seatsOf(slot).map((seat) => seat.selectedSchool ?? ''))];

export const BOOKED_COLUMNS: BookedColumn[] = [
  {
    id: 'visitor',
    header: 'columnVisitor',
    text: (slot) => slot.visitorName ?? '',
    detail: (slot) => slot.visitorEmail,
    detailIsEmail: true,
    searchable: (slot) => [slot.visitorEmail ?? ''],
  },
  {
    id: 'child',
    header: 'columnChild',
    // A booking of several children: every child's name (sorted and searched by), each with their year.
    text: (slot) => seatsOf(slot).map((seat) => seat.childName ?? '').join(', '),
    detail: (slot) => slot.childYear,
    lines: (slot) => slot.bookingSeats?.map((seat) => ({ text: seat.childName ?? '', detail: seat.childYear })) ?? null,
  },
  {
    id: 'school',
    header: 'columnSchool',
    text: (slot) => schoolsOf(slot).join(', '),
    // Children at different schools: each school with the children applying to it.
    lines: (slot) => {
      const schools = schoolsOf(slot);
      if (!slot.bookingSeats || schools.length < 2) return null;
      return schools.map((school) => ({
        text: school,
        detail: slot.bookingSeats!.filter((seat) => (seat.selectedSchool ?? '') === school).map((seat) => seat.childName ?? '').join(', '),
      }));
    },
  },
  {
    id: 'phone',
    header: 'columnPhone',
    text: (slot) => formatPhone(slot.visitorContactNo) ?? '',
    // '0165773086', '016-577 3086' and '577 3086' all find 016-577 3086.
    searchable: (slot) => [digits(slot.visitorContactNo)],
  },
];

/** Issue 40: Arrived / No-show of the row's visit (empty until staff mark it on the day). */
export const attendanceColumn = (marks: AttendanceMarks): BookedColumn => ({
  id: 'attendance',
  header: 'columnAttendance',
  text: (slot) => attendanceText(marks, slot.bookingReference, slot.date),
});

/** The column a table is sorted by: Date & Time (the spec's), or one of the booked columns. */
export type SlotSort = DataSort;
export const DEFAULT_SORT: SlotSort = { columnId: 'dateTime', direction: 'ascending' };

/** True when `term` (trimmed, lower case; empty matches all) is in any booked column of the slot. */
export function matchesSearch(slot: BookedRow, term: string, columns: BookedColumn[] = BOOKED_COLUMNS): boolean {
  if (!term) return true;
  // A number typed with its own spaces or hyphens is looked for as digits too.
  const asDigits = /^[\d\s()+.-]+$/.test(term) ? digits(term) : '';
  return columns.some((column) =>
    [column.text(slot), ...(column.searchable?.(slot) ?? [])]
      .map((text) => text.toLowerCase())
      .some((text) => text.includes(term) || (asDigits.length >= 3 && text.includes(asDigits))),
  );
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The slots in the chosen order; ties (and Date & Time) by day and start time. */
export function sortSlots<Row extends BookedRow>(slots: Row[], sort: SlotSort, columns: BookedColumn[] = BOOKED_COLUMNS): Row[] {
  const column = columns.find((c) => c.id === sort.columnId);
  const byTime = (a: Row, b: Row) => slotSortKey(a).localeCompare(slotSortKey(b));
  const compare = column ? (a: Row, b: Row) => collator.compare(column.text(a), column.text(b)) || byTime(a, b) : byTime;
  const sorted = [...slots].sort(compare);
  return sort.direction === 'ascending' ? sorted : sorted.reverse();
}
