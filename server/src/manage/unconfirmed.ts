// A day's visits no parent has confirmed (issue 38), so the office can call: the day's visits (visits.ts), unconfirmed only.
import type { UnconfirmedVisit } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { visitsOn } from './visits';

/**
 * The visits starting on `day` (GMT+8, YYYY-MM-DD, already validated) that are booked, not cancelled and not confirmed
 * by the parent, by start then reference, naming the children seen then (a booking made before children were asked
 * for names none); a booking staff made with no payment is one too (nothing can confirm it but a call).
 */
export async function unconfirmedVisits(db: DbOrTx, day: string): Promise<UnconfirmedVisit[]> {
  return (await visitsOn(db, day, { unconfirmedOnly: true })).map(({ children, ...visit }) => ({
    ...visit,
    children: children.map((c) => c.name).filter((name) => name !== ''),
  }));
}
