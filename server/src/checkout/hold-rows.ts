import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, BookingMessage, ErrorCode } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { AppError } from '../base/errors';
import { sha256, newToken } from '../base/crypto';
import { findSlot, publiclyBookable, SlotNotFoundMessage, type BookedVisitor } from '../slots';
import { slots, type SlotRow } from '../slots';

// The only statements that write a slot's hold columns (hold_token_hash, hold_expires_at, hold_client, hold_email,
// hold_phone) and number its freeings (freed_seq): server/test/checkout/one-owner.test.ts fails on any other writer.
// Every function takes a database or an open transaction, so a caller's change and its hold commit together.

/** An instant for SQL: the given one (a caller's own clock: the waitlist's) or the database's now(). */
export const instant = (at?: Date): SQL => (at ? sql`${at.toISOString()}::timestamptz` : sql`now()`);
/** The next number of a slot's freeing (migration 0029). */
const nextFreeing = sql`nextval('slot_freed_seq')`;

export type Refusal = { ok: false; status: number; code: ErrorCode; message: string };
/** Answers a refusal as its error. */
export const refuse = (r: Refusal): never => {
  throw new AppError(r.status, r.code, r.message);
};

const notAvailable: Refusal = { ok: false, status: 409, code: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.slotNotAvailable };

type SlotState = { status: string; deleted: boolean; heldByOther: boolean };

/**
 * The one wording of a refused slot: missing (NOT_FOUND), deleted or booked (SLOT_NOT_AVAILABLE), or held by another
 * token (SLOT_RESERVED); null when the state shows no reason.
 */
function refusalOf(state: SlotState | undefined): Refusal | null {
  if (!state) return { ok: false, status: 404, code: ErrorCode.NOT_FOUND, message: SlotNotFoundMessage };
  if (state.deleted || state.status !== 'available') return notAvailable;
  if (state.heldByOther) return { ok: false, status: 409, code: ErrorCode.SLOT_RESERVED, message: BookingMessage.slotReserved };
  return null;
}

const stateOf = (row: SlotRow, holdTokenHash: string | null): SlotState => ({
  status: row.status,
  deleted: row.deletedAt !== null,
  heldByOther: row.holdExpiresAt !== null && row.holdExpiresAt > new Date() && row.holdTokenHash !== holdTokenHash,
});

/** Why a conditional UPDATE on this slot matched nothing (read after the fact; only the wording depends on it). */
async function explainRefusal(db: DbOrTx, slotId: number, holdTokenHash: string | null): Promise<Refusal> {
  const row = await findSlot(db, slotId);
  return refusalOf(row && stateOf(row, holdTokenHash)) ?? notAvailable;
}

/** The refusal a slot row already shows; null when only a conditional UPDATE can tell. */
export const visibleRefusal = (row: SlotRow, holdTokenHash: string | null): Refusal | null => refusalOf(stateOf(row, holdTokenHash));

/** Who holds a slot: keyed hashes of the client's network, the visitor's email and phone. */
export type HoldHolder = { client: string; email?: string; phone?: string };

/** `slotIds`: every seat of a hold of several (one per child, issue 37), `slotId` first. */
export type Hold = { slotId: number; token: string; expiresAt: Date; slotIds?: number[] };

/** The seat to hold for a parent who chose `slotId`: that one while it shows no refusal, else a free seat of its time (issue 37). */
export async function seatToHold(db: DbOrTx, slotId: number): Promise<number> {
  const asked = await findSlot(db, slotId);
  if (!asked || visibleRefusal(asked, null) === null) return slotId;
  const [other] = await db
    .select({ id: slots.id })
    .from(slots)
    .where(and(eq(slots.startAt, asked.startAt), publiclyBookable()))
    .orderBy(asc(slots.seat))
    .limit(1);
  return other?.id ?? slotId;
}

/**
 * Holds a bookable slot for `minutes` from `at` (the database's now by default), recording who holds it (for the hold
 * limits); the token (new unless the caller brings its own) is returned once and stored only as its SHA-256. The
 * caller then grants its time (hold-time.ts), which may end it sooner. `anySeat`: when this seat is gone, another free
 * seat of the same time will do (issue 37; the answer names the seat held).
 */
export async function takeHoldRow(
  db: DbOrTx,
  slotId: number,
  minutes: number,
  by: { holder: HoldHolder; token?: string; at?: Date; anySeat?: boolean },
): Promise<Hold | Refusal> {
  const token = by.token ?? newToken();
  const hold = {
    holdTokenHash: sha256(token),
    holdExpiresAt: sql`${instant(by.at)} + make_interval(secs => ${minutes * 60})`,
    holdClient: by.holder.client,
    holdEmail: by.holder.email ?? null,
    holdPhone: by.holder.phone ?? null,
  };
  const [row] = await db
    .update(slots)
    .set(hold)
    .where(and(eq(slots.id, slotId), publiclyBookable()))
    .returning({ id: slots.id, holdExpiresAt: slots.holdExpiresAt });
  if (row) return { slotId: row.id, token, expiresAt: row.holdExpiresAt! };
  // Another seat of this time, never one another request is taking right now (SKIP LOCKED): each seat its own row.
  const [other] = by.anySeat
    ? await db
        .update(slots)
        .set(hold)
        .where(
          and(
            sql`${slots.id} = (
              SELECT seat.id FROM slots AS seat
              WHERE seat.start_at = (SELECT start_at FROM slots WHERE id = ${slotId}) AND seat.id <> ${slotId}
                AND seat.deleted_at IS NULL AND seat.status = 'available' AND (seat.hold_expires_at IS NULL OR seat.hold_expires_at <= now())
              ORDER BY seat.seat FOR UPDATE SKIP LOCKED LIMIT 1)`,
            publiclyBookable(),
          ),
        )
        .returning({ id: slots.id, holdExpiresAt: slots.holdExpiresAt })
    : [];
  if (other) return { slotId: other.id, token, expiresAt: other.holdExpiresAt! };
  return explainRefusal(db, slotId, null);
}

/**
 * The caller's own live hold (its token), tagged with the visitor's email and phone, in one conditional UPDATE: only
 * while this token holds the slot, the hold has not ended, and the slot is still available and bookable by lead time.
 * It stays counted for the network that took it (moving it would free that network's allowance). Its end, or null.
 */
export async function claimOwnHoldRow(db: DbOrTx, slotId: number, token: string, holder: HoldHolder): Promise<Date | null> {
  // Every seat the token holds (one per child, issue 37) is tagged: the one-hold-per-email rule sees them all.
  const rows = await db
    .update(slots)
    .set({ holdEmail: holder.email ?? null, holdPhone: holder.phone ?? null })
    .where(
      and(
        eq(slots.status, 'available'),
        sql`${slots.deletedAt} IS NULL AND ${slots.startAt} >= now() + make_interval(mins => ${BOOKING_LEAD_HOURS * 60})`,
        eq(slots.holdTokenHash, sha256(token)),
        sql`${slots.holdExpiresAt} > now()`,
      ),
    )
    .returning({ id: slots.id, holdExpiresAt: slots.holdExpiresAt });
  return rows.find((row) => row.id === slotId)?.holdExpiresAt ?? null;
}

/** The seats a hold's token holds now (one per child of its checkout, issue 37), in seat order. */
export async function heldSeatsOf(db: DbOrTx, token: string): Promise<number[]> {
  const rows = await db
    .select({ id: slots.id })
    .from(slots)
    .where(and(eq(slots.holdTokenHash, sha256(token)), eq(slots.status, 'available'), sql`${slots.deletedAt} IS NULL AND ${slots.holdExpiresAt} > now()`))
    .orderBy(asc(slots.seat));
  return rows.map((row) => row.id);
}

/** Gives back some seats of a hold (a parent who now books fewer children), each with its hold time. */
export async function releaseSeatRows(db: DbOrTx, seatIds: number[], token: string): Promise<void> {
  if (seatIds.length === 0) return;
  const rows = await db
    .update(slots)
    .set({ holdTokenHash: null, holdExpiresAt: null, freedSeq: nextFreeing })
    .where(and(inArray(slots.id, seatIds), eq(slots.holdTokenHash, sha256(token)), eq(slots.status, 'available')))
    .returning({ id: slots.id });
  for (const row of rows) await endHoldTime(db, row.id, token);
}

export const HoldInvalidMessage = 'This hold has already ended or the token does not match this slot.';

/**
 * Ends a hold when the token matches (expired or not), and its granted hold time with it; changes nothing otherwise.
 * A hold of several seats (issue 37) ends whole: every seat its token holds at that time.
 */
export async function releaseHoldRow(db: DbOrTx, slotId: number, token: string): Promise<boolean> {
  const rows = await db
    .update(slots)
    .set({ holdTokenHash: null, holdExpiresAt: null, freedSeq: nextFreeing })
    .where(
      and(
        eq(slots.holdTokenHash, sha256(token)),
        eq(slots.status, 'available'),
        // Only when the token holds the seat named: a wrong pair changes nothing.
        sql`EXISTS (SELECT 1 FROM slots AS asked WHERE asked.id = ${slotId} AND asked.start_at = slots.start_at
                    AND asked.hold_token_hash = ${sha256(token)} AND asked.status = 'available')`,
      ),
    )
    .returning({ id: slots.id });
  for (const row of rows) await endHoldTime(db, row.id, token);
  return rows.length > 0;
}

/**
 * Gives back the seats a waitlist offer held (one per child of its entry, issue 37; its token is the offer's own): only
 * while the offer's token still holds them and no payment has taken the hold past the offer's end (that payment's own
 * end releases it: the product's late-payment path). `at`: the offer's clock.
 */
export async function releaseOfferHoldRow(db: DbOrTx, offer: { slotId: number; holdToken: string; expiresAt: Date }, at: Date): Promise<void> {
  await db.execute(sql`
    UPDATE slots SET hold_token_hash = NULL, hold_expires_at = NULL, freed_seq = ${nextFreeing}
    WHERE hold_token_hash = ${sha256(offer.holdToken)} AND status = 'available'
      AND start_at = (SELECT start_at FROM slots WHERE id = ${offer.slotId})
      AND (hold_expires_at IS NULL OR hold_expires_at <= ${instant(offer.expiresAt)} OR hold_expires_at <= ${instant(at)})`);
}

/**
 * Clears holds that ran out (the database's clock), so each such freeing is numbered like any other: the waitlist
 * sees the slot freed. The slots' ids; a lapsed hold was already free to book before this.
 */
export async function clearLapsedHoldRows(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .update(slots)
    .set({ holdTokenHash: null, holdExpiresAt: null, freedSeq: nextFreeing })
    .where(and(sql`${slots.holdTokenHash} IS NOT NULL AND ${slots.holdExpiresAt} <= now()`, eq(slots.status, 'available')))
    .returning({ id: slots.id });
  return rows.map((r) => r.id);
}

export const newBookingReference = (): string => `BK-${randomBytes(5).toString('hex').toUpperCase()}`;

/** Locks slot rows in id order: two changes crossing each other (a move and its reverse) wait instead of deadlocking. */
export async function lockSlotsInOrder(tx: DbOrTx, ids: number[]): Promise<void> {
  await tx.select({ id: slots.id }).from(slots).where(inArray(slots.id, ids)).orderBy(asc(slots.id)).for('update');
}

export type BookInput = {
  slotId: number;
  visitor: BookedVisitor;
  /** The hold token of this visitor: lets them book their own held slot (the lead time was checked when the hold was taken). */
  holdToken?: string | null;
  bookingReference?: string;
  amountSen?: number | null;
  leadHours?: number;
  /** The booking's consent to the privacy notice (`consents`): a booked slot always names one (migration 0022). */
  consentId: number;
};

type BookAttemptRow = { won_id: number | null; status: string | null; deleted: boolean | null; held_by_other: boolean | null };

/**
 * Books a slot in ONE conditional UPDATE ... WHERE ... RETURNING: only a live, available slot that nobody else holds
 * (or that this caller holds) and that starts at least the lead time ahead is written, so two callers can never both win.
 * The same statement reads the slot's state beforehand (a CTE), only to word a refusal without a second round trip, and
 * ends the hold time of the caller's hold: a hold paid within seconds has counted only those seconds.
 */
export async function bookSlotRow(db: DbOrTx, input: BookInput): Promise<{ ok: true; slot: SlotRow } | Refusal> {
  const tokenHash = input.holdToken ? sha256(input.holdToken) : null;
  const lead = sql`now() + make_interval(mins => ${Math.round((input.leadHours ?? BOOKING_LEAD_HOURS) * 60)})`;
  const freeAndAhead = sql`(hold_expires_at IS NULL OR hold_expires_at <= now()) AND start_at >= ${lead}`;
  // The holder may book their own hold (the lead time was checked when it was taken) while the slot is still ahead.
  const mayBook = tokenHash ? sql`((hold_token_hash = ${tokenHash} AND start_at > now()) OR (${freeAndAhead}))` : freeAndAhead;
  const v = input.visitor;
  const result = (await db.execute(sql`
    WITH before AS (
      SELECT status, deleted_at IS NOT NULL AS deleted,
             (hold_expires_at > now() AND hold_token_hash IS DISTINCT FROM ${tokenHash}::text) AS held_by_other
      FROM slots WHERE id = ${input.slotId}
    ), won AS (
      UPDATE slots SET
        status = 'booked',
        visitor_name = ${v.visitorName}, visitor_email = ${v.visitorEmail},
        visitor_contact_no = ${v.visitorContactNo}, selected_school = ${v.selectedSchool},
        child_name = ${v.childName}::text, child_year = ${v.childYear}::text,
        booking_reference = ${input.bookingReference ?? newBookingReference()},
        amount_sen = ${input.amountSen ?? null}::integer, consent_id = ${input.consentId}::integer,
        booked_at = now(), hold_token_hash = NULL, hold_expires_at = NULL
      WHERE id = ${input.slotId} AND deleted_at IS NULL AND status = 'available' AND ${mayBook}
      RETURNING id
    ), held_until_now AS (
      UPDATE hold_grants SET ends_at = GREATEST(started_at, now())
      WHERE slot_id = ${input.slotId} AND token_hash = ${tokenHash}::text AND ends_at > now() AND EXISTS (SELECT 1 FROM won)
    )
    SELECT (SELECT id FROM won) AS won_id, before.status, before.deleted, before.held_by_other
    FROM (SELECT 1) AS one LEFT JOIN before ON true`)) as unknown as { rows: BookAttemptRow[] };
  const outcome = result.rows[0];
  if (outcome?.won_id != null) return { ok: true, slot: (await findSlot(db, input.slotId))! };
  const before = outcome?.status == null ? undefined : { status: outcome.status, deleted: Boolean(outcome.deleted), heldByOther: Boolean(outcome.held_by_other) };
  // A stale "available" with no other holder here means a concurrent booking won: that is "not available".
  return refusalOf(before) ?? notAvailable;
}

/**
 * Frees a booked slot that carries `bookingReference` (a moved or cancelled booking): available again, its visitor,
 * reference, amount and any hold cleared, so it is on the public list at once. False when the slot does not carry it.
 */
export async function freeBookedSlotRow(db: DbOrTx, slotId: number, bookingReference: string): Promise<boolean> {
  const rows = await db
    .update(slots)
    .set({
      status: 'available',
      visitorName: null,
      visitorEmail: null,
      visitorContactNo: null,
      selectedSchool: null,
      childName: null,
      childYear: null,
      bookingReference: null,
      amountSen: null,
      bookedAt: null,
      consentId: null,
      holdTokenHash: null,
      holdExpiresAt: null,
      holdClient: null,
      holdEmail: null,
      holdPhone: null,
      freedSeq: nextFreeing,
    })
    .where(and(eq(slots.id, slotId), eq(slots.status, 'booked'), eq(slots.bookingReference, bookingReference)))
    .returning({ id: slots.id });
  return rows.length > 0;
}

/** A released hold's grants end now: the rest of its time is not counted. */
export async function endHoldTime(db: DbOrTx, slotId: number, token: string): Promise<void> {
  await db.execute(sql`UPDATE hold_grants SET ends_at = GREATEST(started_at, now()) WHERE slot_id = ${slotId} AND token_hash = ${sha256(token)} AND ends_at > now()`);
}
