import {
  ErrorCode,
  HOLD_TIME_CAP_MINUTES,
  HOLD_TIME_WINDOW_MINUTES,
  MAX_PAYMENT_RETRIES,
  type ConsentInput,
  type PaymentSession,
  type PaymentStatusResult,
  type SiblingDetailsInput,
  type VisitorDetails,
  type VisitorDetailsInput,
} from 'shared-api';
import { failureOf } from '../../../lib/apiError';
import { holdChallengeOf, isHoldLimit } from '../../../lib/hold-limit/holdLimit';
import type { DialogMessageId } from '../i18n';
import type { BookingDetails, BookingDraft } from '../utils/bookingDraft';
import { activeReservation, type SlotReservation } from '../utils/reservation';

// The booking dialog's steps and transitions (spec section 4) as a pure function: an event and the state give the
// next state and the effects to run (calls, toasts, the draft in local storage, leaving for the gateway). The component
// renders the state and runs the effects; an effect's answer comes back as an event.

/** 409 from reserve or payment: this free time is being offered to the waitlist first (issue 26's contract). */
export const WAITLIST_FIRST = 'WAITLIST_FIRST';

export type Step = 'details' | 'payment' | 'processing';

/** What the parent has typed: the parent and the first child, and any brothers and sisters (issue 37). */
export type TypedDetails = Partial<VisitorDetailsInput> & { siblings?: SiblingDetailsInput[] };

/** A field of the details step the parent can go back to from the summary. */
export type EditableField = 'visitorEmail' | 'visitorContactNo';

/** A toast's words: a text of the dialog's catalogue, or what a failed call said (`apiErrorText`, else `fallback`). */
export type ToastText = { id: DialogMessageId; values?: Record<string, number> } | { failure: unknown; fallback: DialogMessageId };

/** What a new hold leads to: the summary with the details just given, or on to paying with the summary's. */
export type AfterHold = { to: 'summary'; booking: BookingDetails } | { to: 'pay'; booking: BookingDetails; consent: ConsentInput };

export type FlowEffect =
  /** Let go of a hold a draft of an earlier opening kept on another slot. */
  | { type: 'releaseEarlierHold' }
  /** Hold the slot (solving a hold-limit challenge if asked); answered by `held` or `reserveFailed`. */
  | { type: 'reserve'; attempt: number; after: AfterHold }
  /** Create the payment with the hold; answered by `initiated` or `initiateFailed`. */
  | { type: 'initiate'; attempt: number; booking: BookingDetails; consent: ConsentInput; holdToken: string }
  | { type: 'release'; reservation: SlotReservation }
  /** Give up a payment session on the gateway; `sayIfFails`: the parent stays on the page and is told if it fails. */
  | { type: 'cancelPayment'; id: string; key: string | null; sayIfFails: boolean }
  | { type: 'saveDraft'; patch: Partial<BookingDraft> }
  | { type: 'clearDraft' }
  | { type: 'toast'; tone: 'success' | 'error'; text: ToastText }
  /** The timetable reads its list again (a slot was taken or booked). */
  | { type: 'refreshSlots' }
  /** Keep the payment's key and leave for the gateway's page. */
  | { type: 'checkout'; session: PaymentSession }
  | { type: 'close' }
  | { type: 'thankYou'; result: PaymentStatusResult }
  | { type: 'reload' };

export type FlowEvent =
  /**
   * The timetable's list, read again while the dialog is open, no longer offers the chosen time (booked or held by
   * someone else): with what the parent has typed so far and whether the consent box is ticked.
   */
  | { type: 'unlisted'; typed: TypedDetails; consent: ConsentInput | null; now: number }
  /** Continue to Payment with valid details and the consent; `now` decides whether the hold is still good. */
  | { type: 'detailsSubmitted'; details: VisitorDetails; booking: BookingDetails; consent: ConsentInput; now: number }
  | { type: 'held'; attempt: number; reservation: SlotReservation; after: AfterHold }
  | { type: 'reserveFailed'; attempt: number; error: unknown; after: AfterHold }
  /** Back to Details, or a summary's Change (with the field to fix). */
  | { type: 'backToDetails'; field?: EditableField }
  | { type: 'proceedToPayment'; now: number }
  /** The payment session, or null when the answer was not one (an invalid response). */
  | { type: 'initiated'; attempt: number; session: PaymentSession | null }
  | { type: 'initiateFailed'; attempt: number; error: unknown }
  /** A hold-limit challenge is being solved, or no longer. */
  | { type: 'checking'; checking: boolean }
  /** The browser showed the page again from its cache (Back from the gateway). */
  | { type: 'returned' }
  | { type: 'status'; result: PaymentStatusResult }
  /** The session countdown reached zero. */
  | { type: 'sessionExpired' }
  | { type: 'cancelProcessing' }
  /** Retry on the payment error, with the retries this browser has used. */
  | { type: 'retry'; retriesUsed: number }
  /** Escape, the close button, or Cancel in details. */
  | { type: 'backOut' };

export type FlowState = {
  slotId: number;
  step: Step;
  /** The field the parent came back from the summary to fix (focus lands on it). */
  editing: EditableField | null;
  /** Continue to Payment is waiting for the hold. */
  reserving: boolean;
  /** Solving a hold-limit challenge (one connection holding many slots, e.g. a carrier NAT on enrolment day). */
  checking: boolean;
  /** What is being paid for, once held. */
  booking: BookingDetails | null;
  /** The parent's consent to the privacy notice, sent with the payment (no payment is recorded without it). */
  consent: ConsentInput | null;
  /** What the parent typed last (for the waitlist form when the time was taken meanwhile). */
  typed: TypedDetails | undefined;
  /**
   * The chosen time is not to be had now: why (said once, in place), and whether the waitlist would help. `fewer`: it
   * still has places, only not one for each child (issue 37): the parent may go on there with fewer children.
   */
  gone: { text: ToastText; waitlist: boolean; fewer?: boolean } | null;
  reservation: SlotReservation | null;
  session: PaymentSession | null;
  /** The payment the browser last left for the gateway with, and the one it came back from. */
  leftWith: string | null;
  returnedTo: string | null;
  /** Bumped whenever the parent backs out: an answer to an earlier attempt is not acted on. */
  attempt: number;
  closed: boolean;
};

export type Transition = { state: FlowState; effects: FlowEffect[] };

export const paymentIdOf = (session: PaymentSession | null): string => session?.paymentId || session?.id || '';

/** Status is asked about only once the parent is back: before the browser has left, a call would only spend the gateway check. */
export const isPolling = (state: FlowState): boolean => {
  const id = paymentIdOf(state.session);
  return state.step === 'processing' && id !== '' && state.returnedTo === id;
};

/**
 * A new opening: at the details (the details typed before, if any), or for a waitlist offer the parent accepted, at the
 * summary with the offer's hold, the entry's details and the consent given on joining. A draft of an earlier opening
 * is let go.
 */
export function openFlow(
  slotId: number,
  {
    typed,
    consent,
    offer,
  }: { typed?: TypedDetails; consent?: ConsentInput; offer?: { booking: BookingDetails; consent: ConsentInput; reservation: SlotReservation } },
): Transition {
  const state: FlowState = {
    slotId,
    step: offer ? 'payment' : 'details',
    editing: null,
    reserving: false,
    checking: false,
    booking: offer?.booking ?? null,
    consent: offer?.consent ?? consent ?? null,
    typed,
    gone: null,
    reservation: offer?.reservation ?? null,
    session: null,
    leftWith: null,
    returnedTo: null,
    attempt: 0,
    closed: false,
  };
  const effects: FlowEffect[] = [{ type: 'releaseEarlierHold' }, { type: 'clearDraft' }];
  if (offer) effects.push({ type: 'saveDraft', patch: { reservedSlot: offer.reservation, currentBooking: offer.booking, paymentStatus: 'idle' } });
  return { state, effects };
}

const toastError = (text: ToastText): FlowEffect => ({ type: 'toast', tone: 'error', text });

/** Lets go of the hold. */
const release = (state: FlowState): Transition => ({
  state: { ...state, reservation: null },
  effects: [...(state.reservation ? [{ type: 'release', reservation: state.reservation } as const] : []), { type: 'saveDraft', patch: { reservedSlot: null } }],
});

const closing: FlowEffect[] = [{ type: 'clearDraft' }, { type: 'close' }];

/** The summary, with what was held for. */
const toSummary = (state: FlowState, booking: BookingDetails, effects: FlowEffect[] = []): Transition => ({
  state: { ...state, booking, step: 'payment' },
  effects: [...effects, { type: 'saveDraft', patch: { currentBooking: booking, paymentStatus: 'idle' } }],
});

/** Payment failed, was cancelled on the gateway or its session ran out: back to the summary, the slot let go. */
function paymentFailed(state: FlowState, id: DialogMessageId): Transition {
  const released = release(state);
  return {
    state: { ...released.state, session: null, step: 'payment' },
    effects: [toastError({ id }), ...released.effects, { type: 'saveDraft', patch: { paymentSession: null, paymentStatus: 'failed' } }],
  };
}

/** The rule of a SLOT_NOT_AVAILABLE that had a place, but not one for every child of the checkout (issue 37). */
const NOT_ENOUGH_PLACES = 'notEnoughPlaces';

const SLOT_GONE: readonly string[] = [ErrorCode.SLOT_RESERVED, ErrorCode.SLOT_NOT_AVAILABLE, ErrorCode.HOLD_TIME_USED, WAITLIST_FIRST];

/**
 * The refusals that end this attempt: the slot is not to be had now (reserved, taken, held as long as one visitor may,
 * offered to the waitlist first) says so once in the dialog, which stays at the details with everything typed (the
 * home page offers the nearest free times and the waitlist), and refreshes the list; a hold limit no proof of work
 * lifted says so and goes back to the details. Null for any other failure.
 */
function refused(state: FlowState, error: unknown): Transition | null {
  const { code, reason } = failureOf(error);
  if (code === ErrorCode.SLOT_NOT_AVAILABLE && reason?.rule === NOT_ENOUGH_PLACES) {
    // Fewer free places than children: the time is not gone, only too small for all of them (the waitlist seats one).
    return { state: { ...state, step: 'details', gone: { text: { failure: error, fallback: NOT_ENOUGH_PLACES }, waitlist: false, fewer: true } }, effects: [{ type: 'refreshSlots' }] };
  }
  if (code !== undefined && SLOT_GONE.includes(code)) {
    const text: ToastText =
      code === ErrorCode.HOLD_TIME_USED
        ? { id: 'holdTimeUsed', values: { minutes: HOLD_TIME_CAP_MINUTES, hours: HOLD_TIME_WINDOW_MINUTES / 60 } }
        : code === WAITLIST_FIRST
          ? { id: 'waitlistFirst' }
          : code === ErrorCode.SLOT_RESERVED
            ? { failure: error, fallback: 'slotReserved' }
            : { id: 'slotNotAvailable' };
    // Held as long as one visitor may: the waitlist would not help (the time is free, just not for them now).
    const gone = { text, waitlist: code !== ErrorCode.HOLD_TIME_USED };
    return {
      state: { ...state, step: 'details', gone },
      effects: [{ type: 'refreshSlots' }],
    };
  }
  if (isHoldLimit(error)) {
    // The server's words, unless they were for a solver.
    return { state: { ...state, step: 'details' }, effects: [toastError(holdChallengeOf(error) ? { id: 'holdLimit' } : { failure: error, fallback: 'holdLimit' })] };
  }
  return null;
}

/** An answer to an attempt the parent has since backed out of (or to a closed dialog). */
const isStale = (state: FlowState, attempt: number) => state.closed || attempt !== state.attempt;

/** The transitions of spec section 4's booking dialog step. */
export function bookingFlow(state: FlowState, event: FlowEvent): Transition {
  switch (event.type) {
    case 'detailsSubmitted': {
      // Submitted again after too few places: tried afresh (with fewer children, say), the notice goes.
      const next = { ...state, consent: event.consent, typed: event.details, gone: state.gone?.fewer ? null : state.gone };
      const held = activeReservation(state.reservation, event.now);
      if (held && held.slotId === state.slotId) return toSummary(next, event.booking);
      return { state: { ...next, reserving: true }, effects: [{ type: 'reserve', attempt: state.attempt, after: { to: 'summary', booking: event.booking } }] };
    }
    case 'held': {
      if (isStale(state, event.attempt)) return { state: { ...state, reserving: false }, effects: [{ type: 'release', reservation: event.reservation }] };
      // A time with several seats: the server may hold another seat of the time than the one listed; it is the one paid for.
      const seat = event.reservation.slotId;
      const next = { ...state, slotId: seat, reserving: false, reservation: event.reservation };
      const saved: FlowEffect = { type: 'saveDraft', patch: { reservedSlot: event.reservation } };
      const after: AfterHold = { ...event.after, booking: { ...event.after.booking, slot: { ...event.after.booking.slot, id: seat } } };
      if (after.to === 'summary') return toSummary(next, after.booking, [saved]);
      return {
        state: next,
        effects: [saved, { type: 'initiate', attempt: state.attempt, booking: after.booking, consent: after.consent, holdToken: event.reservation.token }],
      };
    }
    case 'reserveFailed': {
      if (isStale(state, event.attempt)) return { state: { ...state, reserving: false }, effects: [] };
      const outcome = refused(state, event.error) ?? { state, effects: [toastError({ id: 'reserveFailed' })] };
      // Proceed to Payment could not hold the slot again: back to the summary (unless the dialog closed).
      const step = event.after.to === 'pay' && !outcome.state.closed && !outcome.state.gone ? 'payment' : outcome.state.step;
      return { state: { ...outcome.state, reserving: false, step }, effects: outcome.effects };
    }
    case 'unlisted': {
      // Only a time the parent is choosing: once held (or being held) the list hides it for their own hold.
      const own = activeReservation(state.reservation, event.now);
      if (state.step !== 'details' || (state.gone && !state.gone.fewer) || state.reserving || state.closed || (own && own.slotId === state.slotId)) return { state, effects: [] };
      const consent = event.consent ?? state.consent;
      return {
        state: { ...state, typed: event.typed, consent, gone: { text: { id: 'slotNotAvailable' }, waitlist: true } },
        effects: [],
      };
    }
    case 'backToDetails':
      return { state: { ...state, editing: event.field ?? null, step: 'details' }, effects: [] };
    case 'proceedToPayment': {
      const { booking, consent } = state;
      if (!booking || !consent) return { state: { ...state, step: 'details' }, effects: [toastError({ id: 'noBookingData' })] };
      const next: FlowState = { ...state, session: null, step: 'processing' };
      const held = activeReservation(state.reservation, event.now);
      // The hold lapsed (or never was): hold the slot again first.
      if (!held || held.slotId !== state.slotId) return { state: next, effects: [{ type: 'reserve', attempt: state.attempt, after: { to: 'pay', booking, consent } }] };
      return { state: next, effects: [{ type: 'initiate', attempt: state.attempt, booking, consent, holdToken: held.token }] };
    }
    case 'initiated': {
      const { session } = event;
      if (isStale(state, event.attempt)) {
        // Cancelled while the session was being created: give it up rather than leave for the gateway.
        return { state, effects: session ? [{ type: 'cancelPayment', id: paymentIdOf(session), key: session.holdToken, sayIfFails: false }] : [] };
      }
      if (!session) return { state: { ...state, step: 'payment' }, effects: [toastError({ id: 'serviceUnavailable' })] };
      return {
        state: { ...state, session, leftWith: paymentIdOf(session) },
        effects: [{ type: 'saveDraft', patch: { paymentSession: session, paymentStatus: 'pending', consent: state.consent } }, { type: 'checkout', session }],
      };
    }
    case 'initiateFailed': {
      if (isStale(state, event.attempt)) return { state, effects: [] };
      return refused(state, event.error) ?? { state: { ...state, step: 'payment' }, effects: [toastError({ failure: event.error, fallback: 'initiationFailed' })] };
    }
    case 'checking':
      return { state: { ...state, checking: event.checking }, effects: [] };
    case 'returned':
      return { state: { ...state, returnedTo: state.leftWith }, effects: [] };
    case 'status': {
      if (state.closed || !isPolling(state)) return { state, effects: [] };
      const { result } = event;
      switch (result.payment.status) {
        case 'completed':
          return {
            state: { ...state, closed: true },
            effects: [{ type: 'toast', tone: 'success', text: { id: 'paymentSuccess' } }, { type: 'refreshSlots' }, ...closing, { type: 'thankYou', result }],
          };
        case 'failed':
          return paymentFailed(state, 'paymentFailed');
        // Cancelled on the gateway's page: nothing was charged, and the summary offers the slot again.
        case 'cancelled':
          return paymentFailed(state, 'paymentCancelled');
        // A status check records whatever the server says.
        case 'pending':
        case 'processing':
          return { state, effects: [{ type: 'saveDraft', patch: { paymentStatus: result.payment.status } }] };
        default:
          return { state, effects: [] };
      }
    }
    case 'sessionExpired':
      return state.closed || !isPolling(state) ? { state, effects: [] } : paymentFailed(state, 'sessionExpired');
    case 'cancelProcessing': {
      const id = paymentIdOf(state.session);
      const released = release({ ...state, attempt: state.attempt + 1 });
      return {
        state: { ...released.state, session: null, step: 'details' },
        effects: [
          // The parent stays on the page: say so if the gateway session could not be closed.
          ...(id ? [{ type: 'cancelPayment', id, key: state.session?.holdToken ?? null, sayIfFails: true } as const] : []),
          ...released.effects,
          { type: 'saveDraft', patch: { paymentSession: null, paymentStatus: 'cancelled' } },
        ],
      };
    }
    case 'retry':
      if (event.retriesUsed >= MAX_PAYMENT_RETRIES) return { state, effects: [toastError({ id: 'maxRetries' })] };
      return { state, effects: [{ type: 'saveDraft', patch: { retryCount: event.retriesUsed + 1 } }, { type: 'reload' }] };
    case 'backOut': {
      const id = paymentIdOf(state.session);
      const released = release({ ...state, attempt: state.attempt + 1 });
      return {
        state: { ...released.state, closed: true },
        effects: [
          ...(state.step === 'processing' && id ? [{ type: 'cancelPayment', id, key: state.session?.holdToken ?? null, sayIfFails: false } as const] : []),
          ...released.effects,
          ...closing,
        ],
      };
    }
  }
}
