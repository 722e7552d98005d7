import { and, count, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, ErrorCode, HOLD_TIME_WINDOW_MINUTES } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { slots } from '../slots/tables';
import { sha256 } from '../base/crypto';
import { HoldRefusal } from '../holds/hold-limits';
import { type HoldHolder } from '../slots/slot-service';
import { payments } from './tables';

/** Payments one hold may start (each a payment row and a gateway session): a parent correcting their details a few times. */
export const MAX_PAYMENTS_PER_HOLD = 5;

export const TooManyPaymentsMessage =
  'Too many payments were started on this hold. Please finish the last one, or wait until the hold ends and start again.';

/**
 * The visitor's own live hold (token from POST /slot/{id}/reserve or an earlier initiate), tagged with the visitor's
 * email and phone, in one conditional UPDATE: only while this token holds the slot, the hold has not ended, and the slot
 * is still available and bookable by lead time. It stays counted for the network that took it (moving it would free
 * that network's allowance). Its end, or null (the caller then needs a new hold).
 */
export async function claimOwnHold(db: DbOrTx, slotId: number, token: string, holder: HoldHolder): Promise<Date | null> {
  const [row] = await db
    .update(slots)
    .set({ holdEmail: holder.email ?? null, holdPhone: holder.phone ?? null })
    .where(
      and(
        eq(slots.id, slotId),
        isNull(slots.deletedAt),
        eq(slots.status, 'available'),
        gte(slots.startAt, sql`now() + make_interval(mins => ${BOOKING_LEAD_HOURS * 60})`),
        eq(slots.holdTokenHash, sha256(token)),
        gt(slots.holdExpiresAt, sql`now()`),
      ),
    )
    .returning({ holdExpiresAt: slots.holdExpiresAt });
  return row?.holdExpiresAt ?? null;
}

/** Refuses (429 RATE_LIMITED, until the hold ends) one more payment on a hold that started MAX_PAYMENTS_PER_HOLD already. */
export async function limitPaymentsPerHold(db: DbOrTx, slotId: number, token: string, holdEndsAt: Date): Promise<void> {
  const [{ started }] = await db
    .select({ started: count() })
    .from(payments)
    .where(
      and(
        eq(payments.slotId, slotId),
        eq(payments.holdToken, token),
        gt(payments.createdAt, sql`now() - make_interval(mins => ${HOLD_TIME_WINDOW_MINUTES})`),
      ),
    );
  if (Number(started) >= MAX_PAYMENTS_PER_HOLD)
    throw new HoldRefusal(ErrorCode.RATE_LIMITED, TooManyPaymentsMessage, Math.max(1, Math.ceil((holdEndsAt.getTime() - Date.now()) / 1000)));
}
