import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';
import type { StaffRole } from 'shared-api/contract';
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
  input: { email: string; username?: string | null; password: string; role?: StaffRole },
  cost: ScryptCost = PASSWORD_COST,
) {
  return insertUser(db, { ...input, passwordHash: await hashPassword(input.password, cost) });
}

/** Stores an account whose password is already hashed; null when the email is taken. The first account is admin. */
export async function insertUser(db: DbOrTx, input: { email: string; username?: string | null; passwordHash: string; role?: StaffRole }) {
  const role = input.role ?? 'staff';
  const rows = await db
    .insert(users)
    .values({
      email: input.email.toLowerCase(),
      username: input.username || null,
      passwordHash: input.passwordHash,
      role: sql<StaffRole>`CASE WHEN EXISTS (SELECT 1 FROM users) THEN ${role} ELSE 'admin' END`,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, username: users.username, role: users.role });
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
      role: users.role,
      secondFactor: sql<boolean>`${users.totpEnrolledAt} IS NOT NULL`,
      createdAt: users.createdAt,
      lastLoginAt: users.lastLoginAt,
      disabledAt: users.disabledAt,
    })
    .from(users)
    .orderBy(asc(users.createdAt), asc(users.id));
}

export type DisableResult = 'disabled' | 'already' | 'not_found' | 'last_active' | 'last_admin';

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
    const active = await tx.select({ id: users.id, role: users.role }).from(users).where(isNull(users.disabledAt)).orderBy(asc(users.id)).for('update');
    const target = active.find((u) => u.id === userId);
    if (!target) {
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return exists ? 'already' : 'not_found';
    }
    if (active.length <= 1) return 'last_active';
    if (target.role === 'admin' && active.filter((u) => u.role === 'admin').length <= 1) return 'last_admin';
    const [disabled] = await tx.update(users).set({ disabledAt: sql`now()` }).where(eq(users.id, userId)).returning({ email: users.email });
    await revokeAllSessions(tx, userId);
    await onDisabled?.(tx, disabled.email);
    return 'disabled';
  });
}

export type RoleResult = { outcome: 'changed' | 'same'; from: StaffRole } | { outcome: 'not_found' | 'last_admin' };

/**
 * Sets an account's role. The enabled accounts are locked first (FOR UPDATE), as for a disable, so two admins making
 * each other staff at once, from any process, cannot leave no enabled admin. `onChanged` runs in the same transaction.
 */
export async function setRole(
  db: DbOrTx,
  userId: number,
  role: StaffRole,
  onChanged?: (tx: DbOrTx, account: { email: string; from: StaffRole }) => Promise<void>,
): Promise<RoleResult> {
  return db.transaction(async (tx) => {
    const active = await tx.select({ id: users.id, role: users.role }).from(users).where(isNull(users.disabledAt)).orderBy(asc(users.id)).for('update');
    const [account] = await tx.select({ email: users.email, role: users.role }).from(users).where(eq(users.id, userId));
    if (!account) return { outcome: 'not_found' as const };
    if (account.role === role) return { outcome: 'same' as const, from: account.role };
    const otherAdmins = active.filter((u) => u.role === 'admin' && u.id !== userId).length;
    if (account.role === 'admin' && otherAdmins === 0) return { outcome: 'last_admin' as const };
    await tx.update(users).set({ role }).where(eq(users.id, userId));
    await onChanged?.(tx, { email: account.email, from: account.role });
    return { outcome: 'changed' as const, from: account.role };
  });
}

/** The emails of the enabled admins (a breach mailing needs two of them where there are two). */
export async function enabledAdminEmails(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).where(and(eq(users.role, 'admin'), isNull(users.disabledAt)));
  return rows.map((r) => r.email);
}
