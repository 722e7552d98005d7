// What slot creation accepts, for /slot/add, /slot/add-many (and its preview) and the create-slots dialog alike.
// Off the public page's first load: only the staff side and the server use it.
import { SLOT_MINUTES } from './constants';
import { todayInMY } from './gmt8';

/** A slot ends on the day it starts (by 23:59 GMT+8): the latest start of a day, in minutes after midnight (23:29). */
export const LATEST_SLOT_START_MINUTES = 24 * 60 - 1 - SLOT_MINUTES;
/** Slots are created from tomorrow (GMT+8) up to this many years ahead, so a typo in the year is never published. */
export const SLOT_MAX_YEARS_AHEAD = 2;

/** The last day a slot may be created for: today (GMT+8) SLOT_MAX_YEARS_AHEAD years on (29 February gives the 28th). */
export function latestSlotDateInMY(now: Date | number = Date.now()): string {
  const [year, monthDay] = [Number(todayInMY(now).slice(0, 4)) + SLOT_MAX_YEARS_AHEAD, todayInMY(now).slice(5)];
  return monthDay === '02-29' ? `${year}-02-28` : `${year}-${monthDay}`;
}
