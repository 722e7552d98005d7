import { and, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, BookingMessage, ErrorCode } from 'shared-api/contract';
import type { DbOrTx } from '../db/connection';
import { slots } from '../db/schema';
import { sha256 } from '../auth/sessions';
import { findSlot, SlotNotFoundMessage, type Hold, type Refusal } from '../slots/slot-service';

const noLiveHold = or(isNull(slots.holdExpiresAt), lte(slots.holdExpiresAt, sql`now()`)) as SQL;

/**
 * Renews the visitor's own hold (token from POST /slot/{id}/reserve) for `minutes`, in one conditional UPDATE:
 * only while the slot is live, available, bookable by lead time, and held by this token or by nobody.
 */
export async function renewHold(db: DbOrTx, slotId: number, token: string, minutes: number): Promise<Hold | Refusal> {
  const tokenHash = sha256(token);
  const [row] = await db
    .update(slots)
    .set({ holdTokenHash: tokenHash, holdExpiresAt: sql`now() + make_interval(mins => ${minutes})` })
    .where(
      and(
        eq(slots.id, slotId),
        isNull(slots.deletedAt),
        eq(slots.status, 'available'),
        gte(slots.startAt, sql`now() + make_interval(mins => ${BOOKING_LEAD_HOURS * 60})`),
        or(eq(slots.holdTokenHash, tokenHash), noLiveHold),
      ),
    )
    .returning({ id: slots.id, holdExpiresAt: slots.holdExpiresAt });
  if (row) return { slotId: row.id, token, expiresAt: row.holdExpiresAt! };
  const current = await findSlot(db, slotId);
  if (!current) return { ok: false, status: 404, code: ErrorCode.NOT_FOUND, message: SlotNotFoundMessage };
  const heldByOther = current.holdExpiresAt && current.holdExpiresAt > new Date() && current.holdTokenHash !== tokenHash;
  if (!current.deletedAt && current.status === 'available' && heldByOther)
    return { ok: false, status: 409, code: ErrorCode.SLOT_RESERVED, message: BookingMessage.slotReserved };
  return { ok: false, status: 409, code: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.slotNotAvailable };
}
