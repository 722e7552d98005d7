import { eq } from 'drizzle-orm';
import { BookingMessage, inMY, type PaymentStatusResult } from 'shared-api/contract';
import type { Db } from '../db/connection';
import { slots } from '../db/schema';
import { mailsForPayment, summariseMail } from '../mail/outbox';
import { refundAmountOf } from './state';
import { PaymentText, RefundReason, refundCauseText, type RefundCause } from './texts';
import type { PaymentRow } from './tables';

const refundCauseOf = (p: PaymentRow): RefundCause =>
  p.paidAmountSen != null && p.paidAmountSen !== p.amountSen ? 'amount_mismatch' : p.refundReason === RefundReason.cancelled ? 'cancelled' : 'slot_taken';

/** The status answer for a payment as stored: its booking, its mails and the message the parent reads. */
export async function presentPayment(db: Db, p: PaymentRow): Promise<{ result: PaymentStatusResult; message: string }> {
  const [slot] = await db.select().from(slots).where(eq(slots.id, p.slotId));
  const mails = await mailsForPayment(db, p.id);
  const confirmed = p.status === 'completed' && slot?.status === 'booked' && slot.bookingReference === p.reference;
  const result: PaymentStatusResult = {
    payment: { id: p.id, status: p.status, amount: p.amountSen, reference: p.reference, method: p.method },
    booking: {
      confirmed,
      slotId: p.slotId,
      date: slot ? inMY(slot.startAt).format('YYYY-MM-DD') : '',
      startTime: slot ? inMY(slot.startAt).format('HH:mm') : '',
      endTime: slot ? inMY(slot.endAt).format('HH:mm') : '',
      selectedSchool: p.selectedSchool,
      visitorName: p.visitorName,
      visitorEmail: p.visitorEmail,
    },
    ...summariseMail(mails),
  };
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
