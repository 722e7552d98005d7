import { BOOKING_LEAD_HOURS, isBookableTime, parseSlotTime } from 'shared-api';
import type { RawSlot } from './normaliseSlotList';

/** A slot the parent may pick, with its start as minutes after midnight (GMT+8). */
export type BookableSlot = {
  id: number;
  /** YYYY-MM-DD in GMT+8. */
  date: string;
  startTime: string;
  endTime: string;
  startMinutes: number;
  /** A time that seats several children (issue 37): its free seats; absent for a one-seat slot. */
  placesLeft?: number;
};

/**
 * Spec section 5: hidden when date, startTime or id is missing, when booked, when it has a visitor name,
 * when reserved, or when it starts less than the lead time (1 hour) from now in GMT+8.
 */
export function isDisplayable(slot: RawSlot, now: Date | number = Date.now()): boolean {
  if (slot.id === undefined || slot.id === null || slot.id === '') return false;
  if (typeof slot.date !== 'string' || !slot.date) return false;
  if (typeof slot.startTime !== 'string' || !slot.startTime) return false;
  if (slot.isBooked === true) return false;
  if (slot.visitorName) return false;
  if (slot.status === 'reserved') return false;
  return isBookableTime(slot.date, slot.startTime, now, BOOKING_LEAD_HOURS);
}

/** The displayable slots, sorted by date then start time. */
export function filterDisplayableSlots(slots: RawSlot[], now: Date | number = Date.now()): BookableSlot[] {
  return slots
    .filter((slot) => isDisplayable(slot, now))
    .map((slot) => ({
      id: Number(slot.id),
      date: (slot.date as string).slice(0, 10),
      startTime: slot.startTime as string,
      endTime: typeof slot.endTime === 'string' ? slot.endTime : '',
      startMinutes: parseSlotTime(slot.startTime as string) as number,
      ...(Number.isInteger(slot.placesLeft) ? { placesLeft: slot.placesLeft as number } : {}),
    }))
    .filter((slot) => Number.isInteger(slot.id))
    .sort((a, b) => (a.date === b.date ? a.startMinutes - b.startMinutes : a.date < b.date ? -1 : 1));
}
