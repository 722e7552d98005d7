import { and, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection';
import { users } from '../db/schema';
import { getDummyHash, hashPassword, needsRehash, PASSWORD_COST, verifyPassword, type ScryptCost } from './passwords';

/**
 * The account for this email and password, or null; an unknown email costs one scrypt like a wrong password.
 * A right password stored with older scrypt parameters is hashed again at `cost` and stored.
 */
export async function checkCredentials(db: DbOrTx, email: string, password: string, cost: ScryptCost = PASSWORD_COST) {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  const valid = await verifyPassword(password, user?.passwordHash ?? (await getDummyHash(cost)));
  if (!user || !valid) return null;
  if (needsRehash(user.passwordHash, cost)) {
    const passwordHash = await hashPassword(password, cost);
    // Only over the hash just verified: a password changed meanwhile is not overwritten.
    await db.update(users).set({ passwordHash }).where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
  }
  return { id: user.id, email: user.email, username: user.username };
}

/** Creates an account; null when the email is taken. */
export async function createUser(
  db: DbOrTx,
  input: { email: string; username?: string | null; password: string },
  cost: ScryptCost = PASSWORD_COST,
) {
  const passwordHash = await hashPassword(input.password, cost);
  const rows = await db
    .insert(users)
    .values({ email: input.email.toLowerCase(), username: input.username || null, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, username: users.username });
  return rows[0] ?? null;
}

export async function countUsers(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return Number(row.n);
}
