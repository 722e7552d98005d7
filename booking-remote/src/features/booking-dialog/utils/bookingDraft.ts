import { BOOKING_STORAGE_KEY, type ConsentInput, type PaymentMethod, type PaymentSession, type SiblingDetails } from 'shared-api';
import type { SlotReservation } from './reservation';

export type PaymentFlowStatus = 'idle' | 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** The booking details being drafted (spec section 3). */
export type BookingDetails = {
  visitorName: string;
  visitorEmail: string;
  visitorContactNo: string;
  selectedSchool: string;
  /** The child the assessment is for and the year or grade applied for (a key of the school's years). */
  childName: string;
  childYear: string;
  /** Brothers and sisters booked at the same time (issue 37), each with their own school and year. */
  siblings?: SiblingDetails[];
  preferredPaymentMethod: PaymentMethod;
  slot: { id: number; date: string; startTime: string };
  /** Sen: the school's fee, or for several children their total less the sibling discounts. */
  fee: number;
};

/** What survives a reload or the trip to the gateway, under BOOKING_STORAGE_KEY. */
export type BookingDraft = {
  currentBooking: BookingDetails | null;
  reservedSlot: SlotReservation | null;
  reservationExpiry: string | null;
  paymentSession: PaymentSession | null;
  paymentStatus: PaymentFlowStatus;
  /** Payment retries used so far (at most MAX_PAYMENT_RETRIES). */
  retryCount: number;
  /** The consent given for the payment at the gateway (a result page books the same time again with it). */
  consent?: ConsentInput | null;
};

export const emptyDraft = (): BookingDraft => ({
  currentBooking: null,
  reservedSlot: null,
  reservationExpiry: null,
  paymentSession: null,
  paymentStatus: 'idle',
  retryCount: 0,
});

// Storage can be full, disabled (private mode) or hold junk: the flow must carry on regardless.
export function loadDraft(): BookingDraft {
  try {
    const raw = window.localStorage.getItem(BOOKING_STORAGE_KEY);
    if (!raw) return emptyDraft();
    const parsed = JSON.parse(raw) as Partial<BookingDraft>;
    return typeof parsed === 'object' && parsed !== null ? { ...emptyDraft(), ...parsed } : emptyDraft();
  } catch {
    return emptyDraft();
  }
}

export function saveDraft(patch: Partial<BookingDraft>): BookingDraft {
  const next = { ...loadDraft(), ...patch };
  if ('reservedSlot' in patch) next.reservationExpiry = patch.reservedSlot?.expiresAt ?? null;
  try {
    window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Keep going without persistence.
  }
  return next;
}

export function clearDraft(): void {
  try {
    window.localStorage.removeItem(BOOKING_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}
