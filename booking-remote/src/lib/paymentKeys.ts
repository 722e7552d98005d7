import { PAYMENT_KEY_HEADER, PAYMENT_KEYS_STORAGE_KEY, type PaymentSession } from 'shared-api';

/** A payment this browser started: its id, its reference, and its key (the hold token its initiate answer gave). */
type PaidHere = { paymentId: string; reference: string; key: string };

/** The latest few only: enough for a reload or print of the receipt, a second tab, the thank-you page. */
const KEPT = 5;

const isPaidHere = (entry: unknown): entry is PaidHere =>
  typeof entry === 'object' &&
  entry !== null &&
  ['paymentId', 'reference', 'key'].every((field) => typeof (entry as Record<string, unknown>)[field] === 'string');

// Storage can be full, disabled (private mode) or hold junk: then this browser simply proves nothing.
function load(): PaidHere[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(PAYMENT_KEYS_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPaidHere) : [];
  } catch {
    return [];
  }
}

/**
 * Keeps the key of a payment this browser just started. Its own list, not the booking draft: the success page clears
 * the draft (spec), and the receipt must still be this browser's on a reload, a print, or in another tab.
 */
export function rememberPayment(session: PaymentSession): void {
  const entry: PaidHere = { paymentId: session.paymentId || session.id, reference: session.clientReference, key: session.holdToken };
  if (!entry.paymentId || !entry.key) return;
  const kept = [entry, ...load().filter((e) => e.paymentId !== entry.paymentId)].slice(0, KEPT);
  try {
    window.localStorage.setItem(PAYMENT_KEYS_STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Without storage the pages show what anyone may see, and the mail has the rest.
  }
}

/** The key of a payment this browser started, found by its id or its reference; null on any other device. */
export function paymentKeyFor(idOrReference: string | null | undefined): string | null {
  if (!idOrReference) return null;
  return load().find((e) => e.paymentId === idOrReference || e.reference === idOrReference)?.key ?? null;
}

/** The header that shows the API this browser started the payment (nothing without a key). */
export const paymentKeyHeaders = (key: string | null | undefined): Record<string, string> => (key ? { [PAYMENT_KEY_HEADER]: key } : {});
