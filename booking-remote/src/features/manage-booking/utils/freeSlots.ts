import { BOOKING_LEAD_HOURS, isBookableTime, parseSlotTime } from 'shared-api';

/** A free slot the parent may move to (date YYYY-MM-DD and times as the public list gives them, GMT+8). */
export type FreeSlot = { id: number; date: string; startTime: string; endTime: string; startMinutes: number };

type RawSlot = Record<string, unknown>;
const isRecord = (value: unknown): value is RawSlot => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The slots of a public list answer: `{data: {slots}}` (legacy format), `{data: [...]}`, `{slots}` or a bare array. */
export function slotsOfList(body: unknown): RawSlot[] {
  const data = isRecord(body) && 'data' in body ? body.data : body;
  const slots = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.slots) ? data.slots : [];
  return slots.filter(isRecord);
}

/**
 * The timetable's rule for a free slot (spec section 5): id, date and start time present, not booked, no visitor,
 * not on hold, and at least the lead time (1 hour) ahead of `now`. Sorted by date, then start.
 */
export function freeSlots(body: unknown, now: number): FreeSlot[] {
  return slotsOfList(body)
    .filter(
      (slot) =>
        typeof slot.date === 'string' &&
        typeof slot.startTime === 'string' &&
        slot.isBooked !== true &&
        !slot.visitorName &&
        slot.status !== 'reserved' &&
        Number.isInteger(Number(slot.id)) &&
        Number(slot.id) > 0 &&
        isBookableTime(slot.date, slot.startTime, now, BOOKING_LEAD_HOURS),
    )
    .map((slot) => ({
      id: Number(slot.id),
      date: (slot.date as string).slice(0, 10),
      startTime: slot.startTime as string,
      endTime: typeof slot.endTime === 'string' ? slot.endTime : '',
      startMinutes: parseSlotTime(slot.startTime as string) as number,
    }))
    .sort((a, b) => (a.date === b.date ? a.startMinutes - b.startMinutes : a.date < b.date ? -1 : 1));
}

/** Free slots by date, in order. */
export function byDate(slots: FreeSlot[]): Array<{ date: string; slots: FreeSlot[] }> {
  const days = new Map<string, FreeSlot[]>();
  for (const slot of slots) days.set(slot.date, [...(days.get(slot.date) ?? []), slot]);
  return [...days].map(([date, list]) => ({ date, slots: list }));
}
