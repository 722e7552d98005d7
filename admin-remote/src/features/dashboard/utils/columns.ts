// The Booked view's columns after the spec's (ID, Date & Time, Status, Action): who booked, sorted and searched on the server (issue 41).
import type { DataSort } from 'shared-ui/data';
import { formatPhone } from '../../../lib/format';
import type en from '../locales/en.json';
import { attendanceText, type AttendanceMarks } from './attendance';
import { seatsOf, type BookedRow } from './bookedRows';

/** One column of who booked: its header (a catalogue id), the text a cell shows and an optional second line. */
export type BookedColumn = {
  id: string;
  header: keyof typeof en;
  text: (slot: BookedRow) => string;
  detail?: (slot: BookedRow) => string | null;
  /** A booking of several children (issue 37): what the cell lists instead, a line (and its second line) each. */
  lines?: (slot: BookedRow) => Array<{ text: string; detail?: string | null }> | null;
  /** The second line is an email address: it wraps only after its @ or before a dot. */
  detailIsEmail?: boolean;
  /** False: the server cannot sort by it (the Attendance marks are not slot columns). */
  sortable?: false;
};

/** The schools of a row's children, each once, in the children's order. */
const schoolsOf = (slot: BookedRow): string[] => [...new Set(seatsOf(slot).map((seat) => seat.selectedSchool ?? ''))];

export const BOOKED_COLUMNS: BookedColumn[] = [
  {
    id: 'visitor',
    header: 'columnVisitor',
    text: (slot) => slot.visitorName ?? '',
    detail: (slot) => slot.visitorEmail,
    detailIsEmail: true,
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
  },
];

/** Issue 40: Arrived / No-show of the row's visit (empty until staff mark it on the day). */
export const attendanceColumn = (marks: AttendanceMarks): BookedColumn => ({
  id: 'attendance',
  header: 'columnAttendance',
  text: (slot) => attendanceText(marks, slot.bookingReference, slot.date),
  sortable: false,
});

/** The column a table is sorted by: Date & Time (the spec's), or one of the booked columns. */
export type SlotSort = DataSort;

