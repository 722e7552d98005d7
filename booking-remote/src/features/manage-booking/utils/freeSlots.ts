import { filterDisplayableSlots, type BookableSlot } from '../../../lib/slot-list/displayFilter';
import { normaliseSlotList } from '../../../lib/slot-list/normaliseSlotList';

/** A free slot the parent may move to (date YYYY-MM-DD and times as the public list gives them, GMT+8). */
export type FreeSlot = BookableSlot;

/** The public list's free slots by the timetable's own rule (spec section 5: not booked or held, lead time ahead), in order. */
export const freeSlots = (body: unknown, now: number): FreeSlot[] => filterDisplayableSlots(normaliseSlotList(body) ?? [], now);

/** Free slots by date, in order. */
export function byDate(slots: FreeSlot[]): Array<{ date: string; slots: FreeSlot[] }> {
  const days = new Map<string, FreeSlot[]>();
  for (const slot of slots) days.set(slot.date, [...(days.get(slot.date) ?? []), slot]);
  return [...days].map(([date, list]) => ({ date, slots: list }));
}
