import { and, count, eq, gt, sql } from 'drizzle-orm';
import { ErrorCode, HOLD_TIME_WINDOW_MINUTES } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { HoldRefusal } from '../checkout';
import { payments } from './tables';

/** Payments one hold may start (each a payment row and a gateway session): a parent correcting their details a few times. */
export const MAX_PAYMENTS_PER_HOLD = 5;

export const TooManyPaymentsMessage =
  'Too many payments were started on this hold. Please finish the last one, or wait until the hold ends and start again.';

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
