import { BOOKING_STORAGE_KEY } from 'shared-api';

/**
 * The payment this browser started, from the booking flow's draft (localStorage, BOOKING_STORAGE_KEY:
 * `paymentSession.paymentId` or `.id`). Read it before the success page clears the draft; null on another device.
 */
export function storedPaymentId(): string | null {
  try {
    const raw = window.localStorage.getItem(BOOKING_STORAGE_KEY);
    if (!raw) return null;
    const draft = JSON.parse(raw) as { paymentSession?: { paymentId?: unknown; id?: unknown } | null } | null;
    const id = draft?.paymentSession?.paymentId || draft?.paymentSession?.id;
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null;
  }
}
