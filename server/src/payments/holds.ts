import { and, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS } from 'shared-api/contract';
import type { DbOrTx } from '../db/connection';
import { slots } from '../db/schema';
import { sha256 } from '../auth/sessions';
import type { HoldHolder } from '../limits/hold-limits';
import type { Hold } from '../slots/slot-service';

/**
 * Renews the visitor's own live hold (token from POST /slot/{id}/reserve or an earlier initiate) for `minutes` and
 * tags it with the visitor's email and phone, in one conditional UPDATE: only while this token holds the slot, the hold
 * has not ended, and the slot is still available and bookable by lead time. Null otherwise (the caller then needs a
 * new hold, which counts against the hold limits).
 */
export async function renewOwnHold(db: DbOrTx, slotId: number, token: string, minutes: number, holder: HoldHolder): Promise<Hold | null> {
  const [row] = await db
    .update(slots)
    .set({ holdExpiresAt: sql`now() + make_interval(mins => ${minutes})`, holdEmail: holder.email ?? null, holdPhone: holder.phone ?? null })
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
    .returning({ id: slots.id, holdExpiresAt: slots.holdExpiresAt });
  return row ? { slotId: row.id, token, expiresAt: row.holdExpiresAt! } : null;
}
