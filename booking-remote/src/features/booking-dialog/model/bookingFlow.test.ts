import { HOLD_TIME_CAP_MINUTES, HOLD_TIME_WINDOW_MINUTES, MAX_PAYMENT_RETRIES, type ConsentInput, type VisitorDetails } from 'shared-api';
import { paymentSession, paymentStatusResult } from '../../../test/fixtures';
import type { BookingDetails } from '../utils/bookingDraft';
import { createReservation } from '../utils/reservation';
import { bookingFlow, isPolling, openFlow, WAITLIST_FIRST, type FlowEvent, type FlowState, type Transition } from './bookingFlow';

// Spec section 4, "Booking dialog step": each transition of the dialog, as the pure flow takes it (the component only
// renders the state and runs the effects).

const T0 = Date.parse('2026-11-25T10:00:00+08:00');
const SLOT = 7;
const details: VisitorDetails = {
  visitorName: 'Aisyah Rahman',
  visitorEmail: 'aisyah@example.com',
  visitorContactNo: '0123456789',
  selectedSchool: 'Seri Ilmu Private Secondary',
  childName: 'Nur Iman',
  childYear: 'Form 1',
};
const booking: BookingDetails = { ...details, preferredPaymentMethod: 'fpx', slot: { id: SLOT, date: '2026-11-26', startTime: '09:00' }, fee: 7500 };
const consent: ConsentInput = { noticeVersion: '1', language: 'en' };
const hold = createReservation(SLOT, 'hold-token', T0);
const session = paymentSession({ expiresAt: new Date(T0 + 15 * 60_000).toISOString() });
/** A failed call as RTK Query gives it. */
const refusal = (error: string, status = 409, data: Record<string, unknown> | null = null) => ({ status, data: { success: false, data, message: `server: ${error}`, error } });

/** Runs events one after another from a state; the last transition. */
function run(state: FlowState, ...events: FlowEvent[]): Transition {
  let last: Transition = { state, effects: [] };
  for (const event of events) last = bookingFlow(last.state, event);
  return last;
}
const opened = () => openFlow(SLOT, {}).state;
const submitted: FlowEvent = { type: 'detailsSubmitted', details, booking, consent, now: T0 };
const held: FlowEvent = { type: 'held', attempt: 0, reservation: hold, after: { to: 'summary', booking } };
const atSummary = () => run(opened(), submitted, held).state;
/** Proceeded with a good hold, the session created and the browser gone to the gateway and back. */
const backFromGateway = () => run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiated', attempt: 0, session }, { type: 'returned' }).state;

describe('opening', () => {
  it('opens on the details and lets go of an earlier draft', () => {
    const { state, effects } = openFlow(SLOT, {});
    expect(state).toMatchObject({ step: 'details', booking: null, reservation: null, closed: false });
    expect(effects).toEqual([{ type: 'releaseEarlierHold' }, { type: 'clearDraft' }]);
  });

  it('a waitlist offer (its first claim) opens at the summary with the offer’s hold, and keeps it in the draft', () => {
    const { state, effects } = openFlow(SLOT, { typed: details, offer: { booking, consent, reservation: hold } });
    expect(state).toMatchObject({ step: 'payment', booking, consent, reservation: hold });
    expect(effects).toContainEqual({ type: 'saveDraft', patch: { reservedSlot: hold, currentBooking: booking, paymentStatus: 'idle' } });
  });
});

describe('details -> payment: after valid details and a successful slot reservation', () => {
  it('valid details reserve the slot, and wait for it', () => {
    const { state, effects } = run(opened(), submitted);
    expect(state).toMatchObject({ step: 'details', reserving: true, consent });
    expect(effects).toEqual([{ type: 'reserve', attempt: 0, after: { to: 'summary', booking } }]);
  });

  it('the reservation shows the payment summary and is kept in the draft', () => {
    const { state, effects } = run(opened(), submitted, held);
    expect(state).toMatchObject({ step: 'payment', reserving: false, booking, reservation: hold });
    expect(effects).toEqual([
      { type: 'saveDraft', patch: { reservedSlot: hold } },
      { type: 'saveDraft', patch: { currentBooking: booking, paymentStatus: 'idle' } },
    ]);
  });

  it('a hold still good is not asked for again (details sent again after Back)', () => {
    const { state, effects } = run(atSummary(), { type: 'backToDetails' }, { ...submitted, now: T0 + 60_000 });
    expect(state.step).toBe('payment');
    expect(effects.map((e) => e.type)).toEqual(['saveDraft']);
  });

  it("a failed reservation stays on the details with 'Failed to reserve slot. Please try again.'", () => {
    const { state, effects } = run(opened(), submitted, { type: 'reserveFailed', attempt: 0, error: refusal('INTERNAL', 500), after: { to: 'summary', booking } });
    expect(state).toMatchObject({ step: 'details', reserving: false, closed: false });
    expect(effects).toEqual([{ type: 'toast', tone: 'error', text: { id: 'reserveFailed' } }]);
  });

  it('a hold limit no proof of work lifted says so and stays on the details', () => {
    const { state, effects } = run(opened(), submitted, { type: 'reserveFailed', attempt: 0, error: refusal('HOLD_LIMIT', 429), after: { to: 'summary', booking } });
    expect(state.step).toBe('details');
    expect(effects).toEqual([{ type: 'toast', tone: 'error', text: { failure: refusal('HOLD_LIMIT', 429), fallback: 'holdLimit' } }]);
    // A challenge that could not be solved: the dialog's own words (the server's were for a solver).
    const challenged = refusal('HOLD_LIMIT', 429, { challenge: { nonce: 'n', work: 1 } });
    expect(run(opened(), submitted, { type: 'reserveFailed', attempt: 0, error: challenged, after: { to: 'summary', booking } }).effects).toEqual([
      { type: 'toast', tone: 'error', text: { id: 'holdLimit' } },
    ]);
  });

  it('shows the proof-of-work check while it runs', () => {
    expect(run(opened(), submitted, { type: 'checking', checking: true }).state.checking).toBe(true);
    expect(run(opened(), submitted, { type: 'checking', checking: true }, { type: 'checking', checking: false }).state.checking).toBe(false);
  });
});

describe('the time is not to be had: the dialog stays with what was typed', () => {
  it.each([
    ['SLOT_RESERVED', { failure: refusal('SLOT_RESERVED'), fallback: 'slotReserved' }],
    ['SLOT_NOT_AVAILABLE', { id: 'slotNotAvailable' }],
    [WAITLIST_FIRST, { id: 'waitlistFirst' }],
  ])('%s is said once in place (no toast), refreshes the list and keeps the details and consent for other times and the waitlist', (code, text) => {
    const { state, effects } = run(opened(), submitted, { type: 'reserveFailed', attempt: 0, error: refusal(code), after: { to: 'summary', booking } });
    expect(state).toMatchObject({ step: 'details', closed: false, reserving: false, gone: { text, waitlist: true }, typed: details, consent });
    expect(effects).toEqual([{ type: 'refreshSlots' }]);
  });

  it('held as long as one visitor may (HOLD_TIME_USED): says so with the numbers in place, and the waitlist would not help', () => {
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiateFailed', attempt: 0, error: refusal('HOLD_TIME_USED', 429) });
    expect(state).toMatchObject({
      step: 'details',
      closed: false,
      gone: { text: { id: 'holdTimeUsed', values: { minutes: HOLD_TIME_CAP_MINUTES, hours: HOLD_TIME_WINDOW_MINUTES / 60 } }, waitlist: false },
    });
    expect(effects.map((e) => e.type)).toEqual(['refreshSlots']);
  });

  it('the list stops offering the time while the parent types: said at once in place, with what is typed and the consent kept', () => {
    const typed = { visitorName: 'Aisyah', visitorEmail: '' };
    const { state, effects } = run(opened(), { type: 'unlisted', typed, consent, now: T0 });
    expect(state).toMatchObject({ step: 'details', closed: false, gone: { text: { id: 'slotNotAvailable' }, waitlist: true }, typed, consent });
    expect(effects).toEqual([]);
  });

  it('the list hides a time for the parent\'s own hold: nothing is said while it is held, being held, or past the details', () => {
    const unlisted: FlowEvent = { type: 'unlisted', typed: details, consent, now: T0 };
    expect(run(atSummary(), unlisted).state.gone).toBeNull();
    expect(run(atSummary(), { type: 'backToDetails' }, unlisted).state.gone).toBeNull();
    expect(run(opened(), submitted, unlisted).state.gone).toBeNull();
    // The hold ran out at the details: the time may be someone else's now.
    expect(run(atSummary(), { type: 'backToDetails' }, { ...unlisted, now: T0 + 16 * 60_000 }).state.gone).not.toBeNull();
  });
});

describe('payment', () => {
  it('Back from payment returns to details, keeping the details and the hold', () => {
    const { state, effects } = run(atSummary(), { type: 'backToDetails' });
    expect(state).toMatchObject({ step: 'details', booking, reservation: hold, editing: null });
    expect(effects).toEqual([]);
  });

  it('Change on the summary returns to details on that field', () => {
    expect(run(atSummary(), { type: 'backToDetails', field: 'visitorEmail' }).state).toMatchObject({ step: 'details', editing: 'visitorEmail' });
  });

  it('Proceed to Payment goes to processing and initiates with the hold', () => {
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 + 60_000 });
    expect(state).toMatchObject({ step: 'processing', session: null });
    expect(effects).toEqual([{ type: 'initiate', attempt: 0, booking, consent, holdToken: 'hold-token' }]);
  });

  it('Proceed to Payment after the hold expired reserves again, then initiates with the new hold', () => {
    const later = T0 + 16 * 60_000;
    const proceeded = run(atSummary(), { type: 'proceedToPayment', now: later });
    expect(proceeded.effects).toEqual([{ type: 'reserve', attempt: 0, after: { to: 'pay', booking, consent } }]);
    const renewed = createReservation(SLOT, 'hold-token-2', later);
    const { state, effects } = run(proceeded.state, { type: 'held', attempt: 0, reservation: renewed, after: { to: 'pay', booking, consent } });
    expect(state).toMatchObject({ step: 'processing', reservation: renewed });
    expect(effects).toEqual([
      { type: 'saveDraft', patch: { reservedSlot: renewed } },
      { type: 'initiate', attempt: 0, booking, consent, holdToken: 'hold-token-2' },
    ]);
  });

  it('a time with several seats: the seat the server held (not the one listed) is the one shown and paid for', () => {
    const OTHER_SEAT = SLOT + 1;
    const seat = createReservation(OTHER_SEAT, 'hold-token', T0);
    const atSummaryNow = run(opened(), submitted, { type: 'held', attempt: 0, reservation: seat, after: { to: 'summary', booking } });
    expect(atSummaryNow.state).toMatchObject({ step: 'payment', slotId: OTHER_SEAT, booking: { slot: { id: OTHER_SEAT, startTime: '09:00' } } });
    const { effects } = run(atSummaryNow.state, { type: 'proceedToPayment', now: T0 + 60_000 });
    expect(effects).toEqual([{ type: 'initiate', attempt: 0, booking: { ...booking, slot: { ...booking.slot, id: OTHER_SEAT } }, consent, holdToken: 'hold-token' }]);
  });

  it('the slot could not be held again: back to the payment summary', () => {
    const proceeded = run(atSummary(), { type: 'proceedToPayment', now: T0 + 16 * 60_000 });
    const { state } = run(proceeded.state, { type: 'reserveFailed', attempt: 0, error: refusal('HOLD_LIMIT', 429), after: { to: 'pay', booking, consent } });
    expect(state.step).toBe('payment');
  });

  it("without booking data: 'No booking data found. Please start over.' and back to details", () => {
    const { state, effects } = run(opened(), { type: 'proceedToPayment', now: T0 });
    expect(state.step).toBe('details');
    expect(effects).toEqual([{ type: 'toast', tone: 'error', text: { id: 'noBookingData' } }]);
  });
});

describe('processing -> browser redirect to the gateway', () => {
  it('the session is kept and the browser leaves for its checkout', () => {
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiated', attempt: 0, session });
    expect(state).toMatchObject({ step: 'processing', session, leftWith: session.paymentId });
    // The consent goes with the draft: a result page books the same time again with it.
    expect(effects).toEqual([{ type: 'saveDraft', patch: { paymentSession: session, paymentStatus: 'pending', consent } }, { type: 'checkout', session }]);
    // Status is asked about only once the browser is back.
    expect(isPolling(state)).toBe(false);
    expect(isPolling(run(state, { type: 'returned' }).state)).toBe(true);
  });

  it("an invalid response: 'Payment service is temporarily unavailable' and back to payment", () => {
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiated', attempt: 0, session: null });
    expect(state.step).toBe('payment');
    expect(effects).toEqual([{ type: 'toast', tone: 'error', text: { id: 'serviceUnavailable' } }]);
  });

  it('initiation error: step returns to payment with the server’s words', () => {
    const error = refusal('GATEWAY_ERROR', 502);
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiateFailed', attempt: 0, error });
    expect(state).toMatchObject({ step: 'payment', closed: false });
    expect(effects).toEqual([{ type: 'toast', tone: 'error', text: { failure: error, fallback: 'initiationFailed' } }]);
  });

  it('too few places for every child (issue 37): back to the details, the time not gone; submitted again (fewer children) the hold still serves', () => {
    const error = { status: 409, data: { success: false, data: null, message: 'server: not enough', error: 'SLOT_NOT_AVAILABLE', reason: { rule: 'notEnoughPlaces' } } };
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiateFailed', attempt: 0, error });
    expect(state).toMatchObject({ step: 'details', gone: { text: { failure: error, fallback: 'notEnoughPlaces' }, waitlist: false, fewer: true }, reservation: hold });
    expect(effects).toEqual([{ type: 'refreshSlots' }]);
    const again = run(state, submitted);
    expect(again.state).toMatchObject({ step: 'payment', gone: null });
    expect(again.effects).not.toContainEqual(expect.objectContaining({ type: 'reserve' }));
  });

  it('initiation error for a reserved or unavailable slot: back to the details, which stay, with the time gone said there', () => {
    const { state, effects } = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiateFailed', attempt: 0, error: refusal('SLOT_NOT_AVAILABLE') });
    expect(state).toMatchObject({ step: 'details', closed: false, gone: { text: { id: 'slotNotAvailable' }, waitlist: true } });
    expect(effects).not.toContainEqual({ type: 'close' });
  });
});

describe('back from the gateway: polling', () => {
  it('completed: dialog closes, success toast, slot list refreshes, user goes to /thankyou', () => {
    const result = paymentStatusResult('completed');
    const { state, effects } = run(backFromGateway(), { type: 'status', result });
    expect(state.closed).toBe(true);
    expect(effects).toEqual([
      { type: 'toast', tone: 'success', text: { id: 'paymentSuccess' } },
      { type: 'refreshSlots' },
      { type: 'clearDraft' },
      { type: 'close' },
      { type: 'thankYou', result },
    ]);
  });

  it.each([
    ['failed', 'paymentFailed'],
    ['cancelled', 'paymentCancelled'],
  ] as const)('%s: processing goes to payment and the slot is released', (status, id) => {
    const { state, effects } = run(backFromGateway(), { type: 'status', result: paymentStatusResult(status) });
    expect(state).toMatchObject({ step: 'payment', session: null, reservation: null });
    expect(effects).toEqual([
      { type: 'toast', tone: 'error', text: { id } },
      { type: 'release', reservation: hold },
      { type: 'saveDraft', patch: { reservedSlot: null } },
      { type: 'saveDraft', patch: { paymentSession: null, paymentStatus: 'failed' } },
    ]);
  });

  it('a status check records whatever the server says', () => {
    expect(run(backFromGateway(), { type: 'status', result: paymentStatusResult('processing') }).effects).toEqual([
      { type: 'saveDraft', patch: { paymentStatus: 'processing' } },
    ]);
  });

  it("the session countdown at zero fails with 'Payment session expired'", () => {
    const { state, effects } = run(backFromGateway(), { type: 'sessionExpired' });
    expect(state.step).toBe('payment');
    expect(effects[0]).toEqual({ type: 'toast', tone: 'error', text: { id: 'sessionExpired' } });
  });

  it('no status is acted on before the browser is back, nor after the dialog closed', () => {
    const left = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'initiated', attempt: 0, session }).state;
    expect(run(left, { type: 'status', result: paymentStatusResult('completed') }).effects).toEqual([]);
    expect(run(left, { type: 'sessionExpired' }).effects).toEqual([]);
    const closed = run(backFromGateway(), { type: 'status', result: paymentStatusResult('completed') }).state;
    expect(run(closed, { type: 'status', result: paymentStatusResult('failed') }).effects).toEqual([]);
  });

  it(`Retry reloads the page, at most ${MAX_PAYMENT_RETRIES} times`, () => {
    expect(run(backFromGateway(), { type: 'retry', retriesUsed: 0 }).effects).toEqual([{ type: 'saveDraft', patch: { retryCount: 1 } }, { type: 'reload' }]);
    expect(run(backFromGateway(), { type: 'retry', retriesUsed: MAX_PAYMENT_RETRIES }).effects).toEqual([
      { type: 'toast', tone: 'error', text: { id: 'maxRetries' } },
    ]);
  });
});

describe('cancel', () => {
  it('Cancel in processing: goes to details, cancels the payment (saying so if that fails), releases the slot, clears the reservation', () => {
    const { state, effects } = run(backFromGateway(), { type: 'cancelProcessing' });
    expect(state).toMatchObject({ step: 'details', session: null, reservation: null, attempt: 1, closed: false });
    expect(effects).toEqual([
      { type: 'cancelPayment', id: session.paymentId, key: session.holdToken, sayIfFails: true },
      { type: 'release', reservation: hold },
      { type: 'saveDraft', patch: { reservedSlot: null } },
      { type: 'saveDraft', patch: { paymentSession: null, paymentStatus: 'cancelled' } },
    ]);
  });

  it('Cancel in details: closes the dialog, releases the slot, clears the reservation', () => {
    const { state, effects } = run(atSummary(), { type: 'backToDetails' }, { type: 'backOut' });
    expect(state).toMatchObject({ closed: true, reservation: null });
    expect(effects).toEqual([{ type: 'release', reservation: hold }, { type: 'saveDraft', patch: { reservedSlot: null } }, { type: 'clearDraft' }, { type: 'close' }]);
  });

  it('closing while processing also gives the payment session up', () => {
    expect(run(backFromGateway(), { type: 'backOut' }).effects[0]).toEqual({ type: 'cancelPayment', id: session.paymentId, key: session.holdToken, sayIfFails: false });
  });

  it('a reservation answered after the parent backed out is let go, not used', () => {
    const { state, effects } = run(opened(), submitted, { type: 'backOut' }, held);
    expect(state.step).toBe('details');
    expect(effects).toEqual([{ type: 'release', reservation: hold }]);
  });

  it('a session created after Cancel in processing is given up rather than left for', () => {
    const cancelled = run(atSummary(), { type: 'proceedToPayment', now: T0 }, { type: 'cancelProcessing' }).state;
    const { state, effects } = run(cancelled, { type: 'initiated', attempt: 0, session });
    expect(state).toMatchObject({ step: 'details', session: null });
    expect(effects).toEqual([{ type: 'cancelPayment', id: session.paymentId, key: session.holdToken, sayIfFails: false }]);
    // Nor is a late refusal said.
    expect(run(cancelled, { type: 'initiateFailed', attempt: 0, error: refusal('SLOT_NOT_AVAILABLE') }).effects).toEqual([]);
  });
});
