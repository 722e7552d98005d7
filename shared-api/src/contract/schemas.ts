import { z } from 'zod';
import {
  MAX_HOLD_MINUTES,
  HOLD_MINUTES,
  NAME_MAX_LENGTH,
  PAYMENT_METHODS,
  DEFAULT_PAYMENT_METHOD,
  PUBLIC_PAGE_SIZE,
  REGISTER_PASSWORD_MIN,
} from './constants';
import { EMAIL_PATTERN } from './email';
import { ValidationMessage as V } from './messages';

// All money fields (fee, totalFee, amount, amountSen) are integer sen: RM 75 is 7500.

/** The response envelope every route answers with. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), data, message: z.string(), error: z.string().optional() });
export const errorEnvelope = z.object({
  success: z.literal(false),
  data: z.null(),
  message: z.string(),
  error: z.string().optional(),
});
export type Envelope<T> = { success: boolean; data: T; message: string; error?: string };

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD');
/** 24-hour `HH:mm` or 12-hour `hh:mm AM`. */
export const slotTime = z
  .string()
  .trim()
  .regex(/^((([01]?\d|2[0-3]):[0-5]\d)|((0?[1-9]|1[0-2]):[0-5]\d\s?[AaPp][Mm]))$/, 'Time must be HH:mm or hh:mm AM/PM');

// ---- Visitor details: the booking form and the server use the same rules and words. ----
const stripPhone = (v: string) => v.replace(/[\s-]/g, '');
export const visitorDetailsSchema = z.object({
  visitorName: z
    .string({ error: V.nameRequired })
    .trim()
    .min(1, V.nameRequired)
    .min(2, V.nameTooShort)
    .transform((v) => v.slice(0, NAME_MAX_LENGTH)),
  visitorEmail: z
    .string({ error: V.emailRequired })
    .trim()
    .min(1, V.emailRequired)
    .max(254, V.emailInvalid)
    .regex(EMAIL_PATTERN, V.emailInvalid)
    .transform((v) => v.toLowerCase()),
  visitorContactNo: z
    .string({ error: V.contactRequired })
    .trim()
    .min(1, V.contactRequired)
    .transform(stripPhone)
    .pipe(z.string().regex(/^\d{8,15}$/, V.phoneInvalid)),
  selectedSchool: z.string({ error: V.schoolRequired }).trim().min(1, V.schoolRequired).max(200),
});
export type VisitorDetailsInput = z.input<typeof visitorDetailsSchema>;
export type VisitorDetails = z.output<typeof visitorDetailsSchema>;

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
  bookingReference: z.string().nullable(),
  amountSen: z.number().int().nullable(),
});
export type StaffSlot = z.infer<typeof staffSlotSchema>;

export const publicListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PUBLIC_PAGE_SIZE).default(PUBLIC_PAGE_SIZE),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  format: z.enum(['legacy', 'flat', 'grouped']).default('legacy'),
  _t: z.string().max(64).optional(),
});
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

export const staffListQuerySchema = z.object({
  isBooked: z.enum(['true', 'false']).optional(),
});
export const staffListSchema = z.object({ timeSlots: z.object({ rows: z.array(staffSlotSchema), count: z.number().int() }) });

export const createSlotBodySchema = z.object({ date: isoDate, startTime: slotTime, endTime: slotTime });
export type CreateSlotBody = z.infer<typeof createSlotBodySchema>;
export const deleteSlotBodySchema = z.object({
  slotId: z.coerce.number().int().positive(),
  deletedAt: z.string().max(64).optional(),
});
export const slotIdParamSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const reserveBodySchema = z.object({
  minutes: z.number().int().min(1).max(MAX_HOLD_MINUTES).default(HOLD_MINUTES),
});
export const reservationSchema = z.object({ slotId: z.number().int(), token: z.string(), expiresAt: z.string() });
export type Reservation = z.infer<typeof reservationSchema>;
export const releaseBodySchema = z.object({ token: z.string().min(16).max(200) });

export const bookSlotBodySchema = visitorDetailsSchema.extend({
  id: z.coerce.number().int().positive().optional(),
  paymentId: z.string().max(100).optional(),
});

// ---- Staff accounts ----
const emailField = z
  .string({ error: V.loginEmailRequired })
  .trim()
  .min(1, V.loginEmailRequired)
  .max(254, V.loginEmailFormat)
  .regex(EMAIL_PATTERN, V.loginEmailFormat)
  .transform((v) => v.toLowerCase());
export const loginBodySchema = z.object({ email: emailField, password: z.string().min(1).max(1024) });
export const loginResultSchema = z.object({ token: z.string(), expiresAt: z.string() });
export const registerBodySchema = z.object({
  email: emailField,
  username: z.string().trim().max(100).optional(),
  password: z.string().min(REGISTER_PASSWORD_MIN, V.registerPasswordMin).max(1024),
});
export const userSchema = z.object({ id: z.number().int(), email: z.string(), username: z.string().nullable() });
export type User = z.infer<typeof userSchema>;

// ---- Payments ----
export const paymentStatusSchema = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled', 'refund_pending', 'refunded']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;
export const initiateBodySchema = visitorDetailsSchema.extend({
  slotId: z.number().int().positive(),
  fee: z.number().int().nonnegative(),
  slotDate: isoDate,
  slotStartTime: z.string().max(20),
  preferredPaymentMethod: paymentMethodSchema.optional(),
  holdToken: z.string().max(200).optional(),
});
export type InitiateBody = z.input<typeof initiateBodySchema>;
export const paymentSessionSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  checkoutUrl: z.string(),
  clientReference: z.string(),
  expiresAt: z.string(),
});
export type PaymentSession = z.infer<typeof paymentSessionSchema>;
export const emailStatusSchema = z.enum(['sent', 'timeout', 'failed', 'pending']);
export type EmailStatus = z.infer<typeof emailStatusSchema>;
export const paymentStatusResultSchema = z.object({
  payment: z.object({ id: z.string(), status: paymentStatusSchema, amount: z.number().int(), reference: z.string(), method: z.string().nullable() }),
  booking: z.object({
    confirmed: z.boolean(),
    slotId: z.number().int(),
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    selectedSchool: z.string(),
    visitorName: z.string(),
    visitorEmail: z.string(),
  }),
  emailStatus: emailStatusSchema,
  emailTimeouts: z.object({ visitorEmailTimeout: z.boolean(), adminEmailTimeout: z.boolean() }),
});
export type PaymentStatusResult = z.infer<typeof paymentStatusResultSchema>;
export const pricingSchema = z.object({ pricing: z.array(z.object({ schoolName: z.string(), totalFee: z.number().int() })) });
export type Pricing = z.infer<typeof pricingSchema>;

// ---- Health ----
export const databaseStateSchema = z.enum(['database_healthy', 'database_error', 'database_unreachable', 'database_fallback']);
export const apiStateSchema = z.enum(['healthy', 'cors_error', 'network_error', 'not_found', 'server_error', 'auth_error']);
export const healthSchema = z.object({
  status: apiStateSchema,
  database: databaseStateSchema,
  databaseDetails: z.object({ driver: z.string(), latencyMs: z.number().nullable() }),
  message: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

// ---- Payments (more) ----
export const verifyPaymentBodySchema = z.object({
  paymentId: z.string().min(1).max(100),
  /** The booked slot's id or booking reference, when the caller has it. */
  bookingId: z.union([z.string().max(100), z.number().int()]).optional(),
});
export const paymentMethodsQuerySchema = z.object({ currency: z.string().max(8).default('MYR') });
export const paymentMethodsSchema = z.object({
  currency: z.literal('MYR'),
  methods: z.array(z.object({ id: z.enum(PAYMENT_METHODS), name: z.string(), default: z.boolean() })),
});
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;
export const paymentHealthSchema = z.object({ status: z.enum(['healthy', 'unhealthy']), gateway: z.string(), message: z.string() });
export type PaymentHealth = z.infer<typeof paymentHealthSchema>;
