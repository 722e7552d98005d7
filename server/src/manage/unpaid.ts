// Bookings no payment stands behind (staff's direct bookings, the demo data): staff see, move and cancel them as any
// other. The slot row is the booking (its reference, visitor and school); its history is its audit records.
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, ErrorCode, ManageErrorCode, ManageMessage, WaitlistErrorCode, type BookingEvent, type StaffBooking, type StaffBookingRow } from 'shared-api/contract';
import { auditLog, recordAudit } from '../audit';
import type { DbOrTx } from '../base/db/connection';
import { slots, type SlotRow } from '../slots';
import { AppError } from '../base/errors';
import { enqueueCancelMails, enqueueRescheduleMails, type MailAddresses } from '../mail';
import { visitorPart, type BookingMailInput } from '../mail';
import { visitorOnSlot } from '../slots';
import type { Checkout, Refusal } from '../checkout';
import { parentMessages, whatsappChoiceOf } from './parent-messages';

const fail = (status: number, code: ErrorCode | ManageErrorCode, message: string) => new AppError(status, code as ErrorCode, message);

/** The audit actions that make an unpaid booking's history, in the order they happen. */
const HISTORY_ACTIONS = ['booking_direct', 'booking_moved_by_staff', 'booking_cancelled_by_staff'] as const;

/** A booked slot with no payment behind it, as staff list it: booked (or over), nothing paid, so nothing to refund. */
export const unpaidRow = (slot: SlotRow, now: Date, state: 'cancelled' | null = null): StaffBookingRow => ({
  reference: slot.bookingReference ?? `slot-${slot.id}`,
  school: slot.selectedSchool ?? '',
  start: slot.startAt.toISOString(),
  end: slot.endAt.toISOString(),
  amountPaidSen: 0,
  state: state ?? (slot.endAt.getTime() <= now.getTime() ? 'over' : 'booked'),
  refund: null,
  paymentId: null,
  visitorName: slot.visitorName ?? '',
  visitorEmail: slot.visitorEmail ?? '',
  visitorContactNo: slot.visitorContactNo ?? '',
  childName: slot.childName,
  childYear: slot.childYear,
});

/**
 * The booked slot carrying `reference` and no payment, or null. `lock`: FOR UPDATE; a booking moved by a concurrent
 * change is looked for once more at its new slot (the first read waited on the old row, which no longer matches).
 */
export async function findUnpaid(db: DbOrTx, reference: string, lock: boolean): Promise<SlotRow | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const query = db
      .select()
      .from(slots)
      .where(and(eq(slots.bookingReference, reference), eq(slots.status, 'booked'), isNull(slots.deletedAt)));
    const [slot] = lock ? await query.for('update') : await query;
    if (slot || !lock) return slot ?? null;
  }
  return null;
}

/** The booking's history from its audit records (oldest first): booked without payment, moved, cancelled. */
export async function unpaidHistory(db: DbOrTx, reference: string): Promise<BookingEvent[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.target, reference), inArray(auditLog.action, [...HISTORY_ACTIONS])))
    .orderBy(asc(auditLog.id));
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return rows.map((r) => ({
    at: r.at.toISOString(),
    kind: r.action === 'booking_direct' ? 'booked_unpaid' : r.action === 'booking_moved_by_staff' ? 'rescheduled' : 'cancelled',
    actor: r.actor,
    fromStart: text(r.detail?.from) ?? text(r.detail?.start),
    toStart: text(r.detail?.to),
    amountSen: null,
  }));
}

/** The mails' view of an unpaid booking: nothing paid, no payment, no manage link (manage links open payments). */
const mailInput = (slot: SlotRow): BookingMailInput => ({
  paymentId: null,
  reference: slot.bookingReference!,
  amountSen: 0,
  method: null,
  start: slot.startAt,
  end: slot.endAt,
  ...visitorPart(visitorOnSlot(slot)),
});

/** The calendar SEQUENCE of the change just recorded: one more with each move or cancel (the booking had 0). */
async function sequenceOf(tx: DbOrTx, reference: string): Promise<number> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.target, reference), inArray(auditLog.action, ['booking_moved_by_staff', 'booking_cancelled_by_staff'])));
  return Number(n);
}

export type StaffChange = { actor: string; actorUserId?: number; ip?: string; addresses: MailAddresses; now: Date; bookingSiteUrl: string; checkout: Checkout };

/** A move's refusal as the manage routes answer it: a missing slot or the waitlist's claim as they are, anything else "taken". */
export const moveRefused = (won: Refusal): AppError =>
  won.status === 404 || won.code === (WaitlistErrorCode.WAITLIST_FIRST as ErrorCode) ? fail(won.status, won.code, won.message) : fail(409, won.code, ManageMessage.slotTaken);

/** Refuses a change to a booking whose visit is over. */
function assertAhead(slot: SlotRow, now: Date): void {
  if (slot.endAt.getTime() <= now.getTime()) throw fail(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.visitOver).withReason({ rule: 'visitOver' });
}

/**
 * Moves a locked unpaid booking to `slotId` (in the caller's transaction): the old slot freed, the new one taken with
 * the booking's conditional UPDATE (live, available, not held, the lead time ahead); a slot not won throws, so the
 * transaction rolls back and the booking stays. The audit record is its history; the parent is mailed when they gave
 * an email (no manage link: there is no payment to manage).
 */
export async function moveUnpaid(tx: DbOrTx, from: SlotRow, slotId: number, by: StaffChange): Promise<SlotRow> {
  assertAhead(from, by.now);
  const reference = from.bookingReference!;
  if (slotId === from.id) throw fail(400, ErrorCode.VALIDATION_ERROR, ManageMessage.sameSlot).withReason({ rule: 'sameSlot' });
  const won = await by.checkout.move(tx, {
    fromSlotId: from.id,
    reference,
    by: 'staff',
    slotId,
    visitor: visitorOnSlot(from),
    amountSen: from.amountSen,
    leadHours: BOOKING_LEAD_HOURS,
    // The consent moves with the booking (read before the old slot was freed). A booked slot always names its consent (migration 0022).
    consentId: from.consentId!,
  });
  if (!won.ok) throw moveRefused(won);
  await recordAudit(tx, {
    actor: by.actor,
    actorUserId: by.actorUserId,
    action: 'booking_moved_by_staff',
    target: reference,
    detail: { from: from.startAt.toISOString(), to: won.slot.startAt.toISOString(), slotId: won.slot.id, paid: false },
    ip: by.ip,
  });
  if (from.visitorEmail) {
    const sequence = await sequenceOf(tx, reference);
    await enqueueRescheduleMails(tx, { ...mailInput(won.slot), fromStart: from.startAt, fromEnd: from.endAt, sequence, by: by.actor }, by.addresses);
  }
  return won.slot;
}

/**
 * Unpaid bookings staff cancelled, as staff list them (state 'cancelled', nothing paid): read from their cancel's audit
 * record, the only place they still are. Cancels recorded before the record carried the booking show its time alone.
 */
export async function cancelledUnpaidRows(db: DbOrTx): Promise<StaffBookingRow[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'booking_cancelled_by_staff'), sql`${auditLog.detail}->>'paid' = 'false'`));
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return rows
    .filter((r) => typeof r.detail?.start === 'string' && r.target)
    .map((r) => {
      const booking = (r.detail?.booking ?? {}) as Record<string, unknown>;
      const start = text(r.detail?.start);
      return {
        reference: r.target!,
        school: text(booking.selectedSchool),
        start,
        end: text(r.detail?.end) || new Date(Date.parse(start) + 30 * 60_000).toISOString(),
        amountPaidSen: 0,
        state: 'cancelled' as const,
        refund: null,
        paymentId: null,
        visitorName: text(booking.visitorName),
        visitorEmail: text(booking.visitorEmail),
        visitorContactNo: text(booking.visitorContactNo),
        childName: text(booking.childName) || null,
        childYear: text(booking.childYear) || null,
      };
    });
}

/** Cancels a locked unpaid booking (in the caller's transaction): the slot public again, nothing to refund, recorded and mailed. */
export async function cancelUnpaid(tx: DbOrTx, slot: SlotRow, by: StaffChange): Promise<StaffBooking> {
  assertAhead(slot, by.now);
  const reference = slot.bookingReference!;
  await by.checkout.freeBooking(tx, slot.id, reference);
  await recordAudit(tx, {
    actor: by.actor,
    actorUserId: by.actorUserId,
    action: 'booking_cancelled_by_staff',
    target: reference,
    // What was cancelled, for the bookings list and its CSV: the slot no longer carries it (retention anonymises it here too).
    detail: { refund: false, refundSen: 0, paid: false, slotId: slot.id, start: slot.startAt.toISOString(), end: slot.endAt.toISOString(), booking: visitorOnSlot(slot) },
    ip: by.ip,
  });
  if (slot.visitorEmail) {
    const sequence = await sequenceOf(tx, reference);
    await enqueueCancelMails(tx, { ...mailInput(slot), refundSen: 0, by: by.actor, sequence, bookingSiteUrl: by.bookingSiteUrl }, by.addresses);
  }
  // The slot no longer carries the booking: the answer is what was cancelled, with its history so far.
  return { ...unpaidRow(slot, by.now, 'cancelled'), history: await unpaidHistory(tx, reference), ...(await unpaidContact(tx, reference)) };
}

/** What staff see of an unpaid booking's messages (its mails, by reference) and answer: no payment, so no WhatsApp choice or confirmation. */
export async function unpaidContact(db: DbOrTx, reference: string): Promise<Pick<StaffBooking, 'messages' | 'confirmedByParentAt' | 'whatsapp'>> {
  return { messages: await parentMessages(db, { paymentId: null, reference }), confirmedByParentAt: null, whatsapp: whatsappChoiceOf(null) };
}
