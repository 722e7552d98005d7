import { createHmac } from 'node:crypto';
import { and, count, eq, gt, gte, isNull, ne, or, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, ErrorCode, HoldMessage, type HoldChallenge, type HoldLimited } from 'shared-api/contract';
import type { Db, DbOrTx } from '../base/db/connection';
import type { HoldHolder } from './hold-rows';
import { slots } from '../slots';
import { AppError } from '../base/errors';
import { sharedSecret } from '../base/secrets';
import { issueHoldChallenge, redeemProof, type ProofVerdict } from './challenge';
import { networkOf, type NetworkBits } from '../base/client-address';

/*
 * Holds are scarce: a script must not empty the timetable by holding every slot. The unit is the client NETWORK (an
 * IPv4 /24, an IPv6 /56: one attacker easily has many addresses in one), never the single address.
 * - A network holds its first ALLOWANCE slots for free: 5, or 10 % of the bookable slots when that is less (at least 1).
 * - Past that, every further hold (a renewal too: payments/initiate.ts) needs a solved proof-of-work challenge (ALTCHA)
 *   whose work doubles with each hold over the allowance, and is multiplied by up to 4 as unheld slots get scarce.
 * - A network never holds more than a sixth of the bookable slots, or its allowance and two more when that is more (a
 *   parent's third try on a small timetable is never refused): past this ceiling a plain 429 with Retry-After, whatever
 *   work it offers. A sixth, not a fifth: a sixth of the timetable may be booked by others while its holds last (at
 *   most 15 minutes) before what it holds is a fifth of what is left.
 * - One live hold per email and per phone (checked when a payment starts, the first moment they are known).
 * - A slot's hold time per network, email and phone is capped (hold-time.ts).
 * - A waitlist offer is a hold like any other: charged to its entry's person and to the network that made the entry,
 *   within the same ceiling and hold time (checkout.ts `offer`); it is free of work (joining the list was not).
 * Every count is read from the slots themselves (keyed hashes in hold_client / hold_email / hold_phone) under
 * transaction-scoped advisory locks, so concurrent attempts on any number of API replicas cannot overshoot.
 */

export const FREE_HOLDS_PER_NETWORK = 5;
/** The client network the hold limits count by: IPv4 /24, IPv6 /56. */
export const HOLD_NETWORK_BITS: NetworkBits = { v4: 24, v6: 56 };
/** The work of the first hold over the allowance (SHA-256 digests; a tenth of a second on a slow phone); doubled for each further one. */
export const FIRST_PAID_HOLD_WORK = 2_000;
/** No challenge asks more (20 s on a slow phone, inside the dialog's 30 s solver limit); the ceiling bounds the rest. */
export const MAX_HOLD_WORK = 400_000;
/** The slow end of a browser's WebCrypto SHA-256 (a phone): what "a second of work" means here. */
export const PHONE_DIGESTS_PER_SECOND = 20_000;
/** The most a network is told to wait before asking again at its ceiling (a payment or a release may free a hold sooner). */
export const CEILING_RETRY_SECONDS = 30;

/** A network's live holds, the bookable slots and how many of those nobody holds, and when its first hold ends. */
export type NetworkHolds = { live: number; bookable: number; unheld: number; soonestEndSeconds: number | null };

export const holdAllowance = (bookable: number) => Math.min(FREE_HOLDS_PER_NETWORK, Math.max(1, Math.floor(bookable / 10)));
export const holdCeiling = (bookable: number) => Math.max(holdAllowance(bookable) + 2, Math.floor(bookable / 6));

/** 1 while at least half the bookable slots are unheld, rising to 4 as none are. */
export const scarcityFactor = (bookable: number, unheld: number) =>
  1 + 3 * Math.min(1, Math.max(0, 1 - (2 * unheld) / Math.max(1, bookable)));

/**
 * The work one more hold costs a network that, with it, holds `live` slots: 0 (free), digests to solve, or null (over
 * its ceiling: none at all for now).
 */
export function holdWork({ live, bookable, unheld }: Pick<NetworkHolds, 'live' | 'bookable' | 'unheld'>): number | null {
  if (live > holdCeiling(bookable)) return null;
  const level = live - holdAllowance(bookable);
  if (level <= 0) return 0;
  return Math.min(MAX_HOLD_WORK, Math.round(FIRST_PAID_HOLD_WORK * 2 ** (level - 1) * scarcityFactor(bookable, unheld)));
}

/** What an API client reads with a refused hold; parents see HoldMessage.limit (the dialog solves challenges itself). */
export const HoldLimitText = {
  challenge:
    'Many slots are on hold from your connection. Solve the proof-of-work challenge in data.challenge and send the request again with the solution as proofOfWork.',
  proofRefused:
    'That proof of work has expired, was already used, or was made for less work than a hold costs now. Solve the new challenge in data.challenge and send the request again.',
} as const;

/**
 * A refused hold: 429 with its code and Retry-After (seconds before asking again is worth it: 1 with a challenge, at
 * once with its solution); HOLD_LIMIT answers its challenge as `data` (answers.ts documents the body).
 */
export class HoldRefusal extends AppError {
  constructor(code: ErrorCode, message: string, retryAfter: number, challenge: HoldChallenge | null = null) {
    super(429, code, message, retryAfter);
    if (code === ErrorCode.HOLD_LIMIT) this.data = { challenge } satisfies HoldLimited;
  }
}

/** 429 HOLD_LIMIT, with a challenge that earns one more hold (null: no more holds for this network for now). */
export class HoldLimitError extends HoldRefusal {
  constructor(message: string, challenge: HoldChallenge | null, retryAfter = 1) {
    super(ErrorCode.HOLD_LIMIT, message, retryAfter, challenge);
  }
}

/** The advisory lock keys of a holder's hashes (and another network's), ascending, as a VALUES list. */
function lockKeys(holder: HoldHolder, alsoNetwork?: string | null) {
  const keys = [...new Set([holder.client, holder.email, holder.phone, alsoNetwork].filter((k): k is string => !!k))]
    .map((k) => BigInt.asIntN(64, BigInt(`0x${k.slice(0, 16)}`)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sql.join(
    keys.map((key) => sql`(${key.toString()}::bigint)`),
    sql`, `,
  );
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

  /** The keyed hash of the client network `ip` is in (IPv4 /24, IPv6 /56): what holds are counted by. */
  network(ip: string): string {
    return this.hash('client', networkOf(ip, HOLD_NETWORK_BITS));
  }

  /** The holder for a request from `ip` (by its network), with the visitor's email and phone once they are known. */
  holder(ip: string, visitor?: { visitorEmail: string; visitorContactNo: string }): HoldHolder {
    return { client: this.network(ip), ...(visitor && this.person(visitor.visitorEmail, visitor.visitorContactNo)) };
  }

  /** A person's keys, as a visitor's are hashed (email in lower case, the phone's digits). */
  person(email: string, phone: string): { email: string; phone: string } {
    return { email: this.hash('email', email.trim().toLowerCase()), phone: this.hash('phone', phone.replace(/\D/g, '')) };
  }

  /** This process's queue of hold transactions per network (see transaction()). */
  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * Runs `fn` in a transaction under this holder's advisory locks (lock(); with `alsoNetwork`'s, all in one ascending
   * order). Within this process one such transaction per network runs at a time and the others wait here, in memory,
   * rather than each holding a database connection while it waits for the lock: a crowd behind one carrier network
   * would otherwise take every connection of the pool. The locks, not this queue, keep the limits exact across replicas.
   */
  async transaction<T>(db: Db, holder: HoldHolder, fn: (tx: DbOrTx) => Promise<T>, alsoNetwork?: string | null): Promise<T> {
    const turn = (this.queues.get(holder.client) ?? Promise.resolve()).then(() =>
      db.transaction(async (tx) => {
        await this.lock(tx, holder, alsoNetwork);
        return fn(tx);
      }),
    );
    const done = turn.catch(() => undefined);
    this.queues.set(holder.client, done);
    try {
      return await turn;
    } finally {
      if (this.queues.get(holder.client) === done) this.queues.delete(holder.client);
    }
  }

  /**
   * Serialises this holder's hold attempts, on every replica, until the transaction ends: one advisory lock per key,
   * taken in ascending order (in one statement) so two holders sharing an email and a phone can never wait on each
   * other in a cycle.
   */
  async lock(tx: DbOrTx, holder: HoldHolder, alsoNetwork?: string | null): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(k) FROM (SELECT k FROM (VALUES ${lockKeys(holder, alsoNetwork)}) AS v (k) ORDER BY k) AS ascending`);
  }

  /**
   * The same locks without waiting (the offer pass, which already holds slot rows a reserve may be waiting for): true
   * when all were taken; false when another transaction holds one (the caller tries again on its next pass).
   */
  async tryLock(tx: DbOrTx, holder: HoldHolder): Promise<boolean> {
    const result = (await tx.execute(
      sql`SELECT bool_and(pg_try_advisory_xact_lock(k)) AS locked FROM (SELECT k FROM (VALUES ${lockKeys(holder)}) AS v (k) ORDER BY k) AS ascending`,
    )) as unknown as { rows: { locked: boolean }[] };
    return result.rows[0]?.locked === true;
  }

  /** The network's live holds and when the first ends, the bookable slots and how many nobody holds (one query). */
  async networkHolds(tx: DbOrTx, client: string): Promise<NetworkHolds> {
    const bookable = and(
      isNull(slots.deletedAt),
      eq(slots.status, 'available'),
      gte(slots.startAt, sql`now() + make_interval(mins => ${BOOKING_LEAD_HOURS * 60})`),
    );
    const own = and(eq(slots.holdClient, client), liveHold);
    const [row] = await tx
      .select({
        live: sql<number>`(SELECT count(*) FROM ${slots} WHERE ${own})`.mapWith(Number),
        soonestEnd: sql<number | null>`(SELECT EXTRACT(EPOCH FROM min(${slots.holdExpiresAt}) - now()) FROM ${slots} WHERE ${own})`,
        bookable: count(),
        held: sql<number>`count(*) FILTER (WHERE ${slots.holdExpiresAt} > now())`.mapWith(Number),
      })
      .from(slots)
      .where(bookable);
    const soonestEndSeconds = row.soonestEnd === null ? null : Number(row.soonestEnd);
    return { live: row.live, bookable: row.bookable, unheld: row.bookable - row.held, soonestEndSeconds };
  }

  /**
   * Before any lock: refuses at once a new hold that admit() would refuse as things stand (past the ceiling, or over the
   * allowance without a proof: here is its challenge), so a crowd on one network does not queue on its lock, each
   * holding a database connection, only to be refused. admit() still decides, under the lock.
   */
  async screen(db: DbOrTx, holder: HoldHolder, proof?: string, seats = 1): Promise<void> {
    const holds = await this.networkHolds(db, holder.client);
    // As admit() would count it with the new hold written: each seat (one per child) is a hold.
    const withIt = { ...holds, live: holds.live + seats, unheld: Math.max(0, holds.unheld - seats) };
    const work = holdWork(withIt);
    if (work === null || (work > 0 && !proof)) throw await this.refusal(withIt, holder, work, 'missing');
  }

  /**
   * Called right after a hold was written or renewed in `tx` (so the count includes it): free, or only with a valid
   * proof for this network and at least half the work it costs now; otherwise HoldLimitError is thrown, which rolls
   * the hold back.
   */
  async admit(tx: DbOrTx, holder: HoldHolder, proof?: string): Promise<void> {
    const holds = await this.networkHolds(tx, holder.client);
    const work = holdWork(holds);
    if (work === 0) return;
    const verdict = work !== null && proof ? await redeemProof(tx, this.challengeKey, proof, holder.client, work) : 'missing';
    if (verdict === 'ok') return;
    throw await this.refusal(holds, holder, work, verdict);
  }

  /** 429 HOLD_LIMIT: past the ceiling with Retry-After (a payment or release may free a hold sooner), else a fresh challenge. */
  private async refusal(holds: NetworkHolds, holder: HoldHolder, work: number | null, verdict: ProofVerdict): Promise<HoldLimitError> {
    if (work === null) return new HoldLimitError(HoldMessage.limit, null, Math.min(CEILING_RETRY_SECONDS, Math.max(1, Math.ceil(holds.soonestEndSeconds ?? 1))));
    const challenge = await issueHoldChallenge(this.challengeKey, holder.client, work, holds.live - holdAllowance(holds.bookable));
    return new HoldLimitError(verdict === 'missing' ? HoldLimitText.challenge : HoldLimitText.proofRefused, challenge);
  }

  /**
   * True when this visitor's email or phone holds another slot than `slotId` (one live hold per email and per phone);
   * the other seats of the visitor's own hold (`tokenHash`: one per child, issue 37) are not another hold.
   */
  async visitorHoldsAnother(tx: DbOrTx, holder: HoldHolder, slotId: number, tokenHash?: string): Promise<boolean> {
    if (!holder.email || !holder.phone) return false;
    const [row] = await tx
      .select({ id: slots.id })
      .from(slots)
      .where(
        and(
          ne(slots.id, slotId),
          tokenHash ? sql`${slots.holdTokenHash} <> ${tokenHash}` : undefined,
          liveHold,
          or(eq(slots.holdEmail, holder.email), eq(slots.holdPhone, holder.phone)),
        ),
      )
      .limit(1);
    return !!row;
  }
}
