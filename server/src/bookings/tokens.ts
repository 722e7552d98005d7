import { and, count, eq } from 'drizzle-orm';
import { manageBookingPath } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { newToken, sha256 } from '../base/crypto';
import { manageTokens } from './tables';

/** Browser links minted per booking at most (the success and thank-you pages ask once per visit of the page). */
export const MAX_BROWSER_TOKENS = 20;

/**
 * A new manage link for a booking: 32 random bytes (base64url), stored only as its SHA-256. Each mail and each paying
 * browser gets its own; all stay valid until the visit is over. Runs in the caller's transaction (the mail's).
 */
export async function mintManageToken(tx: DbOrTx, paymentId: string, purpose: 'mail' | 'browser'): Promise<string> {
  const token = newToken();
  await tx.insert(manageTokens).values({ tokenHash: sha256(token), paymentId, purpose });
  return token;
}

/** The full manage URL for a token on the public site. */
export const manageUrl = (publicSiteUrl: string, token: string): string => `${publicSiteUrl}${manageBookingPath(token)}`;

/** How many browser links a booking has had (capped at MAX_BROWSER_TOKENS). */
export async function browserTokenCount(db: DbOrTx, paymentId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(manageTokens)
    .where(and(eq(manageTokens.paymentId, paymentId), eq(manageTokens.purpose, 'browser')));
  return Number(n);
}

/** A new mail link's full URL, in the caller's transaction (the one queuing the mail): for the confirmation, move and reminder mails. */
export async function mintMailManageUrl(tx: DbOrTx, paymentId: string, publicSiteUrl: string): Promise<string> {
  return manageUrl(publicSiteUrl, await mintManageToken(tx, paymentId, 'mail'));
}
