// Issue 40: the Arrived / No-show marks for the Booked list. A visit is marked from its own day on, so only days up to
// today can have marks; the API answers at most a year at a time.
import { useMemo } from 'react';
import { addDays, todayInMY } from 'shared-api';
import { ATTENDANCE_RANGE_MAX_DAYS } from 'shared-api/visit-day';
import { useVisitAttendanceQuery } from '../api/staffBookingsApi';
import { marksOf, type AttendanceMarks } from '../utils/attendance';

/** The part of [from, to] (GMT+8 days) that can have marks, at most a year ending at `to` or today; null when none can. */
export function attendanceRange(from: string, to: string, today = todayInMY()): { from: string; to: string } | null {
  const end = to < today ? to : today;
  const earliest = addDays(end, -(ATTENDANCE_RANGE_MAX_DAYS - 1));
  const start = from > earliest ? from : earliest;
  return start <= end ? { from: start, to: end } : null;
}

const EMPTY: AttendanceMarks = new Map();

/** The marks of the last year's visits (the Booked list shows past bookings too); empty while loading or on failure. */
export function useAttendanceMarks(): AttendanceMarks {
  const today = todayInMY();
  const { data } = useVisitAttendanceQuery(attendanceRange(addDays(today, -(ATTENDANCE_RANGE_MAX_DAYS - 1)), today, today)!);
  return useMemo(() => (data ? marksOf(data) : EMPTY), [data]);
}
