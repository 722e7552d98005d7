import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { AccountMessage, PASSWORD_RESET_MINUTES, passwordResetPath } from 'shared-api/contract';
import type { Db, DbOrTx } from '../base/db/connection';
import { recordAudit } from '../audit';
import { users, passwordResets } from './tables';
import { guessLimit } from '../limits';
import { hitCounter } from '../limits';
import { renderStaffPasswordReset } from '../mail';
import { messageIdFor } from '../mail';
import { mailOutbox } from '../mail';
import { clientNetwork } from '../base/client-address';
import { newToken, sha256 } from '../base/crypto';
import { revokeAllSessions } from './sessions';

/** Reset requests one client address may make in RESET_WINDOW_SECONDS (over all addresses asked for). */
export const RESET_REQUESTS_PER_ADDRESS = 10;
/** Reset mails one email address may be sent in RESET_WINDOW_SECONDS, whoever asks (counted for unknown ones too). */
export const RESET_REQUESTS_PER_ACCOUNT = 3;
export const RESET_WINDOW_SECONDS = 60 * 60;

// Keys hold only SHA-256 digests (like the login limits): the counters store no email and no address.
const addressKey = (ip: string) => `reset:address:${sha256(clientNetwork(ip))}`;
const accountKey = (email: string) => `reset:account:${sha256(email.toLowerCase())}`;

/** Counts a reset request from `ip`; the seconds to wait when it is over the limit, else null. */
export async function countResetAddress(db: DbOrTx, ip: string): Promise<number | null> {
  const { hits, retryAfterSeconds } = await hitCounter(db, addressKey(ip), RESET_WINDOW_SECONDS);
  return hits > RESET_REQUESTS_PER_ADDRESS ? retryAfterSeconds : null;
}

export type ResetMailSettings = { publicSiteUrl: string; mailFrom: string };

/**
 * A reset for `email`: when it names an enabled account and its per-account limit is not reached, a token (only its
 * SHA-256 stored), its mail and the audit record are written in one transaction, and the account's earlier links end. Returns the account's id when a mail was queued, else
 * null; the caller answers the same either way.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  settings: ResetMailSettings,
  ip: string | null = null,
): Promise<{ userId: number } | null> {
  const address = email.toLowerCase();
  const { hits } = await hitCounter(db, accountKey(address), RESET_WINDOW_SECONDS);
  if (hits > RESET_REQUESTS_PER_ACCOUNT) return null;
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, address), isNull(users.disabledAt)));
  if (!user) return null;
  const token = newToken();
  const tokenHash = sha256(token);
  const mail = renderStaffPasswordReset({ url: `${settings.publicSiteUrl}${passwordResetPath(token)}`, minutes: PASSWORD_RESET_MINUTES });
  await db.transaction(async (tx) => {
    // Only the newest link works: the account's row is locked (two requests at once take turns) and its earlier links end now.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    await tx
      .update(passwordResets)
      .set({ expiresAt: sql`LEAST(${passwordResets.expiresAt}, now())` })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), sql`${passwordResets.expiresAt} > now()`));
    await tx.insert(passwordResets).values({
      tokenHash,
      userId: user.id,
      expiresAt: sql`now() + make_interval(mins => ${PASSWORD_RESET_MINUTES})`,
    });
    await tx.insert(mailOutbox).values({
      paymentId: null,
      kind: 'staff_password_reset',
      recipient: user.email,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      ics: null,
      // Names the token by a part of its hash, never the token itself.
      messageId: messageIdFor('staff_password_reset', `staff-${user.id}`, settings.mailFrom, tokenHash.slice(0, 16)),
    });
    await recordAudit(tx, { actor: user.email, actorUserId: user.id, action: 'password_reset_requested', target: user.email, ip });
  });
  return { userId: user.id };
}

/** Unknown, used or expired reset tokens are guess-limited per client network (429 past the limit). */
export const RESET_GUESS_LIMIT = guessLimit('reset-token', AccountMessage.resetTooManyTries);

/** The condition of a token that can still set a password: unused, unexpired, its account enabled. */
const usable = (tokenHash: string) =>
  and(
    eq(passwordResets.tokenHash, tokenHash),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, sql`now()`),
    sql`${passwordResets.userId} IN (SELECT id FROM users WHERE disabled_at IS NULL)`,
  );

/** True while a reset token would set a password (unused, unexpired, account enabled); it reads and changes nothing else. */
export async function isResetTokenUsable(db: DbOrTx, token: string): Promise<boolean> {
  const [row] = await db.select({ userId: passwordResets.userId }).from(passwordResets).where(usable(sha256(token)));
  return row !== undefined;
}

/**
 * Sets a new password with a reset token: the token is taken in one UPDATE (unused, unexpired, account enabled), so
 * two requests with it cannot both succeed; every other reset token and every session of the account end with it.
 * The audit record is written in the same transaction. Returns the account's id, or null (and nothing changed) for an
 * unknown, used or expired token. The new password is hashed (`hash`, scrypt) only once the token is known to work,
 * so a stranger's made-up tokens cost no hashing.
 */
export async function confirmPasswordReset(
  db: Db,
  token: string,
  password: string,
  /** Hashes the new password of the account with this email (through the password queue). */
  hash: (password: string, email: string) => Promise<string>,
  ip: string | null = null,
): Promise<{ userId: number } | null> {
  const tokenHash = sha256(token);
  const [found] = await db
    .select({ email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(usable(tokenHash));
  if (!found) return null;
  // Hashed before the transaction: scrypt takes a while and needs no lock.
  const passwordHash = await hash(password, found.email);
  return db.transaction(async (tx) => {
    const [taken] = await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(usable(tokenHash)).returning({ userId: passwordResets.userId });
    if (!taken) return null;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, taken.userId));
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, taken.userId), isNull(passwordResets.usedAt)));
    const sessionsEnded = await revokeAllSessions(tx, taken.userId);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, taken.userId));
    await recordAudit(tx, { actor: user.email, actorUserId: taken.userId, action: 'password_reset', target: user.email, detail: { sessionsEnded }, ip });
    return { userId: taken.userId };
  });
}
