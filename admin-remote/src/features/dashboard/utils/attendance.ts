// Issue 40: the Arrived / No-show marks of visits (GET /staff/visits/attendance), for the Booked list and the CSV.
import { midnightInMY, parseSlotTime } from 'shared-api';
import { AttendanceLabel, type AttendanceRecord, type VisitAttendanceState } from 'shared-api/visit-day';

/** The marks by visit: a booking's reference at one start (epoch ms). */
export type AttendanceMarks = Map<string, VisitAttendanceState>;
const keyOf = (reference: string, startMs: number) => `${reference}|${startMs}`;

export const marksOf = (records: AttendanceRecord[] = []): AttendanceMarks =>
  new Map(records.map((r) => [keyOf(r.reference, Date.parse(r.start)), r.state]));

/** 'Arrived', 'No-show', or '' for a visit not marked; `start`: an ISO instant, or a GMT+8 day and time. */
export function attendanceText(marks: AttendanceMarks, reference: string | null, start: string | { date: string; startTime: string }): string {
  if (!reference) return '';
  const minutes = typeof start === 'string' ? null : parseSlotTime(start.startTime);
  const ms = typeof start === 'string' ? Date.parse(start) : minutes === null ? NaN : midnightInMY(start.date) + minutes * 60_000;
  const state = marks.get(keyOf(reference, ms));
  return state ? AttendanceLabel[state] : '';
}
