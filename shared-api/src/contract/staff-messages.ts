// What staff see of the messages sent to a parent and of the parent's answer (issue 38): each message on either
// channel with its state and, when it failed, why; "Confirmed by parent"; the WhatsApp opt-in; tomorrow's visits not
// yet confirmed. Never a message's body. One contract for the server's staff routes and the staff screens.
import { z } from 'zod';
import { midnightInMY } from './gmt8';
import { isoDate } from './schemas';

export const PARENT_MESSAGE_CHANNELS = ['email', 'whatsapp'] as const;
export type ParentMessageChannel = (typeof PARENT_MESSAGE_CHANNELS)[number];

/** What a message was, in staff's words (`other`: a kind this list does not know yet). */
export const PARENT_MESSAGE_KINDS = [
  'confirmation',
  'reminder',
  'move',
  'cancel',
  'refund',
  'waitlist_offer',
  'reply',
  'other',
] as const;
export type ParentMessageKind = (typeof PARENT_MESSAGE_KINDS)[number];

/** Email knows only queued, sent and failed; WhatsApp also delivered and read (the platform's statuses). */
export const PARENT_MESSAGE_STATES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type ParentMessageState = (typeof PARENT_MESSAGE_STATES)[number];

export const parentMessageSchema = z.object({
  channel: z.enum(PARENT_MESSAGE_CHANNELS),
  kind: z.enum(PARENT_MESSAGE_KINDS),
  state: z.enum(PARENT_MESSAGE_STATES),
  /** When it reached its state (sent, delivered, read, failed) as far as known, else when it was written (ISO). */
  at: z.string(),
  /**
   * Why it failed, or why it is still being retried: WhatsApp's code and title ("131026 Message undeliverable"), the
   * mail's last error in plain words. Null when nothing went wrong.
   */
  reason: z.string().nullable(),
});
export type ParentMessage = z.infer<typeof parentMessageSchema>;

/** The parent's WhatsApp choice on the booking: opted in (when), withdrawn (when, by STOP or the manage page), or never asked for. */
export const whatsappChoiceSchema = z.object({
  state: z.enum(['opted_in', 'withdrawn', 'not_asked']),
  at: z.string().nullable(),
});
export type WhatsAppChoice = z.infer<typeof whatsappChoiceSchema>;

/** The staff words of each kind and state, for the details and anything else that lists them. */
export const ParentMessageWords = {
  channel: { email: 'Email', whatsapp: 'WhatsApp' },
  kind: {
    confirmation: 'Booking confirmation',
    reminder: 'Reminder',
    move: 'New time',
    cancel: 'Cancellation',
    refund: 'Refund',
    waitlist_offer: 'Waitlist offer',
    reply: 'Answer to a reply',
    other: 'Other message',
  },
  state: { queued: 'Queued', sent: 'Sent', delivered: 'Delivered', read: 'Read', failed: 'Failed' },
} as const satisfies {
  channel: Record<ParentMessageChannel, string>;
  kind: Record<ParentMessageKind, string>;
  state: Record<ParentMessageState, string>;
};

/** A GMT+8 day as YYYY-MM-DD that exists on the calendar (2026-02-30 is refused). */
export const calendarDaySchema = isoDate.refine(
  (day) => !Number.isNaN(midnightInMY(day)),
  'Date must be a real day (YYYY-MM-DD)',
);

/** GET /staff/visits/unconfirmed?day=YYYY-MM-DD: the day's visits (GMT+8) no parent has confirmed. */
export const unconfirmedVisitsQuerySchema = z.object({ day: calendarDaySchema });

/** One visit: a booking at one time (a child moved alone to another time is a visit of its own), with the children seen then. */
export const unconfirmedVisitSchema = z.object({
  reference: z.string(),
  start: z.string(),
  end: z.string(),
  visitorName: z.string(),
  visitorContactNo: z.string(),
  /** The children seen at this time (empty for a booking made before children were asked for). */
  children: z.array(z.string()),
  /** False for a booking staff made with no payment (no reminder with "Confirm I'm coming" goes to it). */
  paid: z.boolean(),
});
export type UnconfirmedVisit = z.infer<typeof unconfirmedVisitSchema>;
export const unconfirmedVisitsSchema = z.object({ day: z.string(), visits: z.array(unconfirmedVisitSchema) });
export type UnconfirmedVisits = z.infer<typeof unconfirmedVisitsSchema>;
