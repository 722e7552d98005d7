import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';
import { users } from './tables';
import { revokeAllSessions } from './sessions';
import { hashPassword, needsRehash, PASSWORD_COST, verifyPassword, type ScryptCost } from './passwords';

/** The enabled account a login names, or undefined (unknown or disabled: its login costs no hashing, see password-work.ts). */
export async function loginAccount(db: DbOrTx, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.disabledAt)));
  return user;
}

export type LoginAccount = NonNullable<Awaited<ReturnType<typeof loginAccount>>>;

/**
 * True when `password` is the account's. A right password stored with older scrypt parameters is hashed again at
 * `cost` and stored (in the same turn of the password queue as the check).
 */
export async function passwordMatches(db: DbOrTx, user: LoginAccount, password: string, cost: ScryptCost = PASSWORD_COST): Promise<boolean> {
  if (!(await verifyPassword(password, user.passwordHash))) return false;
  if (needsRehash(user.passwordHash, cost)) {
    const passwordHash = await hashPassword(password, cost);
    // Only over the hash just verified: a password changed meanwhile is not overwritten.
    await db.update(users).set({ passwordHash }).where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
  }
  return true;
}

/** Creates an account; null when the email is taken. */
export async function createUser(
  db: DbOrTx,
  input: { email: string; username?: string | null; password: string },
  cost: ScryptCost = PASSWORD_COST,
) {
  return insertUser(db, { ...input, passwordHash: await hashPassword(input.password, cost) });
}

/** Stores an account whose password is already hashed; null when the email is taken. */
export async function insertUser(db: DbOrTx, input: { email: string; username?: string | null; passwordHash: string }) {
  const rows = await db
    .insert(users)
    .values({ email: input.email.toLowerCase(), username: input.username || null, passwordHash: input.passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, username: users.username });
  return rows[0] ?? null;
}

export async function countUsers(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return Number(row.n);
}

/** Notes a successful login (the colleagues page shows it). */
export async function markLogin(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ lastLoginAt: sql`now()` }).where(eq(users.id, userId));
}

/** Every staff account, oldest first, disabled ones too. */
export async function listAccounts(db: DbOrTx) {
  return db
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      createdAt: users.createdAt,
      lastLoginAt: users.lastLoginAt,
      disabledAt: users.disabledAt,
    })
    .from(users)
    .orderBy(asc(users.createdAt), asc(users.id));
}

export type DisableResult = 'disabled' | 'already' | 'not_found' | 'last_active';

/**
 * Disables an account and ends its sessions, in one transaction. The enabled accounts are locked first (FOR UPDATE),
 * so two disables at once, from any process, cannot leave no enabled account: the second one sees the first's result.
 * `onDisabled` runs in the same transaction (e.g. the audit record).
 */
export async function disableAccount(
  db: DbOrTx,
  userId: number,
  onDisabled?: (tx: DbOrTx, email: string) => Promise<void>,
): Promise<DisableResult> {
  return db.transaction(async (tx) => {
    const active = await tx.select({ id: users.id }).from(users).where(isNull(users.disabledAt)).orderBy(asc(users.id)).for('update');
    if (!active.some((u) => u.id === userId)) {
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return exists ? 'already' : 'not_found';
    }
    if (active.length <= 1) return 'last_active';
    const [disabled] = await tx.update(users).set({ disabledAt: sql`now()` }).where(eq(users.id, userId)).returning({ email: users.email });
    await revokeAllSessions(tx, userId);
    await onDisabled?.(tx, disabled.email);
    return 'disabled';
  });
}
