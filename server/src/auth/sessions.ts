import { newToken, sha256 } from '../base/crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';
import { sessions, users, type UserRow } from './tables';

export const SESSION_IDLE_HOURS = 8;
export const SESSION_ABSOLUTE_HOURS = 24;


export async function createSession(db: DbOrTx, userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const [row] = await db
    .insert(sessions)
    .values({ userId, tokenHash: sha256(token), expiresAt: sql`now() + make_interval(hours => ${SESSION_ABSOLUTE_HOURS})` })
    .returning({ expiresAt: sessions.expiresAt });
  return { token, expiresAt: row.expiresAt };
}

/**
 * The user behind a bearer token, touching its idle timer in the same statement;
 * null when the token is unknown, revoked, idle for 8 h or older than 24 h.
 */
export type SessionUser = Pick<UserRow, 'id' | 'email' | 'username' | 'role'> & { sessionId: number; steppedUpAt: Date | null; secondFactor: boolean };

export async function userForToken(db: DbOrTx, token: string): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const [session] = await db
    .update(sessions)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(sessions.tokenHash, sha256(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastUsedAt, sql`now() - make_interval(hours => ${SESSION_IDLE_HOURS})`),
      ),
    )
    .returning({ userId: sessions.userId, sessionId: sessions.id, steppedUpAt: sessions.steppedUpAt });
  if (!session) return null;
  const [user] = await db
    .select({ id: users.id, email: users.email, username: users.username, role: users.role, secondFactor: sql<boolean>`${users.totpEnrolledAt} IS NOT NULL` })
    .from(users)
    .where(and(eq(users.id, session.userId), isNull(users.disabledAt)));
  return user ? { ...user, sessionId: session.sessionId, steppedUpAt: session.steppedUpAt } : null;
}

export async function revokeSession(db: DbOrTx, token: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every live session of an account (log out everywhere, a new password, a disabled account); how many. */
export async function revokeAllSessions(db: DbOrTx, userId: number): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}
