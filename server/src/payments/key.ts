import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { PaymentRow } from './tables';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * True when `key` is the payment's key: its hold token, which only the caller that started the payment received (from
 * reserve or initiate) and which is never printed, mailed or put in a URL. A payment id or reference proves nothing.
 */
export function holdsPaymentKey(p: Pick<PaymentRow, 'holdToken'>, key: string | undefined): boolean {
  // Digests first: equal lengths for timingSafeEqual, and no timing hint about the token.
  return key !== undefined && key !== '' && timingSafeEqual(digest(key), digest(p.holdToken));
}

/** The request header of the routes that take a payment's key (PAYMENT_KEY_HEADER, as Node lower-cases it). */
export const paymentKeyHeaders = z.object({
  'x-payment-key': z.string().max(200).optional().describe('The payment\'s key (its hold token, from the initiate answer): without it no personal data'),
});
