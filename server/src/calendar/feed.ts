import { and, asc, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  brand,
  buildFeed,
  CALENDAR_FEED_PAST_DAYS,
  CALENDAR_FEED_TOKEN_PATTERN,
  calendarFeedPath,
  CalendarFeedMessage,
  ErrorCode,
  invitationUid,
  type CalendarFeed,
  type FeedEvent,
} from 'shared-api/contract';
import { newToken, sha256 } from '../base/crypto';
import type { Db } from '../base/db/connection';
import { slots } from '../slots';
import { users } from '../auth';
import { AppError } from '../base/errors';
import { guessLimit, refuseUnknownToken } from '../limits';
import { paymentChildren, payments, type PaymentChildRow } from '../payments';
import { visitorPart } from '../mail';
import { visitorOnSlot } from '../slots';
import { calendarFeeds } from './tables';

/** Unknown or malformed feed tokens are guess-limited per client network (429 past the limit). */
export const FEED_GUESS_LIMIT = guessLimit('calendar-feed-token', CalendarFeedMessage.tooManyTries);

const notFound = () => new AppError(404, ErrorCode.NOT_FOUND, CalendarFeedMessage.notFound);

const inactive: CalendarFeed = { active: false, createdAt: null, url: null };

/** The signed-in account's feed: whether it has one and since when (never its URL: only the hash is stored). */
export async function feedStatus(db: Db, userId: number): Promise<CalendarFeed> {
  const [row] = await db.select({ createdAt: calendarFeeds.createdAt }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return row ? { active: true, createdAt: row.createdAt.toISOString(), url: null } : inactive;
}

/**
 * Creates the account's feed, or regenerates it: ONE upsert replaces the hash, so the old URL stops working the moment
 * this commits, on every API process. The answer is the only time the URL is shown.
 */
export async function createOrRegenerateFeed(db: Db, userId: number, apiPublicUrl: string): Promise<CalendarFeed> {
  const token = newToken();
  const [row] = await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash: sha256(token) })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash: sha256(token), createdAt: sql`now()` } })
    .returning({ createdAt: calendarFeeds.createdAt });
  return { active: true, createdAt: row.createdAt.toISOString(), url: `${apiPublicUrl}${calendarFeedPath(token)}` };
}

/** Turns the account's feed off (its URL answers 404 from now on); idempotent. */
export async function deleteFeed(db: Db, userId: number): Promise<CalendarFeed> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return inactive;
}

/**
 * The feed a token opens (an enabled account's), as an .ics text. Unknown and malformed tokens are counted per client
 * network (shared by every API process through rate_counters) and answered 404 with no data, past the limit 429; a
 * valid token always gets its feed.
 */
export async function feedForToken(db: Db, token: string, client: string, now = new Date()): Promise<string> {
  // A disabled account's feed ends with its sessions: its URL is as unknown as any other.
  const [feed] = CALENDAR_FEED_TOKEN_PATTERN.test(token)
    ? await db
        .select({ userId: calendarFeeds.userId })
        .from(calendarFeeds)
        .innerJoin(users, eq(users.id, calendarFeeds.userId))
        .where(and(eq(calendarFeeds.tokenHash, sha256(token)), isNull(users.disabledAt)))
    : [];
  if (!feed) return refuseUnknownToken(db, FEED_GUESS_LIMIT, client, notFound);
  return buildFeed(await feedEvents(db, now), now);
}

const domain = brand.supportEmail.split('@')[1] ?? 'booking';

/** Children still booked, as a feed event names them; nothing for a booking of one child. */
function named(children: PaymentChildRow[]): Pick<FeedEvent, 'children'> {
  return children.length > 0 ? { children: children.map((c) => ({ childName: c.childName, childYear: c.childYear, school: c.selectedSchool })) } : {};
}

type Seat = { startAt: Date; endAt: Date };

/**
 * A payment's children still booked by time: those at the booking's time (its event names them), and each other time
 * staff moved a child of several to alone (issue 37), with the children there: an event of its own.
 */
function childrenByTime(children: PaymentChildRow[], seats: Map<number, Seat>, paymentId: string, start: Date) {
  const own = children.filter((c) => c.paymentId === paymentId);
  const elsewhere = new Map<number, { seat: Seat; children: PaymentChildRow[] }>();
  const atBooking: PaymentChildRow[] = [];
  for (const child of own) {
    const seat = seats.get(child.slotId);
    if (!seat || seat.startAt.getTime() === start.getTime()) atBooking.push(child);
    else elsewhere.set(seat.startAt.getTime(), { seat, children: [...(elsewhere.get(seat.startAt.getTime())?.children ?? []), child] });
  }
  return { atBooking, elsewhere: [...elsewhere.values()] };
}

/**
 * Every visit from CALENDAR_FEED_PAST_DAYS ago on: paid bookings (booked, moved or cancelled) at their slot's time,
 * with their invitation's UID and SEQUENCE (the parent's calendar and the staff's agree), and booked slots no payment
 * stands behind (demo data; UID from the slot id), as the staff booking list shows them.
 */
export async function feedEvents(db: Db, now: Date): Promise<FeedEvent[]> {
  const from = new Date(now.getTime() - CALENDAR_FEED_PAST_DAYS * 86_400_000);
  const [paid, unpaid] = await Promise.all([
    db
      .select({ payment: payments, slot: slots })
      .from(payments)
      .innerJoin(slots, eq(slots.id, payments.slotId))
      .where(and(isNotNull(payments.bookingStatus), gte(slots.startAt, from))),
    db
      .select({ slot: slots })
      .from(slots)
      // A booking of several children has seats whose id is no payment's: its payment is found by its reference.
      .leftJoin(payments, and(eq(payments.reference, slots.bookingReference), eq(payments.bookingStatus, 'booked')))
      .where(and(eq(slots.status, 'booked'), isNull(slots.deletedAt), isNull(payments.id), gte(slots.startAt, from))),
  ]);
  // The children of the feed's bookings of several (issue 37), still booked: one event names them all.
  const paidIds = paid.map(({ payment }) => payment.id);
  const children =
    paidIds.length === 0
      ? []
      : await db
          .select()
          .from(paymentChildren)
          .where(and(inArray(paymentChildren.paymentId, paidIds), isNull(paymentChildren.cancelledAt)))
          .orderBy(asc(paymentChildren.position));
  const seatIds = children.map((c) => c.slotId);
  const seats = new Map<number, Seat>(
    seatIds.length === 0 ? [] : (await db.select({ id: slots.id, startAt: slots.startAt, endAt: slots.endAt }).from(slots).where(inArray(slots.id, seatIds))).map((r) => [r.id, r]),
  );
  const events: FeedEvent[] = paid.flatMap(({ payment: p, slot }) => {
    const { atBooking, elsewhere } = childrenByTime(children, seats, p.id, slot.startAt);
    const event = { ...visitorPart(p), reference: p.reference, sequence: p.calendarSequence, cancelled: p.bookingStatus === 'cancelled' };
    return [
      { ...event, uid: invitationUid(p.reference), start: slot.startAt, end: slot.endAt, ...named(atBooking) },
      // One event per other time, naming the children there; its UID is the booking's and that time's.
      ...elsewhere.map((at) => ({ ...event, uid: invitationUid(`${p.reference}-${at.seat.startAt.getTime()}`), start: at.seat.startAt, end: at.seat.endAt, ...named(at.children) })),
    ];
  });
  events.push(
    ...unpaid.map(({ slot }) => ({
      uid: `slot-${slot.id}@${domain}`,
      start: slot.startAt,
      end: slot.endAt,
      ...visitorPart(visitorOnSlot(slot)),
      reference: slot.bookingReference ?? `slot-${slot.id}`,
      sequence: 0,
      cancelled: false,
    })),
  );
  return events.sort((a, b) => a.start.getTime() - b.start.getTime() || a.uid.localeCompare(b.uid));
}
