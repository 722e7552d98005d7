import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { BookingEvent, BookingEventKind } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { bookingEvents } from './tables';

export type BookingEventInput = {
  /** A paid booking's events (an unpaid one's history is its audit records). */
  kind: Exclude<BookingEventKind, 'booked_unpaid'>;
  /** 'parent', 'system', or the staff member's email. */
  actor: string;
  fromStart?: Date | null;
  toStart?: Date | null;
  amountSen?: number | null;
  /** The child of a booking of several an event is about (issue 37). */
  childName?: string | null;
};

/** Appends one event to a booking's history, in the caller's transaction (the one that made the change). */
export async function appendBookingEvent(tx: DbOrTx, paymentId: string, event: BookingEventInput): Promise<void> {
  await tx.insert(bookingEvents).values({
    paymentId,
    kind: event.kind,
    actor: event.actor,
    fromStart: event.fromStart ?? null,
    toStart: event.toStart ?? null,
    amountSen: event.amountSen ?? null,
    childName: event.childName ?? null,
  });
}

/** A booking's history, oldest first, as staff read it. */
export async function bookingHistory(db: DbOrTx, paymentId: string): Promise<BookingEvent[]> {
  const rows = await db.select().from(bookingEvents).where(eq(bookingEvents.paymentId, paymentId)).orderBy(asc(bookingEvents.id));
  return rows.map((r) => ({
    at: r.createdAt.toISOString(),
    kind: r.kind,
    actor: r.actor,
    fromStart: r.fromStart?.toISOString() ?? null,
    toStart: r.toStart?.toISOString() ?? null,
    amountSen: r.amountSen,
    ...(r.childName !== null && { childName: r.childName }),
  }));
}

/**
 * Every start a booking has had (where it was booked, each move's from and to): its refund is measured from the earliest.
 * Staff moving one child of several alone (a `rescheduled` naming the child) does not move the booking's refund deadline.
 */
export async function startsOf(db: DbOrTx, paymentId: string): Promise<Date[]> {
  const rows = await db
    .select({ fromStart: bookingEvents.fromStart, toStart: bookingEvents.toStart })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.paymentId, paymentId), inArray(bookingEvents.kind, ['booked', 'rescheduled']), isNull(bookingEvents.childName)));
  return rows.flatMap((r) => [r.fromStart, r.toStart]).filter((d): d is Date => d !== null);
}
