import isoWeek from 'dayjs/plugin/isoWeek';
import { dayjs, inMY, type PublicSlot, type StaffSlot } from 'shared-api/contract';
import type { SlotRow } from '../db/schema';

dayjs.extend(isoWeek);

const hhmm = (d: Date) => inMY(d).format('HH:mm');

/** available | reserved (a live hold) | booked, as the bundles see it. */
export function displayStatus(row: SlotRow, now: Date = new Date()): PublicSlot['status'] {
  if (row.status === 'booked') return 'booked';
  if (row.holdExpiresAt && row.holdExpiresAt > now) return 'reserved';
  return 'available';
}

/** The public shape: no visitor data at all. */
export const toPublicSlot = (row: SlotRow, now?: Date): PublicSlot => ({
  id: row.id,
  date: inMY(row.startAt).format('YYYY-MM-DD'),
  startTime: hhmm(row.startAt),
  endTime: hhmm(row.endAt),
  isBooked: row.status === 'booked',
  status: displayStatus(row, now),
});

export const toStaffSlot = (row: SlotRow, now?: Date): StaffSlot => ({
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
  bookingReference: row.bookingReference,
  amountSen: row.amountSen,
});

/** Spec's grouped shape: ISO week number, then date, then that day's slots (each with `week`). */
export function groupByWeek(list: PublicSlot[]): Record<string, Record<string, (PublicSlot & { week: number })[]>> {
  const grouped: Record<string, Record<string, (PublicSlot & { week: number })[]>> = {};
  for (const slot of list) {
    const week = dayjs.tz(slot.date, 'YYYY-MM-DD', 'Asia/Singapore').isoWeek();
    const byDate = (grouped[String(week)] ??= {});
    (byDate[slot.date] ??= []).push({ ...slot, week });
  }
  return grouped;
}
