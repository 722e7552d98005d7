import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { BookingMessage, changeTerms, ErrorCode } from 'shared-api/contract';
import type { Db } from '../base/db/connection';
import type { SlotRow } from '../slots';
import { AppError } from '../base/errors';
import type { GatewayState, PaymentGateway } from './gateways/types';
import { appendBookingEvent } from '../bookings';
import { manageUrl, mintManageToken } from '../bookings';
import { enqueueBookingMails, enqueueRefundMails } from '../mail';
import { visitorPart, type BookingMailInput } from '../mail';
import { enqueueConfirmationWhatsApp, type VisitWhatsApp } from '../whatsapp';
import { bookedVisitorOf, findSlot } from '../slots';
import { Checkout } from '../checkout';
import type { PaymentsConfig } from './config';
import { PaymentText, RefundReason, type RefundCause } from '../mail';
import { OPEN_STATUSES } from './statuses';
import { slotFreed } from '../base/slot-watch';
import { paymentEvents, payments, type PaymentChildRow, type PaymentRow } from './tables';
import { childBookings, childrenOf, mailChildrenOf, recordSeats } from './children';

export type Log = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

type Status = PaymentRow['status'];
const OPEN: Status[] = [...OPEN_STATUSES];
export const isOpen = (status: Status) => OPEN.includes(status);
/** Payments the gateway may be asked about: the open ones (refunds are the `refund` queue's, payments/refunds.ts). */
export const gatewayDue = inArray(payments.status, OPEN) as SQL;
/** The gateway's reported paid amount when known, else the fee. */
export const paidAmountOf = (p: PaymentRow) => p.paidAmountSen ?? p.amountSen;
/** What a refund gives back: a cancellation's amount (policy or staff), else all that was paid (paid but not booked). */
export const refundAmountOf = (p: PaymentRow) => p.refundAmountSen ?? paidAmountOf(p);


/** A payment and its slot as the mail templates take them (the amount is what was paid). */
export const mailInputOf = (p: PaymentRow, slot: SlotRow, children: PaymentChildRow[] = []): BookingMailInput => ({
  paymentId: p.id,
  reference: p.reference,
  amountSen: paidAmountOf(p),
  method: p.method,
  start: slot.startAt,
  end: slot.endAt,
  ...visitorPart(p),
  locale: p.locale,
  children: mailChildrenOf(children),
});

/** A booking's WhatsApp message (issue 38): sent only when the parent opted in (the whatsapp module decides). */
export const visitWhatsAppOf = (p: PaymentRow, start: Date, children: PaymentChildRow[], manageLink: string): VisitWhatsApp => ({
  paymentId: p.id,
  locale: p.locale,
  visitorName: p.visitorName,
  visitorContactNo: p.visitorContactNo,
  school: p.selectedSchool,
  start,
  childNames: children.length > 0 ? children.filter((c) => c.cancelledAt === null).map((c) => c.childName) : p.childName ? [p.childName] : [],
  manageUrl: manageLink,
  whatsappOptInAt: p.whatsappOptInAt,
  whatsappOptOutAt: p.whatsappOptOutAt,
  now: new Date(),
});

export async function findPayment(db: Db, idOrReference: string, by: 'id' | 'reference' | 'either'): Promise<PaymentRow> {
  const where =
    by === 'id' ? eq(payments.id, idOrReference) : by === 'reference' ? eq(payments.reference, idOrReference) : or(eq(payments.id, idOrReference), eq(payments.reference, idOrReference));
  const [row] = await db.select().from(payments).where(where);
  if (!row) throw new AppError(404, ErrorCode.PAYMENT_NOT_FOUND, PaymentText.notFound);
  return row;
}

export type ApplyResult = { payment: PaymentRow; duplicate: boolean; booked: boolean; refundNeeded: boolean };

/** Every change of a payment's state: `applyState` (the callback, reconciliation and cancel all end there). */
export class PaymentStates {
  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly config: PaymentsConfig,
    private readonly log: Log,
    /** Called after a booking's or a refund's mails commit (wakes the mail worker). */
    private readonly onMailQueued: () => void,
    /** Queues the refund of a payment whose refund_pending state has committed. */
    private readonly requestRefund: (paymentId: string) => Promise<void>,
  ) {}

  /**
   * The one place a payment changes state, in ONE transaction (optionally recording the gateway event first, so a
   * replay changes nothing): paid → book the slot (hold or still free) and queue both mails, or (slot gone, cancelled,
   * amount not the fee) mark it for refund of what was paid and queue both refund mails; failed / expired / cancelled →
   * close the payment and release its hold.
   */
  async applyState(
    paymentId: string,
    state: GatewayState,
    detail: { method?: string | null; amountSen?: number | null; event?: { id: string; kind: string } } = {},
  ): Promise<ApplyResult> {
    const checkout = await Checkout.for(this.db);
    const result = await this.db.transaction(async (tx) => {
      // The payment row is locked first: the event insert's foreign key would otherwise take a share lock that two
      // concurrent callbacks then both try to upgrade (a deadlock on PostgreSQL).
      const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
      if (detail.event) {
        const inserted = await tx
          .insert(paymentEvents)
          .values({ gateway: this.gateway.name, eventId: detail.event.id, paymentId, kind: detail.event.kind })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.id });
        if (inserted.length === 0) return { payment: p, duplicate: true, booked: false, refundNeeded: false };
      }
      const update = (set: Partial<typeof payments.$inferInsert>) =>
        tx
          .update(payments)
          .set({ ...set, updatedAt: sql`now()` })
          .where(eq(payments.id, paymentId))
          .returning()
          .then((rows) => rows[0]);
      const unchanged = { payment: p, duplicate: false, booked: false, refundNeeded: false };

      if (state === 'paid') {
        if (p.status === 'completed' || p.status === 'refund_pending' || p.status === 'refunded') return unchanged;
        const method = detail.method ?? p.method;
        const paidAmountSen = detail.amountSen ?? null;
        const addresses = { adminNotifyEmail: this.config.adminNotifyEmail, mailFrom: this.config.mailFrom };
        // Paid but not booked: marked for refund, and the parent and the admin told, in this same transaction.
        const toRefund = async (cause: RefundCause) => {
          const refundReason =
            cause === 'amount_mismatch' ? RefundReason.amountMismatch(paidAmountSen!, p.amountSen) : cause === 'cancelled' ? RefundReason.cancelled : RefundReason.slotTaken;
          const payment = await update({ status: 'refund_pending', method, paidAmountSen, refundReason });
          // The payment's slot row always exists (foreign key; slots are only ever soft-deleted).
          const slot = (await findSlot(tx, p.slotId))!;
          await enqueueRefundMails(
            tx,
            { ...mailInputOf(payment, slot), expectedSen: p.amountSen, cause, bookingSiteUrl: this.config.publicSiteUrl },
            addresses,
          );
          return { payment, duplicate: false, booked: false, refundNeeded: true };
        };
        if (paidAmountSen != null && paidAmountSen !== p.amountSen) return toRefund('amount_mismatch');
        // The visitor cancelled (and the hold was released) before the money arrived: give it back, book nothing.
        if (p.status === 'cancelled') return toRefund('cancelled');
        const children = await childrenOf(tx, p.id);
        const completed = { status: 'completed' as const, bookingStatus: 'booked' as const, method, paidAmountSen, completedAt: sql`now()` as unknown as Date };
        let slot: SlotRow | undefined;
        let payment: PaymentRow;
        if (children.length > 0) {
          // Several children (issue 37): a seat each, all or none; the seats as booked are recorded with the payment.
          const wanted = childBookings(p, children, 0);
          const booking = await checkout.bookAll(tx, wanted);
          if (!booking.ok) return toRefund('slot_taken');
          slot = booking.slots[0];
          payment = await recordSeats(tx, p, wanted.map((child, i) => ({ position: child.position, slotId: booking.slots[i].id })), completed);
        } else {
          const booking = await checkout.book(tx, {
            slotId: p.slotId,
            visitor: bookedVisitorOf(p),
            holdToken: p.holdToken,
            bookingReference: p.reference,
            amountSen: p.amountSen,
            leadHours: 0,
            consentId: p.consentId,
          });
          slot = booking.ok ? booking.slot : undefined;
          if (!booking.ok) {
            const current = await findSlot(tx, p.slotId);
            if (current?.status === 'booked' && current.bookingReference === p.reference) slot = current;
          }
          if (!slot) return toRefund('slot_taken');
          payment = await update(completed);
        }
        await appendBookingEvent(tx, p.id, { kind: 'booked', actor: 'parent', toStart: slot.startAt, amountSen: paidAmountOf(payment) });
        // The confirmation carries a manage link of its own (minted here: a rolled-back booking leaves no link).
        const token = await mintManageToken(tx, p.id, 'mail');
        const terms = changeTerms({ start: slot.startAt, now: new Date() });
        await enqueueBookingMails(tx, { ...mailInputOf(payment, slot, children), manageUrl: manageUrl(this.config.publicSiteUrl, token), terms }, addresses);
        await enqueueConfirmationWhatsApp(tx, visitWhatsAppOf(payment, slot.startAt, children, manageUrl(this.config.publicSiteUrl, token)));
        return { payment, duplicate: false, booked: true, refundNeeded: false };
      }

      if (state === 'failed' || state === 'expired' || state === 'cancelled') {
        if (!isOpen(p.status)) return unchanged;
        const payment = await update({
          status: state === 'cancelled' ? 'cancelled' : 'failed',
          failureReason: state === 'expired' ? BookingMessage.sessionExpired : state === 'cancelled' ? 'Payment cancelled' : BookingMessage.paymentFailed,
        });
        await checkout.endHold(tx, p.slotId, p.holdToken);
        return { payment, duplicate: false, booked: false, refundNeeded: false };
      }

      if (state === 'refunded' && p.status === 'refund_pending') {
        // The gateway says it is done (CHIP's signed payment.refunded after pending_refund, or a status check).
        const payment = await update({ status: 'refunded' });
        if (payment.bookingStatus) await appendBookingEvent(tx, p.id, { kind: 'refunded', actor: 'system', amountSen: refundAmountOf(payment) });
        return { payment, duplicate: false, booked: false, refundNeeded: false };
      }
      return unchanged;
    });

    // After commit: nothing below runs inside the transaction. A slot booked or given back: the waitlist looks again.
    if (result.booked || (!result.duplicate && result.payment.status !== 'completed' && !isOpen(result.payment.status))) slotFreed(this.db);
    if (result.booked) {
      this.log.info({ paymentId, slotId: result.payment.slotId }, 'payment: completed and slot booked');
      this.onMailQueued();
    }
    if (result.refundNeeded) {
      this.log.warn({ paymentId, reason: result.payment.refundReason }, 'payment: paid but not booked; refunding');
      this.onMailQueued();
      await this.requestRefund(paymentId);
    }
    return result;
  }

  /**
   * The bank took money back (a card chargeback): noted on the payment (its time and the amounts taken, summed) and in
   * the booking's history, once per gateway event. The booking and the payment's status stay: the office decides.
   */
  async recordChargeback(paymentId: string, chargeback: { eventId: string; amountSen: number | null; at: Date }): Promise<{ duplicate: boolean }> {
    const duplicate = await this.db.transaction(async (tx) => {
      const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
      const inserted = await tx
        .insert(paymentEvents)
        .values({ gateway: this.gateway.name, eventId: chargeback.eventId, paymentId, kind: 'chargeback' })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (inserted.length === 0) return true;
      // CHIP may not say the amount: then all that was paid is taken to be at stake.
      const amountSen = chargeback.amountSen ?? paidAmountOf(p);
      await tx
        .update(payments)
        .set({ chargebackAt: chargeback.at, chargebackAmountSen: sql`coalesce(${payments.chargebackAmountSen}, 0) + ${amountSen}`, updatedAt: sql`now()` })
        .where(eq(payments.id, paymentId));
      await appendBookingEvent(tx, paymentId, { kind: 'charged_back', actor: 'system', amountSen });
      return false;
    });
    if (!duplicate) this.log.warn({ paymentId, eventId: chargeback.eventId }, 'payment: charged back by the bank; staff alerted');
    return { duplicate };
  }
}
