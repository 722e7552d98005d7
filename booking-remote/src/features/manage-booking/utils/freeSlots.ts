import { dateInMY, formatMinutes24, midnightInMY } from 'shared-api';
import { filterDisplayableSlots, type BookableSlot } from '../../../lib/slot-list/displayFilter';
import { normaliseSlotList } from '../../../lib/slot-list/normaliseSlotList';

/** A free slot the parent may move to (date YYYY-MM-DD and times as the public list gives them, GMT+8). */
export type FreeSlot = BookableSlot;

/** The public list's free slots by the timetable's own rule (spec section 5: not booked or held, lead time ahead), in order. */
export const freeSlots = (body: unknown, now: number): FreeSlot[] => filterDisplayableSlots(normaliseSlotList(body) ?? [], now);

/** Free slots by date, in order. */
export function byDate<T extends FreeSlot>(slots: T[]): Array<{ date: string; slots: T[] }> {
  const days = new Map<string, T[]>();
  for (const slot of slots) days.set(slot.date, [...(days.get(slot.date) ?? []), slot]);
  return [...days].map(([date, list]) => ({ date, slots: list }));
}

/** A time in the move list: a free slot, or (`current`) the booking's own time, shown in its place and not a choice. */
export type MoveTime = FreeSlot & { current?: true };

/**
 * The free slots with the booking's own time (`start`, ISO) in its place among them, marked `current`: the parent sees
 * where the visit is now. A free slot at that same time is not offered (the server would answer sameSlot).
 */
export function withCurrentTime(free: FreeSlot[], start: string): MoveTime[] {
  const startMs = Date.parse(start);
  const date = dateInMY(startMs);
  const startMinutes = Math.round((startMs - midnightInMY(date)) / 60_000);
  const current: MoveTime = { id: 0, date, startTime: formatMinutes24(startMinutes), endTime: '', startMinutes, current: true };
  const others = free.filter((slot) => slot.date !== date || slot.startMinutes !== startMinutes);
  const at = others.findIndex((slot) => slot.date > date || (slot.date === date && slot.startMinutes > startMinutes));
  return at < 0 ? [...others, current] : [...others.slice(0, at), current, ...others.slice(at)];
}
