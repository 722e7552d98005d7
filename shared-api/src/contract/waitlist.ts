// The fair waitlist (issue 26): a freed slot is offered to one parent at a time, in order of joining.
// One contract for the server routes, the parent pages (booking-remote, lazy chunk) and the staff page (admin-remote).
import { z } from 'zod';
import brandConfig from '../../../brand.config.json';
import { CHECKOUT_MAX_CHILDREN } from './constants';
import { LOCALES } from './locale';
import { consentSchema, isoDate, rowIdSchema, visitorDetailsSchema } from './schemas';
import { proofOfWorkSchema } from './hold-limits';
import { addDays, isWeekend, todayInMY } from './gmt8';
import { dayInMY } from './time';

/** `waitlist` in brand.config.json: the offer window, the cut-off before the visit, quiet hours (GMT+8), how far ahead, how long an entry lasts. */
export type WaitlistSettings = {
  /** How long an offer holds the slot for its parent (within the hold time one person may have on a slot). */
  offerMinutes: number;
  /** No offer may run past this many hours before the visit: a slot freeing later opens to everyone. */
  cutoffHours: number;
  /** No offer is made between `from` and `to` (HH:mm, GMT+8): a slot freed then is anyone's, and offered at `to` if still free. */
  quietHours: { from: string; to: string };
  /** The latest day a parent may ask for: this many weeks from today. */
  weeksAhead: number;
  /** An entry ends this many days after it was made (its parent is mailed). */
  termDays: number;
  /** Live entries (waiting or offered) one client network may have at once. */
  liveEntriesPerNetwork: number;
};

/** The one accessor of the waitlist settings. */
export const waitlistSettings = (): WaitlistSettings => brandConfig.waitlist;

export const WAITLIST_PARTS_OF_DAY = ['any', 'morning', 'afternoon'] as const;
/** 'morning': the slot starts before 12:00 GMT+8; 'afternoon': at 12:00 or later. */
export const partOfDaySchema = z.enum(WAITLIST_PARTS_OF_DAY);
export type PartOfDay = z.infer<typeof partOfDaySchema>;
export const MORNING_ENDS_MINUTES = 12 * 60;

/**
 * 'pending': asked for, not yet confirmed from the mail it sent (holds nothing, offered nothing); 'unconfirmed': not
 * confirmed within a day; 'disowned': the address's owner said "this wasn't me" (issue 35). Staff see from 'waiting' on.
 */
export const WAITLIST_ENTRY_STATES = ['pending', 'waiting', 'offered', 'booked', 'expired', 'left', 'removed', 'unconfirmed', 'disowned'] as const;
/** The states of a request nobody has confirmed (never on the staff list). */
export const WAITLIST_UNCONFIRMED_STATES = ['pending', 'unconfirmed', 'disowned'] as const;
/** The states the staff list shows: from confirmed on. */
export const WAITLIST_STAFF_STATES = ['waiting', 'offered', 'booked', 'expired', 'left', 'removed'] as const;
export const waitlistEntryStateSchema = z.enum(WAITLIST_ENTRY_STATES);
export type WaitlistEntryState = z.infer<typeof waitlistEntryStateSchema>;
export const WAITLIST_OFFER_OUTCOMES = ['booked', 'expired', 'declined', 'cancelled'] as const;
export const waitlistOfferOutcomeSchema = z.enum(WAITLIST_OFFER_OUTCOMES);
export type WaitlistOfferOutcome = z.infer<typeof waitlistOfferOutcomeSchema>;

/** Error codes of the waitlist routes (the `error` field). */
export const WaitlistErrorCode = {
  /** 409: reserve or payment refused: this free slot is being offered to the waitlist first. */
  WAITLIST_FIRST: 'WAITLIST_FIRST',
  /** 400: the date range is in the past, beyond the weeks ahead, ends before it starts, or has no weekday. */
  WAITLIST_DATES: 'WAITLIST_DATES',
  /** 400: the school is not one of the group's. */
  WAITLIST_SCHOOL: 'WAITLIST_SCHOOL',
  /** 404: unknown entry or offer link. */
  WAITLIST_LINK_INVALID: 'WAITLIST_LINK_INVALID',
  /** 409: the entry is no longer waiting (change of dates), or the offer is not live (accept, decline). */
  WAITLIST_NOT_LIVE: 'WAITLIST_NOT_LIVE',
  /** 409: confirm or "this wasn't me" on a request that is no longer waiting for its confirmation (reason.rule says why). */
  WAITLIST_NOT_PENDING: 'WAITLIST_NOT_PENDING',
  /** 409: confirming would give the school's list a second live entry of this email or phone. */
  WAITLIST_ALREADY_ON: 'WAITLIST_ALREADY_ON',
} as const;
export type WaitlistErrorCode = (typeof WaitlistErrorCode)[keyof typeof WaitlistErrorCode];

/** The server's English words (the parent pages show their own catalogue's, by code). */
export const WaitlistMessage = {
  waitlistFirst: 'This slot is being offered to parents on the waitlist first. Please choose another time or join the waitlist.',
  datesPast: 'The dates must start today or later.',
  datesTooFar: (weeks: number) => `The dates can be at most ${weeks} weeks ahead.`,
  datesOrder: 'The last day must be on or after the first day.',
  noWeekday: 'The dates must include at least one weekday.',
  unknownSchool: 'Please choose one of our schools.',
  invalidLink: 'This waitlist link is not valid. Please use the link in your latest waitlist email.',
  tooManyTries: 'Too many attempts. Please wait a few minutes and try again.',
  notWaiting: 'This waitlist entry is no longer waiting, so its dates cannot be changed.',
  offerNotLive: 'This offer is not open.',
  joined: 'Check your email.',
  notPending: 'This request is no longer waiting for its confirmation.',
  confirmExpired: 'This request was not confirmed within a day, so it has ended. You can join the waitlist again.',
  alreadyOn: "This email address or phone number is already on this school's waitlist.",
  networkFull: (n: number) =>
    `${n} places on the waitlist are already held from your internet connection. Please try again when one of them has ended, or from another connection.`,
} as const;

export type WaitlistDatesProblem = 'past' | 'tooFar' | 'order' | 'noWeekday' | 'invalid';

/** What is wrong with a date range (GMT+8 days), or null: from today to `weeksAhead` weeks ahead, with a weekday. */
export function waitlistDatesProblem(fromDate: string, toDate: string, today = todayInMY(), weeksAhead = waitlistSettings().weeksAhead): WaitlistDatesProblem | null {
  if (!dayInMY(fromDate).isValid() || !dayInMY(toDate).isValid()) return 'invalid';
  if (fromDate < today) return 'past';
  if (toDate < fromDate) return 'order';
  if (toDate > addDays(today, weeksAhead * 7)) return 'tooFar';
  for (let day = fromDate, n = 0; day <= toDate && n < 7; day = addDays(day, 1), n++) if (!isWeekend(day)) return null;
  return 'noWeekday';
}

export const waitlistDatesMessage = (problem: WaitlistDatesProblem, weeksAhead = waitlistSettings().weeksAhead): string =>
  problem === 'past' || problem === 'invalid'
    ? WaitlistMessage.datesPast
    : problem === 'tooFar'
      ? WaitlistMessage.datesTooFar(weeksAhead)
      : problem === 'order'
        ? WaitlistMessage.datesOrder
        : WaitlistMessage.noWeekday;

// ---- Public routes ----
/** How many children one entry is for: the places an offer holds together (at most a checkout's). */
export const waitlistChildrenSchema = z.number().int().min(1).max(CHECKOUT_MAX_CHILDREN);
const visitor = visitorDetailsSchema.shape;
/** The dates a parent can come: weekdays from `fromDate` to `toDate` (GMT+8), optionally only mornings or afternoons. */
export const waitlistDatesSchema = z.object({ fromDate: isoDate, toDate: isoDate, partOfDay: partOfDaySchema });
export type WaitlistDates = z.infer<typeof waitlistDatesSchema>;

/** POST /api/waitlist: the booking form's visitor fields and rules, the dates, the language and the privacy consent. */
export const waitlistJoinBodySchema = z.object({
  name: visitor.visitorName,
  email: visitor.visitorEmail,
  phone: visitor.visitorContactNo,
  school: visitor.selectedSchool,
  childName: visitor.childName.optional(),
  childYear: visitor.childYear.optional(),
  /** Brothers and sisters come together (issue 37): a time is offered only when this many places are free there, all held. */
  children: waitlistChildrenSchema.default(1),
  fromDate: isoDate,
  toDate: isoDate,
  partOfDay: partOfDaySchema,
  locale: z.enum(LOCALES),
  privacyConsent: consentSchema,
  proofOfWork: proofOfWorkSchema.optional(),
});
export type WaitlistJoinBodyInput = z.input<typeof waitlistJoinBodySchema>;
export type WaitlistJoinBody = z.output<typeof waitlistJoinBodySchema>;
/** 202: always the same answer, new entry or not (the list never tells a stranger about another parent). */
export const waitlistJoinAnswerSchema = z.object({ mailed: z.literal(true) });

export const waitlistTokenParamSchema = z.object({ token: z.string().max(200) });

export const waitlistSlotSchema = z.object({ id: z.number().int(), date: isoDate, startTime: z.string(), endTime: z.string() });
export type WaitlistSlot = z.infer<typeof waitlistSlotSchema>;

/** GET/PUT /api/waitlist/entry/:token, POST …/leave. */
export const waitlistEntryViewSchema = z.object({
  entry: z.object({
    school: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    fromDate: isoDate,
    toDate: isoDate,
    partOfDay: partOfDaySchema,
    locale: z.enum(LOCALES),
    children: waitlistChildrenSchema,
    state: waitlistEntryStateSchema,
    /** 1-based among the waiting entries of that school; null when not waiting. */
    place: z.number().int().positive().nullable(),
  }),
  /** The live (or quiet-hours waiting) offer; its link is only in the mail. */
  offer: z.object({ slot: waitlistSlotSchema, startsAt: z.string(), expiresAt: z.string() }).nullable(),
});
export type WaitlistEntryView = z.infer<typeof waitlistEntryViewSchema>;
export const waitlistUpdateBodySchema = waitlistDatesSchema;

export const WAITLIST_OFFER_STATES = ['waiting', 'live', 'booked', 'expired', 'declined'] as const;
export const waitlistOfferStateSchema = z.enum(WAITLIST_OFFER_STATES);
export type WaitlistOfferState = z.infer<typeof waitlistOfferStateSchema>;
/** GET /api/waitlist/offer/:offerToken. 'waiting': quiet hours, the offer opens at `startsAt`. */
export const waitlistOfferViewSchema = z.object({
  state: waitlistOfferStateSchema,
  school: z.string(),
  slot: waitlistSlotSchema,
  /** One child's fee at the entry's school (a sibling discount applies at checkout). */
  feeSen: z.number().int(),
  /** Places the offer holds at this time: the entry's children (its parent may pay for fewer; the rest go back). */
  children: waitlistChildrenSchema,
  startsAt: z.string(),
  expiresAt: z.string(),
  visitor: z.object({
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    school: z.string(),
    childName: z.string().nullable(),
    childYear: z.string().nullable(),
  }),
  locale: z.enum(LOCALES),
});
export type WaitlistOfferView = z.infer<typeof waitlistOfferViewSchema>;
/** POST …/accept: the slot's hold token; the browser then pays as after a normal reserve. */
export const waitlistAcceptSchema = z.object({ slotId: z.number().int(), token: z.string(), expiresAt: z.string() });
export type WaitlistAccept = z.infer<typeof waitlistAcceptSchema>;
export const waitlistDeclineSchema = z.object({ state: z.literal('declined') });
/** POST …/entry/:token/not-me: the request ended, the address blocked from joins until `blockedUntil`. */
export const waitlistDisownSchema = z.object({ state: z.literal('disowned'), blockedUntil: z.string() });
export type WaitlistDisown = z.infer<typeof waitlistDisownSchema>;
/** A request must be confirmed within this long, and "this wasn't me" blocks the address for this many days. */
export const WAITLIST_CONFIRM_HOURS = 24;
export const WAITLIST_BLOCK_DAYS = 30;

/** Paths of the parent pages (the mails' links). Opening one never changes anything: its page asks, a button does it. */
export const waitlistEntryPath = (token: string) => `/waitlist/${token}`;
/** The confirmation mail's "this wasn't me": the entry page, asking that question first. */
export const waitlistNotMePath = (token: string) => `${waitlistEntryPath(token)}?not-me=1`;
export const waitlistOfferPath = (token: string) => `/waitlist/offer/${token}`;

// ---- Staff routes ----
export const staffWaitlistQuerySchema = z.object({ school: z.string().max(200).optional() });
export const staffWaitlistOfferSchema = z.object({
  slot: waitlistSlotSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  outcome: waitlistOfferOutcomeSchema.nullable(),
});
export const staffWaitlistEntrySchema = z.object({
  id: z.number().int(),
  /** 1-based place among the live entries of its school (waiting and offered); null once ended. */
  position: z.number().int().positive().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  school: z.string(),
  /** The child the visit is for, as the parent gave them (issue 36). */
  childName: z.string().nullable(),
  childYear: z.string().nullable(),
  /** Places each offer holds together (issue 37). */
  children: waitlistChildrenSchema,
  fromDate: isoDate,
  toDate: isoDate,
  partOfDay: partOfDaySchema,
  state: z.enum(WAITLIST_STAFF_STATES),
  joinedAt: z.string(),
  offer: z.object({ slot: waitlistSlotSchema, expiresAt: z.string() }).nullable(),
  offers: z.array(staffWaitlistOfferSchema),
});
export type StaffWaitlistEntry = z.infer<typeof staffWaitlistEntrySchema>;
export const staffWaitlistSchema = z.object({ entries: z.array(staffWaitlistEntrySchema) });
export type StaffWaitlist = z.infer<typeof staffWaitlistSchema>;
export const waitlistIdParamSchema = z.object({ id: rowIdSchema });
const reason = z.string().trim().min(1, 'Please give a reason.').max(500);
export const waitlistMoveBodySchema = z.object({ direction: z.enum(['up', 'down']), reason });
export const waitlistRemoveBodySchema = z.object({ reason });
export const staffWaitlistSummarySchema = z.object({
  waiting: z.number().int(),
  offersLive: z.number().int(),
  filledThisWeek: z.number().int(),
});
export type StaffWaitlistSummary = z.infer<typeof staffWaitlistSummarySchema>;
