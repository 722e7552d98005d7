import { createHmac } from 'node:crypto';
import { and, count, eq, gt, gte, isNull, ne, or, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, ErrorCode, HoldMessage, type HoldChallenge, type HoldLimited } from 'shared-api/contract';
import { clientNetwork } from '../auth/login-limits';
import type { Db, DbOrTx } from '../db/connection';
import { slots } from '../db/schema';
import { AppError } from '../errors';
import { sharedSecret } from '../secrets';
import { issueHoldChallenge, redeemProof } from './hold-challenge';

/*
 * Holds are scarce: a script must not empty the timetable by holding every slot.
 * - One client (its address; an IPv6 address by its /64) holds its first ALLOWANCE slots for free: 5, or 10 % of the
 *   bookable slots when that is less (at least 1).
 * - Past that, every further hold needs a solved proof-of-work challenge (ALTCHA), whose work grows linearly with how
 *   far over the allowance the client is: holding N slots costs ~N² work, a parent behind a carrier NAT pays well under
 *   a second on a phone for one more. Past a ceiling (allowance + the larger of 20 and half the bookable slots) none.
 * - One live hold per email and per phone (checked when a payment starts, the first moment they are known).
 * Every count is read from the slots themselves (keyed hashes in hold_client / hold_email / hold_phone) under
 * transaction-scoped advisory locks, so concurrent attempts on any number of API replicas cannot overshoot.
 */

export const FREE_HOLDS_PER_CLIENT = 5;

/** Who asks for a hold, as keyed hashes (HMAC; the raw address, email and phone are never stored). */
export type HoldHolder = { client: string; email?: string; phone?: string };

/** The client's live holds, and what it may hold given the bookable slots. */
export type ClientHolds = { live: number; allowance: number; ceiling: number };

export const holdAllowance = (bookable: number) => Math.min(FREE_HOLDS_PER_CLIENT, Math.max(1, Math.floor(bookable / 10)));
export const holdCeiling = (bookable: number) => holdAllowance(bookable) + Math.max(20, Math.floor(bookable / 2));

/** What an API client reads with a refused hold; parents see HoldMessage.limit (the dialog solves challenges itself). */
export const HoldLimitText = {
  challenge:
    'Many slots are on hold from your connection. Solve the proof-of-work challenge in data.challenge and send the request again with the solution as proofOfWork.',
  proofRefused:
    'That proof of work has expired, was already used, or was made for fewer holds. Solve the new challenge in data.challenge and send the request again.',
  visitorHasHold:
    'You already have another slot on hold with this email address or phone number. Finish or cancel that booking first, or try again when its hold ends (within 15 minutes).',
} as const;

/** 429 HOLD_LIMIT, with a challenge that earns one more hold (null: no more holds for this client for now). */
export class HoldLimitError extends AppError {
  constructor(
    message: string,
    readonly challenge: HoldChallenge | null,
  ) {
    super(429, ErrorCode.HOLD_LIMIT, message);
  }

  /** The 429 answer's body. */
  answer(): { success: false; data: HoldLimited; message: string; error: string } {
    return { success: false, data: { challenge: this.challenge }, message: this.message, error: this.code };
  }
}

const liveHold = and(eq(slots.status, 'available'), isNull(slots.deletedAt), gt(slots.holdExpiresAt, sql`now()`));

/** The hold limits of one database: its keys are read once (shared by every replica through app_secrets). */
export class HoldLimits {
  private static readonly loaded = new WeakMap<Db, Promise<HoldLimits>>();

  static load(db: Db): Promise<HoldLimits> {
    let limits = HoldLimits.loaded.get(db);
    if (!limits) {
      limits = Promise.all([sharedSecret(db, 'hold-identity'), sharedSecret(db, 'altcha-hmac')]).then(
        ([identityKey, challengeKey]) => new HoldLimits(identityKey, challengeKey),
      );
      limits.catch(() => HoldLimits.loaded.delete(db));
      HoldLimits.loaded.set(db, limits);
    }
    return limits;
  }

  private constructor(
    private readonly identityKey: string,
    private readonly challengeKey: string,
  ) {}

  private hash(kind: string, value: string): string {
    return createHmac('sha256', this.identityKey).update(`${kind}\n${value}`).digest('hex').slice(0, 32);
  }

  /** The holder for a request from `ip`, with the visitor's email and phone once they are known. */
  holder(ip: string, visitor?: { visitorEmail: string; visitorContactNo: string }): HoldHolder {
    return {
      client: this.hash('client', clientNetwork(ip)),
      email: visitor && this.hash('email', visitor.visitorEmail.trim().toLowerCase()),
      phone: visitor && this.hash('phone', visitor.visitorContactNo.replace(/\D/g, '')),
    };
  }

  /**
   * Serialises this holder's hold attempts, on every replica, until the transaction ends: one advisory lock per key,
   * taken in ascending order so two holders sharing an email and a phone can never wait on each other in a cycle.
   */
  async lock(tx: DbOrTx, holder: HoldHolder): Promise<void> {
    const keys = [...new Set([holder.client, holder.email, holder.phone].filter((k): k is string => !!k))]
      .map((k) => BigInt.asIntN(64, BigInt(`0x${k.slice(0, 16)}`)))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of keys) await tx.execute(sql`SELECT pg_advisory_xact_lock(${key.toString()}::bigint)`);
  }

  /** The client's live holds (one query), and its allowance and ceiling from the slots bookable now. */
  async clientHolds(tx: DbOrTx, client: string): Promise<ClientHolds> {
    const bookable = and(
      isNull(slots.deletedAt),
      eq(slots.status, 'available'),
      gte(slots.startAt, sql`now() + make_interval(mins => ${BOOKING_LEAD_HOURS * 60})`),
    );
    const [row] = await tx
      .select({
        live: sql<number>`(SELECT count(*) FROM ${slots} WHERE ${and(eq(slots.holdClient, client), liveHold)})`.mapWith(Number),
        bookable: count(),
      })
      .from(slots)
      .where(bookable);
    return { live: row.live, allowance: holdAllowance(row.bookable), ceiling: holdCeiling(row.bookable) };
  }

  /**
   * Called right after a new hold was written in `tx` (so the count includes it): under the allowance it stands; over
   * it, only with a valid proof for this client and level; otherwise HoldLimitError is thrown, which rolls the hold back.
   */
  async admit(tx: DbOrTx, holder: HoldHolder, proof?: string): Promise<void> {
    const { live, allowance, ceiling } = await this.clientHolds(tx, holder.client);
    if (live <= allowance) return;
    if (live > ceiling) throw new HoldLimitError(HoldMessage.limit, null);
    const level = live - allowance;
    const verdict = proof ? await redeemProof(tx, this.challengeKey, proof, holder.client, level) : 'missing';
    if (verdict === 'ok') return;
    const challenge = await issueHoldChallenge(this.challengeKey, holder.client, level);
    throw new HoldLimitError(verdict === 'missing' ? HoldLimitText.challenge : HoldLimitText.proofRefused, challenge);
  }

  /** True when this visitor's email or phone holds another slot than `slotId` (one live hold per email and per phone). */
  async visitorHoldsAnother(tx: DbOrTx, holder: HoldHolder, slotId: number): Promise<boolean> {
    if (!holder.email || !holder.phone) return false;
    const [row] = await tx
      .select({ id: slots.id })
      .from(slots)
      .where(and(ne(slots.id, slotId), liveHold, or(eq(slots.holdEmail, holder.email), eq(slots.holdPhone, holder.phone))))
      .limit(1);
    return !!row;
  }
}
