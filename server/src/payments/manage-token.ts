import { eq } from 'drizzle-orm';
import { MANAGE_TOKEN_PATTERN, ManageMessage } from 'shared-api/contract';
import { manageTokens } from '../bookings';
import { sha256 } from '../base/crypto';
import type { DbOrTx } from '../base/db/connection';
import { guessLimit } from '../limits';
import { payments, type PaymentRow } from './tables';

// The manage link's token → its payment, here below manage/ and documents/, which both open a booking by it.

/** The payment a token opens, or undefined for a malformed or unknown one (no database lookup for a malformed one). */
export async function paymentForToken(db: DbOrTx, token: string, lock = false): Promise<PaymentRow | undefined> {
  if (!MANAGE_TOKEN_PATTERN.test(token)) return undefined;
  const [link] = await db.select({ paymentId: manageTokens.paymentId }).from(manageTokens).where(eq(manageTokens.tokenHash, sha256(token)));
  if (!link) return undefined;
  const query = db.select().from(payments).where(eq(payments.id, link.paymentId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Unknown or malformed manage tokens (and payment ids) are guess-limited per client network (429 past the limit). */
export const MANAGE_GUESS_LIMIT = guessLimit('manage-token', ManageMessage.tooManyTries);
