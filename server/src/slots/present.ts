import isoWeek from 'dayjs/plugin/isoWeek';
import { TIMEZONE, dayInMY, dayjs, inMY, type PublicSlot, type StaffSlot } from 'shared-api/contract';
import type { SlotRow } from './tables';

dayjs.extend(isoWeek);

// One formatter for every row: dayjs's tz() builds an Intl formatter per call (~0.1 ms), which made the 100-slot
// public list CPU-bound (~35 ms a request; see docs/PERFORMANCE.md).
const partsFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const partsInMY = (d: Date): Record<string, string> =>
  Object.fromEntries(partsFormat.formatToParts(d).map((part) => [part.type, part.value]));
const hhmm = (d: Date) => {
  const p = partsInMY(d);
  return `${p.hour}:${p.minute}`;
};
const dateInMY = (d: Date) => {
  const p = partsInMY(d);
  return `${p.year}-${p.month}-${p.day}`;
};

/** available | reserved (a live hold) | booked, as the bundles see it. */
export function displayStatus(row: SlotRow, now: Date = new Date()): PublicSlot['status'] {
  if (row.status === 'booked') return 'booked';
  if (row.holdExpiresAt && row.holdExpiresAt > now) return 'reserved';
  return 'available';
}

/** The public shape: no visitor data at all; `placesLeft` only for a time that seats more than one child. */
export const toPublicSlot = (row: SlotRow & { placesLeft?: number }, now?: Date): PublicSlot => ({
  id: row.id,
  date: dateInMY(row.startAt),
  startTime: hhmm(row.startAt),
  endTime: hhmm(row.endAt),
  isBooked: row.status === 'booked',
  status: displayStatus(row, now),
  ...(row.placesLeft === undefined ? {} : { placesLeft: row.placesLeft }),
});

/** A seat row with its time's live seats and booked seats, given only for a time that seats more than one child. */
export type StaffSlotRow = SlotRow & { seats?: number; seatsTaken?: number };

/** The staff shape; `seat`, `seats` and `seatsTaken` only for a time that seats more than one child (issue 37). */
export const toStaffSlot = (row: StaffSlotRow, now?: Date): StaffSlot => ({
  id: row.id,
  date: inMY(row.startAt).format('YYYY-MM-DDTHH:mm:ssZ'),
  startTime: hhmm(row.startAt),
  endTime: hhmm(row.endAt),
  isBooked: row.status === 'booked',
  status: displayStatus(row, now),
  visitorName: row.visitorName,
  visitorEmail: row.visitorEmail,
  visitorContactNo: row.visitorContactNo,
  selectedSchool: row.selectedSchool,
  childName: row.childName,
  childYear: row.childYear,
  bookingReference: row.bookingReference,
  amountSen: row.amountSen,
  ...(row.seats === undefined ? {} : { seat: row.seat, seats: row.seats, seatsTaken: row.seatsTaken ?? 0 }),
});

/** Spec's grouped shape: ISO week number, then date, then that day's slots (each with `week`). */
export function groupByWeek(list: PublicSlot[]): Record<string, Record<string, (PublicSlot & { week: number })[]>> {
  const grouped: Record<string, Record<string, (PublicSlot & { week: number })[]>> = {};
  for (const slot of list) {
    const week = dayInMY(slot.date).isoWeek();
    const byDate = (grouped[String(week)] ??= {});
    (byDate[slot.date] ??= []).push({ ...slot, week });
  }
  return grouped;
}

/** A slot's times as the audit trail records them. */
export const slotTimes = (row: SlotRow) => ({ start: row.startAt.toISOString(), end: row.endAt.toISOString() });
