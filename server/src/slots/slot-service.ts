import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  BOOKING_LEAD_HOURS,
  BookingMessage,
  ErrorCode,
  SLOT_MINUTES,
  SlotAddMessage,
  SlotPlanMessage,
  dayInMY,
  formatMinutes12,
  inMY,
  isWeekend,
  LATEST_SLOT_START_MINUTES,
  latestSlotDateInMY,
  slotEndMinutes,
  slotStart,
  parseSlotTime,
  todayInMY,
  type VisitorDetails,
} from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { slots, type SlotRow } from './tables';
import { AppError } from '../base/errors';
import { sha256, newToken } from '../base/crypto';

// Every function takes a database or an open transaction, so the payment callback can book inside its own transaction.

const leadCutoff = (leadHours: number) => sql`now() + make_interval(mins => ${Math.round(leadHours * 60)})`;
const noLiveHold = or(isNull(slots.holdExpiresAt), lte(slots.holdExpiresAt, sql`now()`)) as SQL;

/** Live, available, not held, and at least the lead time ahead: what the public may see and book. */
export const publiclyBookable = (leadHours = BOOKING_LEAD_HOURS): SQL =>
  and(isNull(slots.deletedAt), eq(slots.status, 'available'), gte(slots.startAt, leadCutoff(leadHours)), noLiveHold) as SQL;

export async function listPublicSlots(db: DbOrTx, page: { limit: number; page: number }) {
  const where = publiclyBookable();
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(slots)
      .where(where)
      .orderBy(asc(slots.startAt), asc(slots.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: count() }).from(slots).where(where),
  ]);
  return { rows, total: Number(total) };
}

export async function listStaffSlots(db: DbOrTx, isBooked?: boolean): Promise<SlotRow[]> {
  const filter =
    isBooked === undefined ? undefined : isBooked ? eq(slots.status, 'booked') : eq(slots.status, 'available');
  return db
    .select()
    .from(slots)
    .where(and(isNull(slots.deletedAt), filter))
    .orderBy(asc(slots.startAt), asc(slots.id));
}

/**
 * The one lock every slot creation takes (single create and add-many), for the rest of its transaction: creations run
 * one after another, so an overlap check and the insert it allows cannot interleave with another API process's.
 * A transaction-scoped advisory lock: bookings, holds and deletes are not blocked by it.
 */
export const SLOT_CREATE_LOCK_KEY = 1_500_150;
export async function lockSlotCreation(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${SLOT_CREATE_LOCK_KEY})`);
}

/** Live slots overlapping [start, end) (start < other.end AND end > other.start), earliest first. */
export const liveSlotsOverlapping = (db: DbOrTx, start: Date, end: Date): Promise<SlotRow[]> =>
  db
    .select()
    .from(slots)
    .where(and(isNull(slots.deletedAt), lt(slots.startAt, end), gt(slots.endAt, start)))
    .orderBy(asc(slots.startAt), asc(slots.id));

/** '8:30 AM' in GMT+8. */
const timeInMY = (at: Date): string => {
  const t = inMY(at);
  return formatMinutes12(t.hour() * 60 + t.minute());
};

/**
 * Creates one 30-minute weekday slot from tomorrow (GMT+8) to SLOT_MAX_YEARS_AHEAD years ahead, starting by
 * LATEST_SLOT_START_MINUTES (the same rules as add-many's); refuses anything else with a clear message, and
 * any overlap with a live slot (the same start keeps the spec's duplicate answer).
 */
export async function createSlot(db: DbOrTx, input: { date: string; startTime: string; endTime: string }, now = new Date()) {
  if (!dayInMY(input.date).isValid()) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.badDate);
  const start = slotStart(input.date, input.startTime);
  const startMinutes = parseSlotTime(input.startTime);
  const endMinutes = parseSlotTime(input.endTime);
  if (!start || startMinutes === null || endMinutes === null) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.badTime);
  // The time's own rule first, as add-many's body check does: both name the same refusal.
  if (startMinutes > LATEST_SLOT_START_MINUTES) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.timeTooLate);
  if (input.date <= todayInMY(now)) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.tooEarly);
  if (input.date > latestSlotDateInMY(now)) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.tooFar);
  if (isWeekend(input.date)) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.weekend);
  if (endMinutes !== slotEndMinutes(startMinutes)) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotAddMessage.badLength);
  const startAt = start.toDate();
  const endAt = start.add(SLOT_MINUTES, 'minute').toDate();
  return db.transaction(async (tx) => {
    await lockSlotCreation(tx);
    const [clash] = await liveSlotsOverlapping(tx, startAt, endAt);
    if (clash && clash.startAt.getTime() !== startAt.getTime())
      throw new AppError(409, ErrorCode.SLOT_EXISTS, SlotPlanMessage.overlapsExisting(timeInMY(clash.startAt), timeInMY(clash.endAt)));
    const rows = clash ? [] : await tx.insert(slots).values({ startAt, endAt }).onConflictDoNothing().returning();
    if (!rows[0]) throw new AppError(409, ErrorCode.SLOT_EXISTS, SlotAddMessage.duplicate);
    return rows[0];
  });
}

export const DeleteMessage = {
  notFound: 'Slot not found. It may have been deleted already.',
  booked: 'This slot is booked and cannot be deleted.',
  held: 'A visitor is paying for this slot right now, so it cannot be deleted. Try again in a few minutes.',
} as const;

/** Soft-deletes an available, unheld slot in one conditional UPDATE. */
export async function deleteSlot(db: DbOrTx, slotId: number): Promise<SlotRow> {
  const [row] = await db
    .update(slots)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(slots.id, slotId), isNull(slots.deletedAt), eq(slots.status, 'available'), noLiveHold))
    .returning();
  if (row) return row;
  const current = await findSlot(db, slotId);
  if (!current || current.deletedAt) throw new AppError(404, ErrorCode.NOT_FOUND, DeleteMessage.notFound);
  if (current.status === 'booked') throw new AppError(409, ErrorCode.SLOT_NOT_AVAILABLE, DeleteMessage.booked);
  throw new AppError(409, ErrorCode.SLOT_RESERVED, DeleteMessage.held);
}

export const findSlot = async (db: DbOrTx, slotId: number): Promise<SlotRow | undefined> =>
  (await db.select().from(slots).where(eq(slots.id, slotId)))[0];

export const SlotNotFoundMessage = 'Slot not found.';

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

export type Hold = { slotId: number; token: string; expiresAt: Date };

/**
 * Holds a bookable slot for `minutes`, recording who holds it (for the hold limits); the token (new unless the caller
 * brings its own) is returned once and stored only as its SHA-256. Callers with a holder then grant its time
 * (holds/hold-time.ts), which may end it sooner.
 */
export async function reserveSlot(
  db: DbOrTx,
  slotId: number,
  minutes: number,
  by: { holder?: HoldHolder; token?: string } = {},
): Promise<Hold | Refusal> {
  const token = by.token ?? newToken();
  const [row] = await db
    .update(slots)
    .set({
      holdTokenHash: sha256(token),
      holdExpiresAt: sql`now() + make_interval(mins => ${minutes})`,
      holdClient: by.holder?.client ?? null,
      holdEmail: by.holder?.email ?? null,
      holdPhone: by.holder?.phone ?? null,
    })
    .where(and(eq(slots.id, slotId), publiclyBookable()))
    .returning({ id: slots.id, holdExpiresAt: slots.holdExpiresAt });
  if (!row) return explainRefusal(db, slotId, null);
  return { slotId: row.id, token, expiresAt: row.holdExpiresAt! };
}

export const HoldInvalidMessage = 'This hold has already ended or the token does not match this slot.';

/** Ends a hold when the token matches (expired or not), and its granted hold time with it; changes nothing otherwise. */
export async function releaseHold(db: DbOrTx, slotId: number, token: string): Promise<boolean> {
  const rows = await db
    .update(slots)
    .set({ holdTokenHash: null, holdExpiresAt: null })
    .where(and(eq(slots.id, slotId), eq(slots.holdTokenHash, sha256(token)), eq(slots.status, 'available')))
    .returning({ id: slots.id });
  if (rows.length > 0) await endHoldTime(db, slotId, token);
  return rows.length > 0;
}

export const newBookingReference = (): string => `BK-${randomBytes(5).toString('hex').toUpperCase()}`;

/** A booking's visitor as stored: the child's fields are null on bookings made before they were asked (migration 0014). */
export type BookedVisitor = Omit<VisitorDetails, 'childName' | 'childYear'> & { childName: string | null; childYear: string | null };
/** The visitor a row names (a payment, a booking), as a slot is booked with them. */
export const bookedVisitorOf = (row: BookedVisitor): BookedVisitor => ({
  visitorName: row.visitorName,
  visitorEmail: row.visitorEmail,
  visitorContactNo: row.visitorContactNo,
  selectedSchool: row.selectedSchool,
  childName: row.childName,
  childYear: row.childYear,
});
/** The visitor a booked slot names ('' where a booking made without details has none). */
export const visitorOnSlot = (slot: SlotRow): BookedVisitor => ({
  visitorName: slot.visitorName ?? '',
  visitorEmail: slot.visitorEmail ?? '',
  visitorContactNo: slot.visitorContactNo ?? '',
  selectedSchool: slot.selectedSchool ?? '',
  childName: slot.childName,
  childYear: slot.childYear,
});

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
 * The same statement reads the slot's state beforehand (a CTE), only to word a refusal without a second round trip.
 */
export async function bookSlot(db: DbOrTx, input: BookInput): Promise<{ ok: true; slot: SlotRow } | Refusal> {
  const tokenHash = input.holdToken ? sha256(input.holdToken) : null;
  const lead = leadCutoff(input.leadHours ?? BOOKING_LEAD_HOURS);
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
export async function freeBookedSlot(db: DbOrTx, slotId: number, bookingReference: string): Promise<boolean> {
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
    })
    .where(and(eq(slots.id, slotId), eq(slots.status, 'booked'), eq(slots.bookingReference, bookingReference)))
    .returning({ id: slots.id });
  return rows.length > 0;
}

/** A released hold's grants end now: the rest of its time is not counted. */
export async function endHoldTime(db: DbOrTx, slotId: number, token: string): Promise<void> {
  await db.execute(sql`UPDATE hold_grants SET ends_at = GREATEST(started_at, now()) WHERE slot_id = ${slotId} AND token_hash = ${sha256(token)} AND ends_at > now()`);
}
