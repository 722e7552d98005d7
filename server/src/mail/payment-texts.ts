import { formatRM } from './format';

/** Why a paid payment was not booked (and is refunded). */
export type RefundCause = 'slot_taken' | 'cancelled' | 'amount_mismatch';

/** The cause as staff read it in `payments.refund_reason`. */
export const RefundReason = {
  slotTaken: 'The slot was no longer available when the payment arrived',
  cancelled: 'Paid after the payment was cancelled',
  amountMismatch: (paidSen: number, expectedSen: number) => `Gateway reported ${paidSen} sen paid, expected ${expectedSen}`,
} as const;

/** The cause in a parent's words (status message and the refund mail). */
export const refundCauseText = (cause: RefundCause, paidSen: number, expectedSen: number): string =>
  cause === 'amount_mismatch'
    ? `The amount received (${formatRM(paidSen)}) did not match the fee for this visit (${formatRM(expectedSen)}), so the slot was not booked.`
    : cause === 'cancelled'
      ? 'Your payment was received after the booking was cancelled, so no slot was booked.'
      : 'Your payment was received after this slot was no longer available, so it was not booked.';

/** What the payment routes say to a parent (server-side texts; the spec's own words live in shared-api's contract). */
export const PaymentText = {
  notFound: 'Payment not found.',
  feeMismatch: (expected: number) =>
    `The fee does not match the current price for this school (${formatRM(expected)}). Please refresh and try again.`,
  slotMismatch: 'The slot date and time do not match this slot. Please refresh the timetable and try again.',
  pending: 'Payment is being processed.',
  cancelled: 'Payment cancelled. The slot has been released.',
  alreadyPaid: 'This payment has already been completed, so it cannot be cancelled.',
  notYours: 'Only the browser that started this payment can cancel it.',
  refundPending: (cause: string, amount: number) => `${cause} A full refund of ${formatRM(amount)} is being processed.`,
  refunded: (cause: string, amount: number) => `${cause} A full refund of ${formatRM(amount)} has been issued.`,
  /** A paid booking cancelled afterwards (by the parent or staff): what a status check says. */
  bookingCancelled: (refundSen: number, state: 'pending' | 'refunded' | 'none') =>
    state === 'none'
      ? 'This booking has been cancelled.'
      : `This booking has been cancelled. A refund of ${formatRM(refundSen)} ${state === 'refunded' ? 'has been issued' : 'is being processed'}.`,
  bookingMismatch: 'The booking does not belong to this payment.',
  unknownCurrency: 'Only MYR is supported.',
} as const;
