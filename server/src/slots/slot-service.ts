import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  BOOKING_LEAD_HOURS,
  ErrorCode,
  SLOT_MAX_SEATS,
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
import type { StaffSlotRow } from './present';
import { AppError } from '../base/errors';

// The timetable: listing, creating and deleting slots. Holding and booking them is server/src/checkout's (the only writer
// of a slot's hold columns). Every function takes a database or an open transaction.

const leadCutoff = (leadHours: number) => sql`now() + make_interval(mins => ${Math.round(leadHours * 60)})`;
const noLiveHold = or(isNull(slots.holdExpiresAt), lte(slots.holdExpiresAt, sql`now()`)) as SQL;

/** Live, available, not held, and at least the lead time ahead: what the public may see and book. */
export const publiclyBookable = (leadHours = BOOKING_LEAD_HOURS): SQL =>
  and(isNull(slots.deletedAt), eq(slots.status, 'available'), gte(slots.startAt, leadCutoff(leadHours)), noLiveHold) as SQL;

/** A bookable seat with its time's free seats, and the time's seats when more than one (issue 37). */
export type PublicSlotRow = SlotRow & { placesLeft?: number };

/**
 * Each live time's seats (issue 37), the one count the public list, the staff list and the waitlist's offers read: its
 * live rows (`seats`), how many are booked (`taken`), and how many a parent could take now (`free`: bookable, unheld).
 */
export const seatsByTime = (db: DbOrTx) =>
  db
    .select({
      startAt: slots.startAt,
      seats: sql<number>`count(*)`.as('seats'),
      taken: sql<number>`count(*) FILTER (WHERE ${slots.status} = 'booked')`.as('taken'),
      free: sql<number>`count(*) FILTER (WHERE ${publiclyBookable()})`.as('free'),
    })
    .from(slots)
    .where(isNull(slots.deletedAt))
    .groupBy(slots.startAt)
    .as('times');

/**
 * The seats of one time a parent could take now (the `free` of seatsByTime, seat by seat), each with the number of
 * its last freeing: the waitlist offers an entry of several children only seats freed since it began waiting.
 */
export async function freeSeatsAt(db: DbOrTx, startAt: Date): Promise<{ id: number; freedSeq: number }[]> {
  const rows = await db
    .select({ id: slots.id, freedSeq: slots.freedSeq })
    .from(slots)
    .where(and(eq(slots.startAt, startAt), isNull(slots.deletedAt), publiclyBookable()))
    .orderBy(asc(slots.seat));
  return rows.map((row) => ({ id: row.id, freedSeq: Number(row.freedSeq) }));
}

/**
 * Bookable times, one entry each: the first free seat, with `placesLeft` when the time seats more than one child
 * (a time with one seat is the spec's slot, unchanged). `total` counts times.
 */
export async function listPublicSlots(db: DbOrTx, page: { limit: number; page: number }): Promise<{ rows: PublicSlotRow[]; total: number }> {
  const where = publiclyBookable();
  const times = seatsByTime(db);
  const [rows, [{ total }]] = await Promise.all([
    db
      .selectDistinctOn([slots.startAt], { row: slots, free: times.free, seats: times.seats })
      .from(slots)
      .innerJoin(times, eq(times.startAt, slots.startAt))
      .where(where)
      .orderBy(asc(slots.startAt), asc(slots.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: sql<number>`count(DISTINCT ${slots.startAt})`.mapWith(Number) }).from(slots).where(where),
  ]);
  return { rows: rows.map(({ row, free, seats }) => (Number(seats) > 1 ? { ...row, placesLeft: Number(free) } : row)), total: Number(total) };
}

/**
 * Every live row, with its time's live seats and booked seats when the time seats more than one child (issue 37);
 * counted over all the time's rows, whatever `isBooked` keeps. A one-seat slot is the row alone, the spec's shape.
 */
export async function listStaffSlots(db: DbOrTx, isBooked?: boolean): Promise<StaffSlotRow[]> {
  const filter =
    isBooked === undefined ? undefined : isBooked ? eq(slots.status, 'booked') : eq(slots.status, 'available');
  const times = seatsByTime(db);
  const rows = await db
    .select({ row: slots, seats: times.seats, seatsTaken: times.taken })
    .from(slots)
    .innerJoin(times, eq(times.startAt, slots.startAt))
    .where(and(isNull(slots.deletedAt), filter))
    .orderBy(asc(slots.startAt), asc(slots.id));
  return rows.map(({ row, seats, seatsTaken }) => (Number(seats) > 1 ? { ...row, seats: Number(seats), seatsTaken: Number(seatsTaken) } : row));
}

/** A new time's rows, one per seat (migration 0034): seat 1 is the slot the spec knows; the others seat more children at once. */
export const seatRowsOf = (startAt: Date, endAt: Date, seats = 1) => Array.from({ length: seats }, (_, index) => ({ startAt, endAt, seat: index + 1 }));

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
export async function createSlot(db: DbOrTx, input: { date: string; startTime: string; endTime: string; seats?: number }, now = new Date()) {
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
    const seats = seatRowsOf(startAt, endAt, input.seats);
    const rows = clash ? [] : await tx.insert(slots).values(seats).onConflictDoNothing().returning();
    if (rows.length !== seats.length) throw new AppError(409, ErrorCode.SLOT_EXISTS, SlotAddMessage.duplicate);
    return rows.sort((a, b) => a.seat - b.seat)[0];
  });
}

export const SeatsMessage = {
  notFound: 'Slot not found. It may have been deleted already.',
  started: 'This time has already started, so its seats can no longer change.',
  tooFew: (taken: number) =>
    `${taken} ${taken === 1 ? 'child is' : 'children are'} booked or paying at this time, so it needs at least ${taken} ${taken === 1 ? 'seat' : 'seats'}.`,
} as const;

/**
 * Sets how many children a time assesses at once (issue 37): raising adds free seats, lowering removes free, unheld
 * seats (the last first) and never one that is booked or being paid for. Under the creation lock, with the time's rows
 * locked, so a hold or booking waits for it and then sees the seat gone. The time's seats before and after.
 */
export async function setSeats(db: DbOrTx, slotId: number, seats: number): Promise<{ before: SlotRow[]; after: SlotRow[] }> {
  return db.transaction(async (tx) => {
    await lockSlotCreation(tx);
    const asked = await findSlot(tx, slotId);
    if (!asked || asked.deletedAt) throw new AppError(404, ErrorCode.NOT_FOUND, SeatsMessage.notFound);
    if (asked.startAt <= new Date()) throw new AppError(409, ErrorCode.SLOT_NOT_AVAILABLE, SeatsMessage.started);
    const before = await tx
      .select()
      .from(slots)
      .where(and(eq(slots.startAt, asked.startAt), isNull(slots.deletedAt)))
      .orderBy(asc(slots.seat))
      .for('update');
    const now = new Date();
    const free = before.filter((row) => row.status === 'available' && !(row.holdExpiresAt && row.holdExpiresAt > now));
    const taken = before.length - free.length;
    if (seats < taken) throw new AppError(409, ErrorCode.SLOT_NOT_AVAILABLE, SeatsMessage.tooFew(taken));
    if (seats > before.length) {
      const used = new Set(before.map((row) => row.seat));
      const numbers = Array.from({ length: SLOT_MAX_SEATS }, (_, index) => index + 1).filter((seat) => !used.has(seat));
      const added = numbers.slice(0, seats - before.length).map((seat) => ({ startAt: asked.startAt, endAt: asked.endAt, seat }));
      await tx.insert(slots).values(added);
    } else if (seats < before.length) {
      const removed = free.slice(-(before.length - seats)).map((row) => row.id);
      await tx.update(slots).set({ deletedAt: sql`now()` }).where(and(inArray(slots.id, removed), eq(slots.status, 'available'), noLiveHold));
    }
    const after = await tx.select().from(slots).where(and(eq(slots.startAt, asked.startAt), isNull(slots.deletedAt))).orderBy(asc(slots.seat));
    return { before, after };
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

