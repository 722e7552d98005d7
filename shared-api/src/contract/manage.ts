// After paying: the parent's manage link (view, reschedule, cancel) and the staff's booking history and cancel.
// One contract for server routes, the manage page (booking-remote, lazy chunk) and Appointment Details (admin-remote).
import { z } from 'zod';
import { CHECKOUT_MAX_CHILDREN } from './constants';
import { bookedChildSchema, rowIdSchema } from './schemas';
import { parentMessageSchema, whatsappChoiceSchema } from './staff-messages';

export * from './staff-messages';

const INT4_MAX = 2_147_483_647;

/** A manage token as it appears in `/booking/manage/:token`: 43 base64url characters (32 random bytes). */
export const MANAGE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const manageTokenParamSchema = z.object({ token: z.string().max(200) });

/** What the booking is now: booked (and still ahead), cancelled, or over (the visit has ended). */
export const bookingStateSchema = z.enum(['booked', 'cancelled', 'over']);
export type BookingState = z.infer<typeof bookingStateSchema>;

/** A refund's progress: being issued (or awaiting the gateway), done, or failing (retried; staff see it). */
export const refundStateSchema = z.enum(['pending', 'refunded', 'failing']);
export type RefundState = z.infer<typeof refundStateSchema>;

export const bookingRefundSchema = z.object({ amountSen: z.number().int(), state: refundStateSchema });
export type BookingRefund = z.infer<typeof bookingRefundSchema>;

/** What cancelling now would give back, per the refund policy (`percent` of `paidSen`, floored to whole sen). */
export const cancelQuoteSchema = z.object({ percent: z.number().int().min(0).max(100), amountSen: z.number().int() });
export type CancelQuote = z.infer<typeof cancelQuoteSchema>;

/** What parent and staff both see of a booking. */
const bookingCoreSchema = z.object({
  reference: z.string(),
  school: z.string(),
  /** ISO instants (UTC); pages show them in GMT+8. */
  start: z.string(),
  end: z.string(),
  amountPaidSen: z.number().int(),
  state: bookingStateSchema,
  /** Present once a cancellation gives money back. */
  refund: bookingRefundSchema.nullable(),
});

/** GET /api/booking/manage/:token (and the answer of reschedule / cancel): the booking as its parent sees it. */
/** A booking's refund windows and change deadline as they stand now (change-terms.ts `ChangeTerms`). */
export const changeTermsSchema = z.object({
  refunds: z.array(z.object({ percent: z.number().int().min(0).max(100), until: z.string() })),
  changesUntil: z.string(),
  now: z.string(),
});

export const manageViewSchema = bookingCoreSchema.extend({
  /** The start the refund is measured from: the earliest the booking has had (a move never makes the refund deadline later). */
  refundFrom: z.string(),
  /** The refund and change terms now, said in plain words on the page (changeTermsText). */
  terms: changeTermsSchema,
  /** Reschedule and cancel are possible until this instant (the visit's start minus the cut-off hours). */
  changeDeadline: z.string(),
  canChange: z.boolean(),
  /** What a cancel now would refund; null when nothing can be changed. */
  cancelQuote: cancelQuoteSchema.nullable(),
  /** The calendar invitation's SEQUENCE now (0 when booked, +1 at each move): the page's .ics matches the last mail's. */
  calendarSequence: z.number().int().min(0),
  /** The child the visit is for, as the parent gave them (older bookings have none). */
  childName: z.string().nullable().default(null),
  childYear: z.string().nullable().default(null),
  /** A booking of several children (issue 37): each child, with what cancelling that child alone would refund now. */
  children: z.array(bookedChildSchema.extend({ cancelQuote: cancelQuoteSchema.nullable() })).optional(),
  /** Issue 38: WhatsApp messages too ('on'), turned off here or by STOP ('off'), or never asked for (null). */
  whatsapp: z.enum(['on', 'off']).nullable().optional(),
});
export type ManageView = z.infer<typeof manageViewSchema>;

export const rescheduleBodySchema = z.object({ slotId: rowIdSchema });
export type RescheduleBody = z.infer<typeof rescheduleBodySchema>;
/** The parent confirms the quote they were shown: a cancel whose refund would now be different is refused (409). */
/** One child of a booking of several (its `position`), the others staying booked; the whole booking when left out. */
const childPositionSchema = z.number().int().min(1).max(CHECKOUT_MAX_CHILDREN);
export const cancelBodySchema = z.object({ expectedRefundSen: z.number().int().min(0).max(INT4_MAX), child: childPositionSchema.optional() });
export type CancelBody = z.infer<typeof cancelBodySchema>;

/** POST /api/booking/manage-link {paymentId} with the payment's key (X-Payment-Key): the browser that paid gets a link for the success and thank-you pages. */
export const manageLinkBodySchema = z.object({ paymentId: z.string().min(1).max(200) });
export const manageLinkSchema = z.object({ token: z.string(), path: z.string() });
export type ManageLink = z.infer<typeof manageLinkSchema>;

/** The path of the manage page for a token (the site's origin is added by whoever needs a full URL). */
export const manageBookingPath = (token: string): string => `/booking/manage/${token}`;

// ---- Staff ----
/** `booked_unpaid`: staff booked the slot with no payment (read from the audit trail; paid bookings keep booking_events). */
/** `child_cancelled` / `child_refunded`: one child of a booking of several (issue 37), named in `childName`; a `rescheduled` with a `childName` moved that child alone. */
/** `charged_back`: the bank took the money back (a card chargeback, issue 39); `amountSen` says how much. The booking stays. */
export const bookingEventKindSchema = z.enum(['booked', 'booked_unpaid', 'rescheduled', 'cancelled', 'refund_requested', 'refunded', 'refund_failed', 'child_cancelled', 'child_refunded', 'charged_back']);
export type BookingEventKind = z.infer<typeof bookingEventKindSchema>;
export const bookingEventSchema = z.object({
  at: z.string(),
  kind: bookingEventKindSchema,
  /** 'parent', 'system', or the staff member's email. */
  actor: z.string(),
  /** Rescheduled: the visit's old and new start (ISO). */
  fromStart: z.string().nullable(),
  toStart: z.string().nullable(),
  /** Refund events: the amount in sen. */
  amountSen: z.number().int().nullable(),
  /** The child an event of one child of several is about. */
  childName: z.string().optional(),
});
export type BookingEvent = z.infer<typeof bookingEventSchema>;

/** GET /staff/bookings/:reference: the booking, its refund and its history (oldest first). */
export const staffBookingSchema = bookingCoreSchema.extend({
  /** Null: staff booked it directly (or it is demo data), so nothing was paid and nothing can be refunded. */
  paymentId: z.string().nullable(),
  visitorName: z.string(),
  visitorEmail: z.string(),
  visitorContactNo: z.string(),
  /** The child and the year or grade applied for; null on a booking made before they were asked (migration 0014). */
  childName: z.string().nullable(),
  childYear: z.string().nullable(),
  /** A booking of several children (issue 37): each child (name, year, school, fee); the parent is named once above. */
  children: z.array(bookedChildSchema).optional(),
  history: z.array(bookingEventSchema),
  /** Issue 38: each message sent to the parent on either channel, newest first (never its body). */
  messages: z.array(parentMessageSchema),
  /** "Confirm I'm coming" pressed on the WhatsApp reminder (ISO), or null. */
  confirmedByParentAt: z.string().nullable(),
  whatsapp: whatsappChoiceSchema,
});
export type StaffBooking = z.infer<typeof staffBookingSchema>;
export const bookingReferenceParamSchema = z.object({ reference: z.string().min(1).max(100) });
export const staffCancelBodySchema = z.object({ refund: z.boolean(), child: childPositionSchema.optional() });
export type StaffCancelBody = z.infer<typeof staffCancelBodySchema>;
/** Staff move the whole booking, or one child of a booking of several (its `position`), the others staying at their time. */
export const staffMoveBodySchema = rescheduleBodySchema.extend({ child: childPositionSchema.optional() });
export type StaffMoveBody = z.infer<typeof staffMoveBodySchema>;

/** GET /staff/bookings: every paid booking (cancelled ones too) and every booked slot with no payment, newest visit first, for the CSV export. */
export const staffBookingRowSchema = staffBookingSchema.omit({ history: true, messages: true, confirmedByParentAt: true, whatsapp: true });
export type StaffBookingRow = z.infer<typeof staffBookingRowSchema>;
export const staffBookingListSchema = z.object({ bookings: z.array(staffBookingRowSchema) });

// ---- The product's words for these screens (English; the refund and cut-off numbers come from the view). ----
export const ManageMessage = {
  invalidLink: 'This link is not valid. Please use the link in your latest booking email.',
  expiredLink: 'This booking link has expired because the visit is over.',
  cancelled: 'This booking has been cancelled.',
  tooManyTries: 'Too many attempts. Please wait a few minutes and try again.',
  tooLate: 'This booking can no longer be changed online. Please contact the school.',
  visitOver: 'This visit is over, so the booking can no longer be cancelled.',
  slotTaken: 'Sorry, that slot was just taken. Your booking has not changed; please choose another time.',
  sameSlot: 'This is already your booking time. Please choose a different slot.',
  quoteChanged: 'The refund for cancelling has changed. Please review it and confirm again.',
  rescheduled: 'Your booking has been moved.',
  cancelledNow: 'Your booking has been cancelled.',
  whatsappOff: 'You will get no more WhatsApp messages about this booking. Emails still come.',
  notPaid: 'This payment has not completed a booking, so there is nothing to manage yet.',
  staffCancelled: 'Booking cancelled.',
  staffMoved: 'Booking moved.',
  staffChildMoved: 'Child moved.',
  alreadyCancelled: 'This booking is already cancelled.',
  notYours: 'Only the browser that made this payment can get a link here. The link to change or cancel the booking is in the confirmation email.',
} as const;

/** Short labels of a booking's history, for staff. */
export const BookingEventLabel: Record<BookingEventKind, string> = {
  booked: 'Booked and paid',
  booked_unpaid: 'Booked by staff, no payment',
  rescheduled: 'Rescheduled',
  cancelled: 'Cancelled',
  refund_requested: 'Refund requested',
  refunded: 'Refunded',
  refund_failed: 'Refund attempt failed',
  child_cancelled: 'One child cancelled',
  child_refunded: "One child's share refunded",
  charged_back: 'Charged back by the bank',
};

/** Error codes of these routes (kept here, off the first load's contract). */
export const ManageErrorCode = {
  /** 404: unknown or malformed token. */
  MANAGE_LINK_INVALID: 'MANAGE_LINK_INVALID',
  /** 410: the visit is over. */
  MANAGE_LINK_EXPIRED: 'MANAGE_LINK_EXPIRED',
  /** 409: past the cut-off, or the booking is cancelled. */
  CHANGE_CLOSED: 'CHANGE_CLOSED',
  /** 409: the refund a cancel would give is no longer the one the parent confirmed. */
  QUOTE_CHANGED: 'QUOTE_CHANGED',
} as const;
export type ManageErrorCode = (typeof ManageErrorCode)[keyof typeof ManageErrorCode];
