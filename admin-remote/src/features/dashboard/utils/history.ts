// How Appointment Details and the CSV export word a paid booking's state, its refund and its history (GMT+8, RM).
import { formatRM, type BookingEvent, type BookingRefund, type BookingState, type RefundState } from 'shared-api';
import { BookingEventLabel } from 'shared-api/manage';
import { dashboardText } from '../i18n';
import { formatInstant } from '../../../lib/format';

const STATE_TEXT = { booked: 'stateBooked', cancelled: 'stateCancelled', over: 'stateOver' } as const satisfies Record<BookingState, string>;
const REFUND_TEXT = { pending: 'refundPending', refunded: 'refundRefunded', failing: 'refundFailing' } as const satisfies Record<RefundState, string>;

/** 'Booked', 'Cancelled', 'Visit over'. */
export const bookingStateLabel = (state: BookingState): string => dashboardText(STATE_TEXT[state]);

/** Who did it: the parent, a staff member (by email) or the system (automatic: reconciliation, refund retries). */
export function actorText(actor: string): string {
  if (actor === 'system') return dashboardText('byAutomatic');
  if (actor === 'parent') return dashboardText('byParent');
  return dashboardText('byStaff', { actor });
}

/** What the event changed: a reschedule's old and new times, a refund's amount. */
export function eventDetail(event: BookingEvent): string | null {
  if (event.kind === 'rescheduled' && event.fromStart && event.toStart) {
    const moved = dashboardText('eventMoved', { from: formatInstant(event.fromStart), to: formatInstant(event.toStart) });
    // One child of several moved alone (issue 37): who.
    return event.childName ? `${event.childName}, ${moved}` : moved;
  }
  const amount = event.amountSen === null ? null : formatRM(event.amountSen);
  // One child of a booking of several (issue 37): who, and their share when refunded.
  if (event.childName) return amount ? `${event.childName}, ${amount}` : event.childName;
  return amount;
}

/** One line of the history: 'Rescheduled by parent: from Nov 24, 2026, 9:00 AM to Nov 25, 2026, 10:30 AM'. */
export function eventSummary(event: BookingEvent): string {
  const detail = eventDetail(event);
  const words = { event: BookingEventLabel[event.kind], actor: actorText(event.actor) };
  return detail ? dashboardText('eventSummaryDetail', { ...words, detail }) : dashboardText('eventSummary', words);
}

/** 'RM 100 refunded', 'RM 100 refund pending', 'RM 100 refund failing'; 'No refund' for a booking cancelled without one; '' while nothing was cancelled. */
export function refundText(state: BookingState, refund: BookingRefund | null): string {
  if (refund && refund.amountSen > 0) return dashboardText(REFUND_TEXT[refund.state], { amount: formatRM(refund.amountSen) });
  return state === 'cancelled' ? dashboardText('noRefund') : '';
}

/** A child cancelled alone of a booking of several (issue 37): 'RM 45 refunded', or 'No refund'. */
export const childRefundText = (refundSen: number | null): string =>
  refundSen ? dashboardText('childRefunded', { amount: formatRM(refundSen) }) : dashboardText('noRefund');
