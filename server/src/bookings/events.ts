import { asc, eq } from 'drizzle-orm';
import type { BookingEvent, BookingEventKind } from 'shared-api/contract';
import type { DbOrTx } from '../db/connection';
import { bookingEvents } from '../payments/tables';

export type BookingEventInput = {
  kind: BookingEventKind;
  /** 'parent', 'system', or the staff member's email. */
  actor: string;
  fromStart?: Date | null;
  toStart?: Date | null;
  amountSen?: number | null;
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
  }));
}
