import { randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { brand, RECOVERY_CODE_COUNT, STEP_UP_HOURS } from 'shared-api/contract';
import { sha256 } from '../base/crypto';
import type { DbOrTx } from '../base/db/connection';
import { sessions, staffRecoveryCodes, users } from './tables';

// TOTP as authenticator apps expect it (RFC 6238 defaults): SHA-1, 6 digits, 30-second steps.
const PERIOD_SECONDS = 30;
/** Codes of the step before and after now are accepted too (a phone's clock a little off). */
const WINDOW = 1;
/** Recovery codes: 10 letters and digits (no 0/O, 1/I/L), shown as two groups of five: ~50 bits each. */
const RECOVERY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

const totpFor = (secret: string, label: string) =>
  new TOTP({ issuer: brand.productName, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** When a step-up given at `at` ends. */
const stepUpEnds = (at: Date) => new Date(at.getTime() + STEP_UP_HOURS * 3600_000);

/** Until when a session's step-up holds (null: never given, or given longer ago than STEP_UP_HOURS). */
export function steppedUpUntil(steppedUpAt: Date | null, now = new Date()): Date | null {
  if (!steppedUpAt) return null;
  const until = stepUpEnds(steppedUpAt);
  return until > now ? until : null;
}

/**
 * Starts (or starts again) an enrolment: a new 160-bit secret, kept pending until a code from it is right. Null when
 * the account has enrolled already (a second factor is replaced only by an admin's reset, never by its own session).
 */
export async function startEnrolment(db: DbOrTx, user: { id: number; email: string }) {
  const secret = new Secret({ size: 20 }).base32;
  const [row] = await db
    .update(users)
    .set({ totpPendingSecret: secret })
    .where(and(eq(users.id, user.id), isNull(users.totpEnrolledAt)))
    .returning({ id: users.id });
  if (!row) return null;
  const uri = totpFor(secret, user.email).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrSvg };
}

/** The 30-second step a code is right for (within WINDOW of now), or null. */
function stepOf(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secret, '').validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

const newRecoveryCode = () => {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
};
/** Recovery codes are compared without case, spaces or dashes. */
const recoveryKey = (code: string) => sha256(code.toUpperCase().replace(/[^0-9A-Z]/g, ''));

/** Marks the session as having given the second factor now; until when it holds. */
async function stepUp(db: DbOrTx, sessionId: number): Promise<Date> {
  const [row] = await db.update(sessions).set({ steppedUpAt: sql`now()` }).where(eq(sessions.id, sessionId)).returning({ at: sessions.steppedUpAt });
  return stepUpEnds(row.at!);
}

/**
 * Ends an enrolment with the first right code from its pending secret: the secret becomes the account's, 10 recovery
 * codes are made (their hashes stored, the codes answered once) and the session is stepped up. Null for a wrong code,
 * 'not_enrolling' when no enrolment was started (or the account enrolled meanwhile, from another session).
 */
export async function confirmEnrolment(db: DbOrTx, user: { id: number; sessionId: number }, code: string, now = Date.now()) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ pending: users.totpPendingSecret })
      .from(users)
      .where(and(eq(users.id, user.id), isNull(users.totpEnrolledAt), isNotNull(users.totpPendingSecret)))
      .for('update');
    if (!row?.pending) return 'not_enrolling' as const;
    const step = stepOf(row.pending, code, now);
    if (step === null) return null;
    await tx
      .update(users)
      .set({ totpSecret: row.pending, totpPendingSecret: null, totpEnrolledAt: sql`now()`, totpLastStep: step })
      .where(eq(users.id, user.id));
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, user.id));
    await tx.insert(staffRecoveryCodes).values(recoveryCodes.map((c) => ({ userId: user.id, codeHash: recoveryKey(c) })));
    return { recoveryCodes, steppedUpUntil: await stepUp(tx, user.sessionId) };
  });
}

export type VerifyResult =
  | { outcome: 'verified'; by: 'code' | 'recovery'; steppedUpUntil: Date; recoveryCodesLeft: number }
  | { outcome: 'wrong' | 'not_enrolled' };

/**
 * Checks a code from the app, or a recovery code, and steps the session up. An app code is accepted once: the step it
 * belongs to must be later than the last accepted one, claimed in one conditional UPDATE, so the same code sent to two
 * processes at once is accepted by one. A recovery code is spent the same way (its row's used_at).
 */
export async function verifySecondFactor(db: DbOrTx, user: { id: number; sessionId: number }, code: string, now = Date.now()): Promise<VerifyResult> {
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ secret: users.totpSecret }).from(users).where(eq(users.id, user.id));
    if (!account?.secret) return { outcome: 'not_enrolled' as const };
    let by: 'code' | 'recovery' | null = null;
    const step = stepOf(account.secret, code, now);
    if (step !== null) {
      const [claimed] = await tx
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      if (claimed) by = 'code';
    } else {
      const [spent] = await tx
        .update(staffRecoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(and(eq(staffRecoveryCodes.userId, user.id), eq(staffRecoveryCodes.codeHash, recoveryKey(code)), isNull(staffRecoveryCodes.usedAt)))
        .returning({ userId: staffRecoveryCodes.userId });
      if (spent) by = 'recovery';
    }
    if (!by) return { outcome: 'wrong' as const };
    const [left] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(staffRecoveryCodes)
      .where(and(eq(staffRecoveryCodes.userId, user.id), isNull(staffRecoveryCodes.usedAt)));
    return { outcome: 'verified' as const, by, steppedUpUntil: await stepUp(tx, user.sessionId), recoveryCodesLeft: left.n };
  });
}

/** An admin's reset of a colleague's second factor (a lost phone and no recovery codes): their email, or null (none set up). */
export async function resetSecondFactor(tx: DbOrTx, userId: number): Promise<string | null> {
  const [row] = await tx
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnrolledAt: null, totpLastStep: null })
    .where(and(eq(users.id, userId), isNotNull(users.totpEnrolledAt)))
    .returning({ email: users.email });
  if (!row) return null;
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await tx.update(sessions).set({ steppedUpAt: null }).where(eq(sessions.userId, userId));
  return row.email;
}
