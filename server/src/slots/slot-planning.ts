// Slot planning: several start times a day over a date range, previewed or created in one transaction (issue 15).
import { and, gt, isNull, lt } from 'drizzle-orm';
import { SLOT_MINUTES, dayInMY, planSlots, type SlotPlan, type SlotPlanBody } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { slots, type SlotRow } from './tables';
import { publicHolidays } from './holidays';
import { lockSlotCreation, seatRowsOf } from './slot-service';

/** The live slots that could overlap anything in the request's range (from its first midnight to its last + 1 day). */
async function liveSpans(db: DbOrTx, body: SlotPlanBody) {
  const from = dayInMY(body.fromDate).toDate();
  const to = dayInMY(body.toDate).add(1, 'day').toDate();
  const rows = await db
    .select({ startAt: slots.startAt, endAt: slots.endAt })
    .from(slots)
    .where(and(isNull(slots.deletedAt), lt(slots.startAt, to), gt(slots.endAt, from)));
  return rows.map((r) => ({ startMs: r.startAt.getTime(), endMs: r.endAt.getTime() }));
}

/** What a request would create and refuse now, read without a lock and without writing. */
export async function previewSlotPlan(db: DbOrTx, body: SlotPlanBody, now = new Date()): Promise<SlotPlan> {
  return planSlots(body, await liveSpans(db, body), now, publicHolidays(body.fromDate, body.toDate));
}

export type SlotPlanOutcome = { ok: true; created: SlotRow[] } | { ok: false; plan: SlotPlan };

/**
 * Creates every slot of the plan in ONE transaction under the slot-creation lock, or nothing when anything is refused
 * (or nothing would be created): each planned time as `body.seats` rows, seat 1 to n (issue 37). `onCreated` runs in
 * the same transaction (the audit record).
 */
export async function createSlotPlan(
  db: DbOrTx,
  body: SlotPlanBody,
  now = new Date(),
  onCreated?: (tx: DbOrTx, rows: SlotRow[]) => Promise<void>,
): Promise<SlotPlanOutcome> {
  return db.transaction(async (tx) => {
    await lockSlotCreation(tx);
    const plan = planSlots(body, await liveSpans(tx, body), now, publicHolidays(body.fromDate, body.toDate));
    if (plan.refused.length > 0 || plan.toCreate.length === 0) return { ok: false, plan };
    const values = plan.toCreate.flatMap((item) => {
      const startAt = dayInMY(item.date).add(Number(item.startTime.slice(0, 2)) * 60 + Number(item.startTime.slice(3)), 'minute').toDate();
      return seatRowsOf(startAt, new Date(startAt.getTime() + SLOT_MINUTES * 60_000), body.seats);
    });
    const created = await tx.insert(slots).values(values).returning();
    created.sort((a, b) => a.startAt.getTime() - b.startAt.getTime() || a.seat - b.seat);
    await onCreated?.(tx, created);
    return { ok: true, created };
  });
}
