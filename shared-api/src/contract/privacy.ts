import { z } from 'zod';
import { rowIdSchema, visitorContactNoSchema, visitorEmailSchema, visitorNameSchema, wholeNumberSchema } from './schemas';
import { cleanTypedEmail, normalisePhone } from './typed-text';

// Staff's look-up of one person's data (issue 28, PDPA access and portability): by email or by phone, as stored.

const personFields = z.object({
  email: z.string().max(320).transform(cleanTypedEmail).transform((v) => v.toLowerCase()).optional(),
  phone: z.string().max(40).transform(normalisePhone).optional(),
});
const onePerson = (q: { email?: string; phone?: string }) => Boolean(q.email) !== Boolean(q.phone);
const onePersonMessage = { message: 'Give an email address or a phone number (one of them).' };
export const personQuerySchema = personFields.refine(onePerson, onePersonMessage);
export type PersonQuery = z.infer<typeof personQuerySchema>;
/** json and csv: every record as held (for the record); html: a plain, printable page to hand to the parent. */
export const personExportQuerySchema = personFields.extend({ format: z.enum(['json', 'csv', 'html']).default('json') }).refine(onePerson, onePersonMessage);

const row = z.record(z.string(), z.unknown());
/** Everything the database holds that names the person: each list's rows with every column. */
export const personRecordsSchema = z.object({
  person: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
  bookings: z.array(row),
  payments: z.array(row),
  consents: z.array(row),
  mails: z.array(row),
  auditEntries: z.array(row),
  /** Waitlist entries under the email or phone (issue 26; their link tokens are never shown). */
  waitlistEntries: z.array(row),
});
export type PersonRecords = z.infer<typeof personRecordsSchema>;

/**
 * A booking's state as the person lived it: waiting for the gateway, payment failed or abandoned, booked at the desk
 * without payment, paid, cancelled (nothing refunded), a refund on its way, refunded.
 */
export const PERSON_BOOKING_STATES = ['awaiting_payment', 'payment_failed', 'payment_cancelled', 'booked', 'paid', 'cancelled', 'refund_pending', 'refunded'] as const;
export type PersonBookingState = (typeof PERSON_BOOKING_STATES)[number];
/** The same records read as a person: who they are, each booking and where it stands, what they agreed to, what was sent. Times are ISO instants, money integer sen. */
export const personSummarySchema = z.object({
  /** Every name, email and phone (digits, as stored) the records give them, most recent first. */
  names: z.array(z.string()),
  emails: z.array(z.string()),
  phones: z.array(z.string()),
  children: z.array(z.object({ name: z.string(), year: z.string().nullable() })),
  /** Each payment attempt and each booking made without payment, oldest first. */
  bookings: z.array(
    z.object({
      reference: z.string(),
      school: z.string().nullable(),
      childName: z.string().nullable(),
      start: z.string(),
      end: z.string(),
      /** What was paid (or is to be paid while the payment is open); null for a booking without payment. */
      amountSen: z.number().int().nullable(),
      /** What the cancellation gave back, when recorded. */
      refundSen: z.number().int().nullable(),
      state: z.enum(PERSON_BOOKING_STATES),
      cancelledAt: z.string().nullable(),
      madeAt: z.string(),
    }),
  ),
  waitlistEntries: z.array(z.object({ school: z.string(), fromDate: z.string(), toDate: z.string(), partOfDay: z.string(), state: z.string(), joinedAt: z.string() })),
  consents: z.array(z.object({ noticeVersion: z.string(), language: z.string(), channel: z.string(), givenAt: z.string() })),
  mails: z.array(z.object({ subject: z.string(), recipient: z.string(), status: z.enum(['pending', 'sending', 'sent', 'failed']), createdAt: z.string(), sentAt: z.string().nullable() })),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;
/** The look-up's answer: the records, and the person read from them (the export files hold the records alone). */
export const personFoundSchema = personRecordsSchema.extend({ summary: personSummarySchema });
export type PersonFound = z.infer<typeof personFoundSchema>;

// ---- The request log: access and correction requests, due in 21 days (35 with a recorded extension notice) ----
export const REQUEST_DAYS = 21;
export const EXTENDED_REQUEST_DAYS = 35;
/** A calendar day as YYYY-MM-DD that exists (2026-02-30 does not). */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-03-02')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'Use a date that exists, like 2026-03-02');
export const newPrivacyRequestSchema = personFields
  .extend({ kind: z.enum(['access', 'correction']), receivedOn: isoDay, note: z.string().max(2000).default('') })
  .refine(onePerson, onePersonMessage);
export const privacyRequestSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['access', 'correction']),
  personEmail: z.string().nullable(),
  personPhone: z.string().nullable(),
  receivedOn: z.string(),
  /** received + 21 days, or + 35 once an extension notice is recorded (YYYY-MM-DD, GMT+8). */
  dueOn: z.string(),
  extendedAt: z.string().nullable(),
  handledBy: z.string(),
  answeredAt: z.string().nullable(),
  note: z.string(),
});
export type PrivacyRequest = z.infer<typeof privacyRequestSchema>;
export const privacyRequestListQuerySchema = z.object({
  /** Only open requests due within this many days (the dashboard's "coming due"); all requests without it. */
  dueWithinDays: wholeNumberSchema(366).optional(),
});

/** The day a request must be answered by: `receivedOn` plus 21 days, or 35 when extended. */
export function requestDueOn(receivedOn: string, extended: boolean): string {
  const due = new Date(`${receivedOn}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + (extended ? EXTENDED_REQUEST_DAYS : REQUEST_DAYS));
  return due.toISOString().slice(0, 10);
}

// ---- Corrections: a visitor's name, email or phone, corrected by staff on every record naming the person ----
/** The person as stored (email or phone), the corrected values (at least one), and the request it answers if logged. */
export const visitorCorrectionSchema = personFields
  .extend({
    requestId: rowIdSchema.optional(),
    visitorName: visitorNameSchema.optional(),
    visitorEmail: visitorEmailSchema.optional(),
    visitorContactNo: visitorContactNoSchema.optional(),
  })
  .refine(onePerson, onePersonMessage)
  .refine((c) => c.visitorName !== undefined || c.visitorEmail !== undefined || c.visitorContactNo !== undefined, {
    message: 'Give the corrected name, email or phone (at least one).',
  });
export type VisitorCorrectionInput = z.input<typeof visitorCorrectionSchema>;
export const visitorCorrectionResultSchema = z.object({
  /** How many payments, booked slots and waitlist entries now carry the corrected details. */
  payments: z.number().int(),
  bookings: z.number().int(),
  waitlistEntries: z.number().int(),
  /** Messages to them not sent yet, now addressed to the corrected email. */
  mailsRedirected: z.number().int(),
  /** The person as now stored (to look them up again). */
  person: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
});
export type VisitorCorrectionResult = z.infer<typeof visitorCorrectionResultSchema>;

// ---- Breach log (PDPA s. 12B, 2024): the Commissioner within 72 hours of finding it, the people within 7 days after ----
export const BREACH_COMMISSIONER_HOURS = 72;
export const BREACH_PEOPLE_DAYS = 7;
const breachText = z.string().trim().min(1, 'Required').max(4000);
const optionalBreachText = z.string().trim().max(4000).optional().transform((v) => (v ? v : null));
/** A new breach: when it was found, what happened and which data (English, and optionally in Malay and Chinese for
 * the parents' notice), and who it touches as a query over the records: every parent who booked between two GMT+8
 * days, and/or at one school. */
export const newBreachSchema = z
  .object({
    foundAt: z.iso.datetime({ offset: true }).refine((v) => !Number.isNaN(Date.parse(v)), 'Use a date and time that exist'),
    whatHappened: breachText,
    dataAffected: breachText,
    whatHappenedMs: optionalBreachText,
    dataAffectedMs: optionalBreachText,
    whatHappenedZh: optionalBreachText,
    dataAffectedZh: optionalBreachText,
    bookedFrom: isoDay.optional(),
    bookedTo: isoDay.optional(),
    school: z.string().trim().min(1).max(200).optional(),
  })
  .refine((b) => (b.bookedFrom === undefined) === (b.bookedTo === undefined), { message: 'Give both days of the booking period, or neither.', path: ['bookedTo'] })
  .refine((b) => b.bookedFrom === undefined || b.bookedTo === undefined || b.bookedFrom <= b.bookedTo, { message: 'The period must end on or after its first day.', path: ['bookedTo'] })
  .refine((b) => b.bookedFrom !== undefined || b.school !== undefined, { message: 'Say who is affected: a booking period, a school, or both.', path: ['bookedFrom'] });
export type NewBreachInput = z.input<typeof newBreachSchema>;
export const breachSchema = z.object({
  id: z.number().int(),
  foundAt: z.string(),
  whatHappened: z.string(),
  dataAffected: z.string(),
  whatHappenedMs: z.string().nullable(),
  dataAffectedMs: z.string().nullable(),
  whatHappenedZh: z.string().nullable(),
  dataAffectedZh: z.string().nullable(),
  bookedFrom: z.string().nullable(),
  bookedTo: z.string().nullable(),
  school: z.string().nullable(),
  /** foundAt + 72 hours. */
  commissionerDueAt: z.string(),
  commissionerNotifiedAt: z.string().nullable(),
  /** 7 days after the Commissioner was notified (or after the 72 hours, while not yet). */
  peopleDueAt: z.string(),
  peopleNotifiedAt: z.string().nullable(),
  /** How many people the query finds now, and how many were mailed. */
  affected: z.number().int(),
  peopleNotified: z.number().int().nullable(),
  recordedBy: z.string(),
  /** Where the school has two admins or more: who asked to mail the people (a second admin sends), and when. */
  notifyAskedBy: z.string().nullable(),
  notifyAskedAt: z.string().nullable(),
});
export type Breach = z.infer<typeof breachSchema>;
export const breachPersonSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The language of their latest booking: their notice's language. */
  locale: z.enum(['en', 'ms', 'zh']),
  school: z.string().nullable(),
  lastBookedAt: z.string(),
  references: z.array(z.string()),
});
export type BreachPerson = z.infer<typeof breachPersonSchema>;
/** `GET /staff/breaches/{id}/people?format=json`: the file itself (not the envelope). */
export const breachPeopleFileSchema = z.object({ people: z.array(breachPersonSchema) });
export const breachExportQuerySchema = z.object({ format: z.enum(['json', 'csv']).default('json') });

/** The two deadlines of a breach: the Commissioner 72 hours after it was found; the people 7 days after the Commissioner. */
export function breachDeadlines(foundAt: Date, commissionerNotifiedAt: Date | null): { commissionerDueAt: Date; peopleDueAt: Date } {
  const commissionerDueAt = new Date(foundAt.getTime() + BREACH_COMMISSIONER_HOURS * 3_600_000);
  const peopleDueAt = new Date((commissionerNotifiedAt ?? commissionerDueAt).getTime() + BREACH_PEOPLE_DAYS * 86_400_000);
  return { commissionerDueAt, peopleDueAt };
}
