import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection';
import { users } from '../db/schema';
import { getDummyHash, hashPassword, verifyPassword } from './passwords';

/** The account for this email and password, or null; an unknown email costs one scrypt like a wrong password. */
export async function checkCredentials(db: DbOrTx, email: string, password: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  const valid = await verifyPassword(password, user?.passwordHash ?? (await getDummyHash()));
  return user && valid ? { id: user.id, email: user.email, username: user.username } : null;
}

/** Creates an account; null when the email is taken. */
export async function createUser(db: DbOrTx, input: { email: string; username?: string | null; password: string }) {
  const passwordHash = await hashPassword(input.password);
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
