import { LOCALES } from './locale';
import { z } from 'zod';
import {
  HOLD_MINUTES,
  NAME_MAX_LENGTH,
  PAYMENT_METHODS,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  DEFAULT_PAYMENT_METHOD,
  PUBLIC_PAGE_SIZE,
  REGISTER_PASSWORD_MIN,
  SLOT_MAX_SEATS,
  CHECKOUT_MAX_CHILDREN,
} from './constants';
import { EMAIL_PATTERN } from './email';
import { proofOfWorkSchema } from './hold-limits';
import { ValidationMessage as V, type ValidationRule } from './booking-messages';
import { SlotAddMessage } from './slot-messages';
import { isWeekend, parseSlotTime, todayInMY } from './gmt8';
import { LATEST_SLOT_START_MINUTES, latestSlotDateInMY } from './slot-rules';
import { dayInMY } from './time';
import { brand } from './brand';
import { characterCount, cleanTypedEmail, cleanTypedText, firstCharacters, normalisePhone } from './typed-text';
import { isSchoolYear, schoolDetails } from './school-details';

// All money fields (fee, totalFee, amount, amountSen) are integer sen: RM 75 is 7500.

// Bounds on input, so bad values get a 400 here and never reach PostgreSQL: ids and sen fit an int4 column, and
// free text is refused above TEXT_INPUT_MAX characters before trimming (the form sends far less; the body limit is 64 KB).
const INT4_MAX = 2_147_483_647;
const TEXT_INPUT_MAX = 1000;
/**
 * A whole number from 1 to `max` in a path, a query or a body: a number or plain decimal digits (Number() would read
 * " 1", "1e3" and "0x10" as 1, 1000 and 16).
 */
export const wholeNumberSchema = (max: number) =>
  z
    .union([z.number(), z.string().regex(/^[1-9]\d*$/).transform(Number)], { error: 'Expected a whole number from 1' })
    .pipe(z.number().int().positive().max(max));
/** A row id: a whole number that fits an int4 column. */
export const rowIdSchema = wholeNumberSchema(INT4_MAX);

/**
 * Why a request was refused, for a program (the envelope's `message` is for people, in the spec's words): the rule
 * broken, the values its words name, and the field it is about.
 */
export const errorReasonSchema = z
  .object({
    rule: z.string().describe(
      "The rule broken: a contract form rule (ValidationMessage's key, e.g. phoneInvalid), a refusal's own rule (e.g. visitOver), or for any other validation failure zod's issue code (e.g. too_big)",
    ),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .describe('The values the rule names (e.g. { "min": 8, "max": 15 } for phoneInvalid, { "maximum": 1000 } for too_big)'),
    field: z.string().optional().describe('The input it is about, as a dotted path (e.g. visitorContactNo, consent.language)'),
  })
  .describe('Why, for a program: the rule and its values. Answered beside `message` with validation failures and with refusals that name a rule');
export type ErrorReason = z.infer<typeof errorReasonSchema>;

/** The response envelope every route answers with. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), data, message: z.string(), error: z.string().optional() });
export const errorEnvelope = z.object({
  success: z.literal(false),
  data: z.null(),
  message: z.string(),
  error: z.string().optional(),
  reason: errorReasonSchema.optional(),
});
export type Envelope<T> = { success: boolean; data: T; message: string; error?: string; reason?: ErrorReason };
/** A 403: ADMIN_ONLY, or STEP_UP_REQUIRED with whether the admin has set up the second factor (which form to show). */
export const forbiddenEnvelope = errorEnvelope.extend({ data: z.object({ enrolled: z.boolean() }).nullable() });

/**
 * A contract form rule as zod's custom check params: its words (ValidationMessage) for people, its id and values in
 * the issue's `params` for programs (the server's `reason`, a form's error `type`). Only custom checks (refine,
 * superRefine) carry params: zod's own checks say their code instead.
 */
const rule = (id: ValidationRule, values?: Record<string, number>) => ({ error: V[id], params: { rule: id, ...values } });
/** The contract rule a zod issue names (its custom params' `rule`), else zod's issue code. */
export const issueRule = (issue: { code: string; params?: unknown }): string => {
  const named = (issue.params as { rule?: unknown } | undefined)?.rule;
  return issue.code === 'custom' && typeof named === 'string' ? named : issue.code;
};
const filled = (v: string) => v.length > 0;

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD');
/** 24-hour `HH:mm` or 12-hour `hh:mm AM`. */
export const slotTime = z
  .string()
  .max(TEXT_INPUT_MAX)
  .trim()
  .regex(/^((([01]?\d|2[0-3]):[0-5]\d)|((0?[1-9]|1[0-2]):[0-5]\d\s?[AaPp][Mm]))$/, 'Time must be HH:mm or hh:mm AM/PM');

// ---- Visitor details: the booking form and the server use the same rules and words. ----
/** A stored contact number: `0…` (Malaysia, national form) or `+` and the country's digits; 8 to 15 digits. */
const STORED_PHONE = new RegExp(`^\\+?\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}$`);
/** A free-text field people type: cleaned (typed-text.ts), then at most `max` characters (code points). */
const typedText = (max: number, message?: string) =>
  z
    .string()
    .max(TEXT_INPUT_MAX, message)
    .transform(cleanTypedText)
    .refine((v) => characterCount(v) <= max, message ?? `At most ${max} characters`);
/** The fewest characters a person's name has. */
const NAME_MIN_CHARACTERS = 2;
/** A person's name as typed: cleaned (typed-text.ts), required, at least 2 characters, cut to NAME_MAX_LENGTH. */
const personName = (required: ValidationRule, tooShort: ValidationRule) =>
  z
    .string({ error: V[required] })
    .max(TEXT_INPUT_MAX)
    .transform(cleanTypedText)
    .pipe(
      z
        .string()
        .refine(filled, rule(required))
        .refine((v) => characterCount(v) >= NAME_MIN_CHARACTERS, rule(tooShort, { min: NAME_MIN_CHARACTERS })),
    )
    .transform((v) => firstCharacters(v, NAME_MAX_LENGTH));
/** The visitor's name, email and contact number as the booking form takes them (also a staff correction's). */
export const visitorNameSchema = personName('nameRequired', 'nameTooShort');
export const visitorEmailSchema = z
  .string({ error: V.emailRequired })
  .max(TEXT_INPUT_MAX, V.emailInvalid)
  .transform(cleanTypedEmail)
  .pipe(
    z
      .string()
      .refine(filled, rule('emailRequired'))
      .refine((v) => v.length <= 254 && EMAIL_PATTERN.test(v), rule('emailInvalid')),
  )
  .transform((v) => v.toLowerCase());
export const visitorContactNoSchema = z
  .string({ error: V.contactRequired })
  .max(TEXT_INPUT_MAX, V.phoneInvalid)
  .trim()
  .refine(filled, { ...rule('contactRequired'), abort: true })
  .transform(normalisePhone)
  .pipe(z.string().refine((v) => STORED_PHONE.test(v), rule('phoneInvalid', { min: PHONE_MIN_DIGITS, max: PHONE_MAX_DIGITS })));
/** A choice from a list (school, year): cleaned as typed text, then required. */
const chosen = (max: number, required: ValidationRule) =>
  z.string({ error: V[required] }).pipe(typedText(max)).pipe(z.string().refine(filled, rule(required)));
/** The year applied for must be one of the school's, for a school of the group: an unknown school is refused for itself (initiate) or booked as typed (staff). */
function yearOfSchool(v: { selectedSchool: string; childYear: string }, ctx: z.RefinementCtx): void {
  if (schoolDetails(v.selectedSchool) && !isSchoolYear(v.selectedSchool, v.childYear))
    ctx.addIssue({ code: 'custom', path: ['childYear'], message: V.childYearInvalid, params: { rule: 'childYearInvalid' } });
}
export const visitorDetailsSchema = z
  .object({
    visitorName: visitorNameSchema,
    visitorEmail: visitorEmailSchema,
    visitorContactNo: visitorContactNoSchema,
    selectedSchool: chosen(200, 'schoolRequired'),
    /** The child the assessment is for (issue 24), cleaned as the visitor's name is. */
    childName: personName('childNameRequired', 'childNameTooShort'),
    /** The year or grade applied for: the English name of one of the selected school's `years` (brand.config.json). */
    childYear: chosen(100, 'childYearRequired'),
  })
  .superRefine(yearOfSchool);
export type VisitorDetailsInput = z.input<typeof visitorDetailsSchema>;
export type VisitorDetails = z.output<typeof visitorDetailsSchema>;

/**
 * A brother or sister booked in the same checkout (issue 37): their name, the year applied for and their school (each
 * child may apply to a different school), by the same rules as the first child's.
 */
export const siblingDetailsSchema = z
  .object({
    childName: personName('childNameRequired', 'childNameTooShort'),
    childYear: chosen(100, 'childYearRequired'),
    selectedSchool: chosen(200, 'schoolRequired'),
  })
  .superRefine(yearOfSchool);
export type SiblingDetailsInput = z.input<typeof siblingDetailsSchema>;
export type SiblingDetails = z.output<typeof siblingDetailsSchema>;
/** One child of a checkout of several as the receipt, the manage page and the staff see it: position 1 is the first child. */
export const bookedChildSchema = z.object({
  position: z.number().int().min(1).max(CHECKOUT_MAX_CHILDREN),
  childName: z.string(),
  childYear: z.string(),
  selectedSchool: z.string(),
  /** The school's fee, the sibling discount taken off it, and what was paid for this child (sen). */
  feeSen: z.number().int(),
  discountSen: z.number().int(),
  amountSen: z.number().int(),
  /** Cancelled on its own (the others stay booked), with what was given back for this child. */
  cancelled: z.boolean(),
  refundSen: z.number().int().nullable(),
  /** The child's own time (GMT+8), present only when staff moved this child to another time than the booking's. */
  time: z.object({ date: isoDate, startTime: z.string(), endTime: z.string() }).optional(),
});
export type BookedChild = z.infer<typeof bookedChildSchema>;

export const paymentMethodSchema = z.enum(PAYMENT_METHODS).default(DEFAULT_PAYMENT_METHOD);

// ---- Slots ----
export const slotStatusSchema = z.enum(['available', 'reserved', 'booked']);
export const publicSlotSchema = z.object({
  id: z.number().int(),
  date: isoDate,
  startTime: z.string(),
  endTime: z.string(),
  isBooked: z.boolean(),
  status: slotStatusSchema,
  /** Free seats of a time that seats more than one child (issue 37); absent for a one-seat slot, the spec's shape. */
  placesLeft: z.number().int().min(1).optional(),
});
export type PublicSlot = z.infer<typeof publicSlotSchema>;

export const staffSlotSchema = z.object({
  id: z.number().int(),
  /** ISO date-time of the start, e.g. 2026-11-23T08:30:00+08:00. */
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  isBooked: z.boolean(),
  status: slotStatusSchema,
  visitorName: z.string().nullable(),
  visitorEmail: z.string().nullable(),
  visitorContactNo: z.string().nullable(),
  selectedSchool: z.string().nullable(),
  /** The child and the year or grade applied for; null on a booking made before they were asked (migration 0014). */
  childName: z.string().nullable(),
  childYear: z.string().nullable(),
  bookingReference: z.string().nullable(),
  amountSen: z.number().int().nullable(),
  /** Only on a row of a time that seats more than one child (issue 37; absent on a one-seat slot, the spec's shape): this row's seat, the time's live seats and how many of them are booked. */
  seat: z.number().int().min(1).optional(),
  seats: z.number().int().min(2).optional(),
  seatsTaken: z.number().int().min(0).optional(),
});
export type StaffSlot = z.infer<typeof staffSlotSchema>;

export const publicListQuerySchema = z.object({
  limit: wholeNumberSchema(PUBLIC_PAGE_SIZE).default(PUBLIC_PAGE_SIZE),
  page: wholeNumberSchema(10_000).default(1),
  format: z.enum(['legacy', 'flat', 'grouped']).default('legacy'),
  _t: z.string().max(64).optional(),
});
/** GET /public/list/changes: `after` a version the caller holds (plain digits), to wait for the next one. */
export const listChangesQuerySchema = z.object({
  after: z
    .union([z.number(), z.string().regex(/^(0|[1-9]\d*)$/).transform(Number)], { error: 'Expected a whole number from 0' })
    .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
    .optional(),
});
/** The public list's version: it moves at the commit of any change to a slot. */
export const listVersionSchema = z.object({ version: z.number().int().min(0) });
export const paginationSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});
export const publicListLegacySchema = z.object({
  slots: z.array(publicSlotSchema),
  pagination: paginationSchema,
  filters: z.object({ from: z.string(), leadHours: z.number(), timezone: z.string() }),
});
export type PublicListLegacy = z.infer<typeof publicListLegacySchema>;
/** Grouped shape: week number, then date, then that day's slots. */
export const publicListGroupedSchema = z.record(z.string(), z.record(z.string(), z.array(publicSlotSchema.extend({ week: z.number().int() }))));

/** The staff list's pages (issue 41): rows per page when `limit` is left out, and the most a page may ask. */
export const STAFF_PAGE_SIZE = 50;
export const STAFF_PAGE_MAX = 200;
export const STAFF_SEARCH_MAX = 100;
export const STAFF_LIST_VIEWS = ['upcoming', 'past', 'booked'] as const;
export type StaffListView = (typeof STAFF_LIST_VIEWS)[number];
/** The columns a staff page sorts by: the spec's Date & Time, or one of the Booked view's visitor columns. */
export const STAFF_LIST_SORTS = ['dateTime', 'visitor', 'child', 'school', 'phone'] as const;
export type StaffListSort = (typeof STAFF_LIST_SORTS)[number];
/** The `school` filter's value for bookings at none of the brand's schools. */
export const STAFF_OTHER_SCHOOL = 'other';
/**
 * Without `view`, `page`, `limit` or `q` the answer is the spec's: every live slot. With any of them, one page of a view:
 * upcoming (soonest first), past (newest first) or booked (by start, past ones too), searched by `q`, with `stats`.
 * The booked view also takes `school` (a brand school's name or STAFF_OTHER_SCHOOL) and answers `schools`.
 */
export const staffListQuerySchema = z.object({
  isBooked: z.enum(['true', 'false']).optional(),
  view: z.enum(STAFF_LIST_VIEWS).optional(),
  page: wholeNumberSchema(1_000_000).optional(),
  limit: wholeNumberSchema(STAFF_PAGE_MAX).optional(),
  q: z.string().trim().max(STAFF_SEARCH_MAX).optional(),
  sort: z.enum(STAFF_LIST_SORTS).optional(),
  direction: z.enum(['ascending', 'descending']).optional(),
  school: z
    .string()
    .refine((name) => name === STAFF_OTHER_SCHOOL || brand.schools.some((school) => school.name === name), { message: `school must be one of the schools' names or "${STAFF_OTHER_SCHOOL}"` })
    .optional(),
});
export type StaffListQuery = z.input<typeof staffListQuerySchema>;
/** The dashboard's stat cards, counted in SQL: live slots still ahead, of them not booked and today's (GMT+8); booked counts past bookings too. */
export const staffListStatsSchema = z.object({ total: z.number().int(), booked: z.number().int(), available: z.number().int(), today: z.number().int() });
export type StaffListStats = z.infer<typeof staffListStatsSchema>;
/** Booked seats per school over the booked view's matches (before its school filter); `school` null: none of the brand's. */
export const staffListSchoolsSchema = z.array(z.object({ school: z.string().nullable(), count: z.number().int() }));
export const staffListSchema = z.object({
  /** Paged: `count` is every slot matching; `pagination` counts the table's rows (the booked view's booking of several children is one row). */
  timeSlots: z.object({ rows: z.array(staffSlotSchema), count: z.number().int() }),
  pagination: paginationSchema.optional(),
  stats: staffListStatsSchema.optional(),
  schools: staffListSchoolsSchema.optional(),
});

/** `seats`: children assessed at the same time (1 to SLOT_MAX_SEATS; 1 when left out, the slot as the spec has it). */
export const createSlotBodySchema = z.object({ date: isoDate, startTime: slotTime, endTime: slotTime, seats: z.number().int().min(1).max(SLOT_MAX_SEATS).optional() });
export type CreateSlotBody = z.infer<typeof createSlotBodySchema>;
/** A time's seats, raised or lowered (down to the children booked or paying at it). */
export const setSeatsBodySchema = z.object({ seats: z.number().int().min(1).max(SLOT_MAX_SEATS) });
/** The one answer to seats out of 1..SLOT_MAX_SEATS, for the create dialog's field and for add-many's body. */
export const SEATS_MESSAGE = `Children at a time must be a whole number from 1 to ${SLOT_MAX_SEATS}`;
/** "Children at a time" as the create dialog's select holds it: '1' to SLOT_MAX_SEATS as text (left out: 1). */
export const seatsChoiceSchema = z
  .string()
  .refine((v) => /^[1-9]$/.test(v) && Number(v) <= SLOT_MAX_SEATS, SEATS_MESSAGE)
  .optional();
/**
 * The create-slots form (spec section 5): a range of days from tomorrow (GMT+8) to at most SLOT_MAX_YEARS_AHEAD years
 * ahead with at least one weekday, and a start time that lets the slot end before midnight.
 */
export const createSlotsFormSchema = z
  .object({
    startDate: z.string().refine(filled, rule('startDateRequired')),
    endDate: z.string().refine(filled, rule('endDateRequired')),
    startTime: z.string().refine(filled, rule('startTimeRequired')),
    seats: seatsChoiceSchema,
  })
  .superRefine(({ startDate, endDate, startTime }, ctx) => {
    const isRealDay = (day: string) => dayInMY(day).isValid();
    const latest = latestSlotDateInMY();
    if (!isRealDay(startDate)) ctx.addIssue({ code: 'custom', path: ['startDate'], message: SlotAddMessage.badDate });
    else if (startDate <= todayInMY()) ctx.addIssue({ code: 'custom', path: ['startDate'], message: SlotAddMessage.tooEarly });
    else if (startDate > latest) ctx.addIssue({ code: 'custom', path: ['startDate'], message: SlotAddMessage.tooFar });
    if (!isRealDay(endDate)) ctx.addIssue({ code: 'custom', path: ['endDate'], message: SlotAddMessage.badDate });
    else if (isRealDay(startDate) && endDate < startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: V.endBeforeStart, params: { rule: 'endBeforeStart' } });
    else if (endDate > latest) ctx.addIssue({ code: 'custom', path: ['endDate'], message: SlotAddMessage.tooFar });
    // A range of at most two days, both Saturday or Sunday, holds no weekday.
    else if (isRealDay(startDate) && isWeekend(startDate) && isWeekend(endDate) && dayInMY(endDate).diff(dayInMY(startDate), 'day') <= 1)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: SlotAddMessage.weekend });
    const minutes = parseSlotTime(startTime);
    if (minutes === null) ctx.addIssue({ code: 'custom', path: ['startTime'], message: SlotAddMessage.badTime });
    else if (minutes > LATEST_SLOT_START_MINUTES) ctx.addIssue({ code: 'custom', path: ['startTime'], message: SlotAddMessage.timeTooLate });
  });
export type CreateSlotsFormInput = z.input<typeof createSlotsFormSchema>;
export const deleteSlotBodySchema = z.object({
  slotId: rowIdSchema,
  deletedAt: z.string().max(64).optional(),
});
export const slotIdParamSchema = z.object({ id: rowIdSchema });

export const reserveBodySchema = z.object({
  minutes: z.number().int().min(1).max(HOLD_MINUTES).default(HOLD_MINUTES),
  proofOfWork: proofOfWorkSchema.optional(),
  /** Seats of this time to hold under one token, one per child (issue 37; 1 when left out): every hold rule counts each. */
  children: z.number().int().min(1).max(CHECKOUT_MAX_CHILDREN).optional(),
});
/** `slotIds`: every seat held, only when more than one was asked for (`slotId` is the first). */
export const reservationSchema = z.object({ slotId: z.number().int(), token: z.string(), expiresAt: z.string(), slotIds: z.array(z.number().int()).optional() });
export type Reservation = z.infer<typeof reservationSchema>;
export const releaseBodySchema = z.object({ token: z.string().min(16).max(200) });

/** The parent's consent to the privacy notice: the version they were shown (brand.config.json `privacyNotice.version`) and its language. */
export const consentSchema = z.object({
  noticeVersion: z.string().min(1).max(50),
  language: z.enum(LOCALES),
  /** "Also send my confirmation and reminder on WhatsApp" (issue 38): off unless ticked, recorded with this consent. */
  whatsapp: z.boolean().optional(),
});
export type ConsentInput = z.infer<typeof consentSchema>;

export const bookSlotBodySchema = visitorDetailsSchema.extend({
  id: rowIdSchema.optional(),
  paymentId: z.string().max(100).optional(),
  /** Staff's direct booking: the notice the parent agreed to (recorded with channel 'staff'; the current one in English when absent). */
  consent: consentSchema.optional(),
});

// ---- Staff accounts ----
const emailField = z
  .string({ error: V.loginEmailRequired })
  .max(TEXT_INPUT_MAX, V.loginEmailFormat)
  .transform(cleanTypedEmail)
  .pipe(
    z
      .string()
      .refine(filled, rule('loginEmailRequired'))
      .refine((v) => v.length <= 254 && EMAIL_PATTERN.test(v), rule('loginEmailFormat')),
  )
  .transform((v) => v.toLowerCase());
export const loginBodySchema = z.object({ email: emailField, password: z.string().min(1).max(1024) });
/** The login form's rules (spec section 5: the password has no rule; the server answers an empty one as a wrong login). */
export const loginFormSchema = loginBodySchema.extend({ password: z.string() });
export const loginResultSchema = z.object({ token: z.string(), expiresAt: z.string() });
/** A staff account's role (issue 35): staff run the day (slots, bookings, waitlist); admins also the accounts and privacy. */
export const STAFF_ROLES = ['staff', 'admin'] as const;
export const staffRoleSchema = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRoleSchema>;
export const registerBodySchema = z.object({
  email: emailField,
  username: typedText(100).optional(),
  password: z.string().min(REGISTER_PASSWORD_MIN, V.registerPasswordMin).max(1024),
  /** A colleague is added as staff unless an admin chooses admin. */
  role: staffRoleSchema.optional(),
});
export type LoginInput = z.input<typeof loginFormSchema>;
export type LoginFormValues = z.output<typeof loginFormSchema>;
export type RegisterInput = z.input<typeof registerBodySchema>;
export type RegisterBody = z.output<typeof registerBodySchema>;
export const userSchema = z.object({ id: z.number().int(), email: z.string(), username: z.string().nullable(), role: staffRoleSchema });
export type User = z.infer<typeof userSchema>;

// ---- Payments ----
export const paymentStatusSchema = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled', 'refund_pending', 'refunded']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;
export const initiateBodySchema = visitorDetailsSchema.extend({
  slotId: z.number().int().positive().max(INT4_MAX),
  /** The spec's fee (sen), date and start time: accepted from clients that send them; the server's own rows decide, and are answered. */
  fee: z.number().int().nonnegative().max(INT4_MAX).optional(),
  slotDate: isoDate.optional(),
  slotStartTime: z.string().max(20).optional(),
  preferredPaymentMethod: paymentMethodSchema.optional(),
  holdToken: z.string().max(200).optional(),
  proofOfWork: proofOfWorkSchema.optional(),
  /** The language the parent booked in: their mails, invites and reminders use it (English when absent). */
  locale: z.enum(LOCALES).optional(),
  /** Required: without the parent's consent to the current notice nothing is stored (PDPA, issue 28). */
  consent: consentSchema,
  /** Brothers and sisters booked at the same time in this checkout (issue 37): one seat each, one payment for all. */
  siblings: z.array(siblingDetailsSchema).min(1).max(CHECKOUT_MAX_CHILDREN - 1).optional(),
});
export type InitiateBody = z.input<typeof initiateBodySchema>;
export const paymentSessionSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  checkoutUrl: z.string(),
  clientReference: z.string(),
  expiresAt: z.string(),
  /** The hold token: the payment's key (send it as X-Payment-Key). Given only in this answer, to the caller that holds it. */
  holdToken: z.string(),
  /** What the server charges (sen) and for which visit (YYYY-MM-DD and h:mm AM/PM, GMT+8): its own rows, whatever was sent. */
  fee: z.number().int(),
  slotDate: z.string(),
  slotStartTime: z.string(),
  /** A checkout of several children (issue 37): each child's line; `fee` is their total. */
  children: z.array(bookedChildSchema).optional(),
});
export type PaymentSession = z.infer<typeof paymentSessionSchema>;
export const emailStatusSchema = z.enum(['sent', 'timeout', 'failed', 'pending']);
export type EmailStatus = z.infer<typeof emailStatusSchema>;
/** What anyone who knows a payment's reference or id may read: no payment id, no visitor, no mail details. */
const publicPaymentSchema = z.object({ status: paymentStatusSchema, amount: z.number().int(), reference: z.string() });
const publicBookingSchema = z.object({
  confirmed: z.boolean(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  selectedSchool: z.string(),
  /** The booking's calendar invitation SEQUENCE (0 when booked, +1 at each move): the receipt's .ics matches the last mail's. */
  calendarSequence: z.number().int().min(0),
});
/** The status answer for a caller without the payment's key. */
export const publicPaymentStatusSchema = z.object({ owner: z.literal(false), payment: publicPaymentSchema, booking: publicBookingSchema });
/** The status answer for the browser that started the payment (it sent the payment's key): the whole receipt. */
export const ownPaymentStatusSchema = z.object({
  owner: z.literal(true),
  payment: publicPaymentSchema.extend({ id: z.string(), method: z.string().nullable() }),
  booking: publicBookingSchema.extend({
    slotId: z.number().int(),
    visitorName: z.string(),
    visitorEmail: z.string(),
    /** The child the visit is for (null on bookings made before children were asked). */
    childName: z.string().nullable(),
    childYear: z.string().nullable(),
    /** Once booked: the start its refund is measured from (ISO; the earliest it has had), for the refund and change terms. */
    refundFrom: z.string().optional(),
    /** A checkout of several children (issue 37): every child with their fee; absent for one child (the spec's shape). */
    children: z.array(bookedChildSchema).optional(),
  }),
  emailStatus: emailStatusSchema,
  emailTimeouts: z.object({ visitorEmailTimeout: z.boolean(), adminEmailTimeout: z.boolean() }),
});
export const paymentStatusResultSchema = z.discriminatedUnion('owner', [ownPaymentStatusSchema, publicPaymentStatusSchema]);
export type PublicPaymentStatus = z.infer<typeof publicPaymentStatusSchema>;
export type OwnPaymentStatus = z.infer<typeof ownPaymentStatusSchema>;
export type PaymentStatusResult = z.infer<typeof paymentStatusResultSchema>;
export const pricingSchema = z.object({ pricing: z.array(z.object({ schoolName: z.string(), totalFee: z.number().int() })) });
export type Pricing = z.infer<typeof pricingSchema>;

// ---- Health ----
export const databaseStateSchema = z.enum(['database_healthy', 'database_error', 'database_unreachable', 'database_fallback']);
export const apiStateSchema = z.enum(['healthy', 'cors_error', 'network_error', 'not_found', 'server_error', 'auth_error']);
/** The spec's `errorType`: what is wrong with the API ("API Health Issue: {type}"), null when nothing is. */
export const apiErrorTypeSchema = apiStateSchema.exclude(['healthy']).nullable();
/** Outbox mail unsent for over an hour (still retrying, or given up): the count a monitor watches; details on /staff/alerts. */
export const mailBacklogSchema = z.object({ stuck: z.number().int(), oldestStuckMinutes: z.number().int().nullable() });
export type MailBacklog = z.infer<typeof mailBacklogSchema>;
export const healthSchema = z.object({
  status: apiStateSchema,
  errorType: apiErrorTypeSchema,
  database: databaseStateSchema,
  databaseDetails: z.object({ driver: z.string(), latencyMs: z.number().nullable() }),
  message: z.string(),
  /** Absent when the database could not be read. */
  mail: mailBacklogSchema.optional(),
  /** Background jobs whose retries are spent (last 7 days), by queue (mail, refund…); absent when unreadable. */
  jobs: z.object({ failed: z.number().int(), failedByQueue: z.record(z.string(), z.number().int()) }).optional(),
});
export type Health = z.infer<typeof healthSchema>;
/** GET /health/ready, for a load balancer: 200 ready, or 503 with why this process should get no traffic yet. */
export const readinessSchema = z.object({ ready: z.boolean(), reason: z.enum(['migrating', 'stopping', 'database_unreachable']).optional() });
export type Readiness = z.infer<typeof readinessSchema>;

// ---- Payments (more) ----
export const verifyPaymentBodySchema = z.object({
  paymentId: z.string().min(1).max(100),
  /** The booked slot's id or booking reference, when the caller has it. */
  bookingId: z.union([z.string().max(100), z.number().int().positive().max(INT4_MAX)]).optional(),
});
export const paymentMethodsQuerySchema = z.object({ currency: z.string().max(8).default('MYR') });
export const paymentMethodsSchema = z.object({
  currency: z.literal('MYR'),
  methods: z.array(z.object({ id: z.enum(PAYMENT_METHODS), name: z.string(), default: z.boolean() })),
});
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;
export const paymentHealthSchema = z.object({ status: z.enum(['healthy', 'unhealthy']), gateway: z.string(), message: z.string() });
export type PaymentHealth = z.infer<typeof paymentHealthSchema>;

// ---- Staff alerts: what needs a person (mail unsent for over an hour, refunds that keep failing) ----
/** Every kind of message the outbox sends (the database's CHECK lists the same, migrations 0007, 0008, 0019, 0024, 0028 and 0032). */
export const MAIL_KINDS = [
  'visitor_confirmation',
  'admin_notification',
  'visitor_refund',
  'admin_refund',
  'visitor_rescheduled',
  'admin_rescheduled',
  'visitor_cancelled',
  'admin_cancelled',
  'visitor_reminder',
  'staff_password_reset',
  'waitlist_joined',
  /** "Please confirm your place on the waitlist", with "this wasn't me" (issue 35). */
  'waitlist_confirm',
  'waitlist_offer',
  /** A waitlist entry's end after the term the school keeps a place for (issue 34). */
  'waitlist_entry_ended',
  /** A personal data breach notice to a parent it touches (issue 28, PDPA s. 12B as amended in 2024). */
  'breach_notification',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const STUCK_MAIL_MINUTES = 60;
export const stuckMailSchema = z.object({
  id: z.number().int(),
  kind: z.enum(MAIL_KINDS),
  /** pending / sending: still retried; failed: given up after MAIL_GIVE_UP_HOURS. */
  status: z.enum(['pending', 'sending', 'failed']),
  paymentReference: z.string(),
  recipient: z.string(),
  attempts: z.number().int(),
  /** The mail server's last answer, cut short. */
  lastError: z.string().nullable(),
  /** Minutes since it was written to the outbox. */
  ageMinutes: z.number().int(),
});
export type StuckMail = z.infer<typeof stuckMailSchema>;
export const failingRefundSchema = z.object({
  paymentId: z.string(),
  reference: z.string(),
  visitorName: z.string(),
  amountSen: z.number().int(),
  refundAttempts: z.number().int(),
  lastError: z.string().nullable(),
  /** ISO date-time in GMT+8 of the next automatic try; null when none is planned. */
  nextRefundAt: z.string().nullable(),
  /** One child's share of a booking of several (issue 37): which child; absent for a whole booking's refund. */
  child: z.object({ position: z.number().int(), name: z.string() }).optional(),
});
export type FailingRefund = z.infer<typeof failingRefundSchema>;
/** A payment the bank took money back from (a card chargeback) in the last CHARGEBACK_ALERT_DAYS days: the booking stays, the office decides. */
export const chargebackAlertSchema = z.object({
  paymentId: z.string(),
  reference: z.string(),
  visitorName: z.string(),
  /** All the bank took back from this payment, in sen. */
  amountSen: z.number().int(),
  /** ISO date-time in GMT+8 of the (latest) chargeback. */
  at: z.string(),
  /** The booking as it stands: 'booked', 'cancelled', or null when the payment booked nothing. */
  bookingStatus: z.enum(['booked', 'cancelled']).nullable(),
});
export type ChargebackAlert = z.infer<typeof chargebackAlertSchema>;
export const CHARGEBACK_ALERT_DAYS = 30;
/** A background queue whose jobs spent their retries in the last 7 days (server/src/base/jobs: mail, refund, reconcile, ...). */
export const failedJobsSchema = z.object({
  queue: z.string(),
  failed: z.number().int(),
  /** ISO date-time in GMT+8. */
  lastFailedAt: z.string(),
  lastError: z.string().nullable(),
});
export type FailedJobs = z.infer<typeof failedJobsSchema>;
/** Each list holds the oldest items first (at most STAFF_ALERTS_LIMIT); `total` counts them all. */
export const STAFF_ALERTS_LIMIT = 50;
export const staffAlertsSchema = z.object({
  stuckMail: z.object({ total: z.number().int(), items: z.array(stuckMailSchema) }),
  failingRefunds: z.object({ total: z.number().int(), items: z.array(failingRefundSchema) }),
  failedJobs: z.array(failedJobsSchema),
  /** Newest first. */
  chargebacks: z.object({ total: z.number().int(), items: z.array(chargebackAlertSchema) }),
});
export type StaffAlerts = z.infer<typeof staffAlertsSchema>;
