import { PAYMENT_ID_PATTERN, PAYMENT_REFERENCE_PATTERN, PaymentFailureCode } from 'shared-api';

type FailureMessageId = 'failure.paymentFailed' | 'failure.paymentDeclined' | 'failure.paymentCancelled' | 'failure.sessionExpired';

/** Each `error=` value the page names, and its message; the spec's own 'Payment failed' is the same failure as its code. */
const failureMessages = new Map<string, FailureMessageId>([
  [PaymentFailureCode.failed, 'failure.paymentFailed'],
  ['Payment failed', 'failure.paymentFailed'],
  [PaymentFailureCode.declined, 'failure.paymentDeclined'],
  [PaymentFailureCode.cancelled, 'failure.paymentCancelled'],
  [PaymentFailureCode.expired, 'failure.sessionExpired'],
]);

/**
 * The page's own message for an `error=` value, or null: anything else in the URL (a link anyone can send, on the
 * school's domain) is never shown.
 */
export const failureMessageId = (error: string | null): FailureMessageId | null => (error === null ? null : (failureMessages.get(error) ?? null));

/** A payment id or reference from the URL, only when it has the shape the server gives them; null otherwise. */
export const paymentIdShown = (value: string | null): string | null =>
  value !== null && (PAYMENT_ID_PATTERN.test(value) || PAYMENT_REFERENCE_PATTERN.test(value)) ? value : null;

/** `/payment/failure` for a payment, with the code of why it failed. */
export const failurePath = (paymentId: string, code: PaymentFailureCode): string =>
  `/payment/failure?${new URLSearchParams({ payment_id: paymentId, error: code }).toString()}`;
