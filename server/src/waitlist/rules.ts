import { dateInMY, MORNING_ENDS_MINUTES, MY_UTC_OFFSET_MINUTES, parseSlotTime, type PartOfDay, type WaitlistSettings } from 'shared-api/contract';

/** The waitlist's settings and its clock (tests fix it; production reads the time). */
export type WaitlistRules = { settings: WaitlistSettings; now: () => Date };

const MINUTE_MS = 60_000;
const minutesOfDayInMY = (at: Date): number => {
  const wall = new Date(at.getTime() + MY_UTC_OFFSET_MINUTES * MINUTE_MS);
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
};

/** True when `at` falls in the quiet hours (GMT+8; a range like 22:00–07:00 runs over midnight): no offer is made then. */
export function inQuietHours(at: Date, settings: WaitlistSettings): boolean {
  const from = parseSlotTime(settings.quietHours.from);
  const to = parseSlotTime(settings.quietHours.to);
  if (from === null || to === null || from === to) return false;
  const m = minutesOfDayInMY(at);
  return from < to ? m >= from && m < to : m >= from || m < to;
}

/** The offer's window for a slot starting at `slotStart`, made at `now`; null when it could not end by the cut-off. */
export function offerWindow(now: Date, slotStart: Date, settings: WaitlistSettings): { startsAt: Date; expiresAt: Date } | null {
  const expiresAt = new Date(now.getTime() + settings.offerMinutes * MINUTE_MS);
  const cutoff = slotStart.getTime() - settings.cutoffHours * 3_600_000;
  return expiresAt.getTime() <= cutoff ? { startsAt: now, expiresAt } : null;
}

/** The earliest slot start an offer made at `now` may be for. */
export function earliestOfferable(now: Date, settings: WaitlistSettings): Date {
  return new Date(now.getTime() + settings.offerMinutes * MINUTE_MS + settings.cutoffHours * 3_600_000);
}

/** An entry made at or before this has had its term (the days the school sets) by `now`: it ends. */
export const termStartedBy = (now: Date, settings: WaitlistSettings): Date => new Date(now.getTime() - settings.termDays * 86_400_000);

/** An entry whose offer ended unpaid is offered again no sooner than this after. */
export const REOFFER_AFTER_MS = 86_400_000;

/** Whether a slot starting at `start` fits an entry's days and part of the day (GMT+8). */
export function slotFits(start: Date, entry: { fromDate: string; toDate: string; partOfDay: PartOfDay }): boolean {
  const day = dateInMY(start);
  if (day < entry.fromDate || day > entry.toDate) return false;
  if (entry.partOfDay === 'any') return true;
  const morning = minutesOfDayInMY(start) < MORNING_ENDS_MINUTES;
  return entry.partOfDay === 'morning' ? morning : !morning;
}
