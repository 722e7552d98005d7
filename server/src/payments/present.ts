import { eq } from 'drizzle-orm';
import { BookingMessage, inMY, refundFromOf, type PaymentStatusResult } from 'shared-api/contract';
import { startsOf } from '../bookings';
import type { Db } from '../base/db/connection';
import { slots } from '../slots';
import { mailsForPayment, summariseMail } from '../mail';
import { refundAmountOf } from './state';
import { PaymentText, RefundReason, refundCauseText, type RefundCause } from '../mail';
import type { PaymentRow } from './tables';
import { bookedChildrenAt, childrenOf, seatsOf } from './children';

const refundCauseOf = (p: PaymentRow): RefundCause =>
  p.paidAmountSen != null && p.paidAmountSen !== p.amountSen ? 'amount_mismatch' : p.refundReason === RefundReason.cancelled ? 'cancelled' : 'slot_taken';

/**
 * The status answer for a payment as stored, and the message the parent reads. Only the payment's owner (`owner`: it
 * sent the payment's key) gets the payment id, the visitor and the mails; anyone else what a receipt shows.
 */
export async function presentPayment(db: Db, p: PaymentRow, owner: boolean): Promise<{ result: PaymentStatusResult; message: string }> {
  const [slot] = await db.select().from(slots).where(eq(slots.id, p.slotId));
  const confirmed = p.status === 'completed' && slot?.status === 'booked' && slot.bookingReference === p.reference;
  const payment = { status: p.status, amount: p.amountSen, reference: p.reference };
  const booking = {
    confirmed,
    date: slot ? inMY(slot.startAt).format('YYYY-MM-DD') : '',
    startTime: slot ? inMY(slot.startAt).format('HH:mm') : '',
    endTime: slot ? inMY(slot.endAt).format('HH:mm') : '',
    selectedSchool: p.selectedSchool,
    calendarSequence: p.calendarSequence,
  };
  const children = owner ? await childrenOf(db, p.id) : [];
  const result: PaymentStatusResult = owner
    ? {
        owner: true,
        payment: { ...payment, id: p.id, method: p.method },
        booking: {
          ...booking,
          slotId: p.slotId,
          visitorName: p.visitorName,
          visitorEmail: p.visitorEmail,
          childName: p.childName,
          childYear: p.childYear,
          ...(slot && p.bookingStatus && { refundFrom: refundFromOf([slot.startAt, ...(await startsOf(db, p.id))]).toISOString() }),
          // A child staff moved alone to another time carries that time (issue 37).
          ...(children.length > 0 && { children: bookedChildrenAt(children, slot ? await seatsOf(db, children) : new Map(), slot?.startAt ?? new Date(0)) }),
        },
        ...summariseMail(await mailsForPayment(db, p.id)),
      }
    : { owner: false, payment, booking };
  const message =
    p.bookingStatus === 'cancelled'
      ? PaymentText.bookingCancelled(refundAmountOf(p), p.status === 'refunded' ? 'refunded' : p.status === 'refund_pending' ? 'pending' : 'none')
      : p.status === 'completed'
      ? BookingMessage.paymentSuccess
      : p.status === 'refund_pending'
        ? PaymentText.refundPending(refundCauseText(refundCauseOf(p), refundAmountOf(p), p.amountSen), refundAmountOf(p))
        : p.status === 'refunded'
          ? PaymentText.refunded(refundCauseText(refundCauseOf(p), refundAmountOf(p), p.amountSen), refundAmountOf(p))
          : p.status === 'cancelled'
            ? PaymentText.cancelled
            : p.status === 'failed'
              ? (p.failureReason ?? BookingMessage.paymentFailed)
              : PaymentText.pending;
  return { result, message };
}
