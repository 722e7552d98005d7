import { formatRM, inMY, type BookingRefund, type BookingState, type CancelQuote } from 'shared-api';

// The manage page's sentences, from the booking as the server sends it (instants in UTC, shown in GMT+8).

/** "Thursday 26 November 2026" in GMT+8. */
export const dayOf = (iso: string): string => inMY(iso).format('dddd D MMMM YYYY');

/** "9:00 AM – 9:30 AM" in GMT+8. */
export const timeSpan = (start: string, end: string): string => `${inMY(start).format('h:mm A')} – ${inMY(end).format('h:mm A')}`;

/** "Thursday 26 November 2026, 9:00 AM (GMT+8)". */
export const momentText = (iso: string): string => `${dayOf(iso)}, ${inMY(iso).format('h:mm A')} (GMT+8)`;

/** Until when the parent may reschedule or cancel. */
export const deadlineText = (changeDeadline: string): string => `Changes are possible until ${momentText(changeDeadline)}.`;

/** What cancelling now gives back, said before the parent confirms. */
export function quoteText(quote: CancelQuote): string {
  if (quote.percent >= 100) return `You will get a full refund of ${formatRM(quote.amountSen)}.`;
  if (quote.percent <= 0 || quote.amountSen <= 0) return "No refund applies under the school's policy.";
  return `${formatRM(quote.amountSen)} (${quote.percent}%) will be refunded.`;
}

const refundProgress: Record<BookingRefund['state'], string> = {
  pending: 'being processed',
  refunded: 'refunded',
  failing: 'being retried; the school has been told',
};

/** "Refund of RM 75: being processed". */
export const refundText = (refund: BookingRefund): string => `Refund of ${formatRM(refund.amountSen)}: ${refundProgress[refund.state]}`;

const stateWords: Record<BookingState, string> = { booked: 'Booked and paid', cancelled: 'Cancelled', over: 'Visit is over' };
export const stateText = (state: BookingState): string => stateWords[state];
