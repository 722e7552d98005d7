// How Appointment Details and the CSV export word a paid booking's state, its refund and its history (GMT+8, RM).
import { formatRM, type BookingEvent, type BookingRefund, type BookingState, type RefundState } from 'shared-api';
import { BookingEventLabel } from 'shared-api/manage';
import { formatDateTime } from './format';

export const BookingStateLabel: Record<BookingState, string> = {
  booked: 'Booked',
  cancelled: 'Cancelled',
  over: 'Visit over',
};

export const RefundStateLabel: Record<RefundState, string> = {
  pending: 'refund pending',
  refunded: 'refunded',
  failing: 'refund failing',
};

/** Who did it: the parent, a staff member (by email) or the system (automatic: reconciliation, refund retries). */
export function actorText(actor: string): string {
  if (actor === 'system') return '(automatic)';
  if (actor === 'parent') return 'by parent';
  return `by ${actor}`;
}

/** What the event changed: a reschedule's old and new times, a refund's amount. */
export function eventDetail(event: BookingEvent): string | null {
  if (event.kind === 'rescheduled' && event.fromStart && event.toStart) {
    return `from ${formatDateTime(event.fromStart)} to ${formatDateTime(event.toStart)}`;
  }
  return event.amountSen === null ? null : formatRM(event.amountSen);
}

/** One line of the history: 'Rescheduled by parent: from Nov 24, 2026, 9:00 AM to Nov 25, 2026, 10:30 AM'. */
export function eventSummary(event: BookingEvent): string {
  const detail = eventDetail(event);
  return `${BookingEventLabel[event.kind]} ${actorText(event.actor)}${detail ? `: ${detail}` : ''}`;
}

/** 'RM 100 refunded', 'RM 100 refund pending', 'RM 100 refund failing'; 'No refund' for a booking cancelled without one; '' while nothing was cancelled. */
export function refundText(state: BookingState, refund: BookingRefund | null): string {
  if (refund && refund.amountSen > 0) return `${formatRM(refund.amountSen)} ${RefundStateLabel[refund.state]}`;
  return state === 'cancelled' ? 'No refund' : '';
}
