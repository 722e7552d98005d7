import { z } from 'zod';
import { brand } from './brand';
import { addDays, midnightInMY } from './gmt8';

/** The longest period the Insights page asks about: a year (a leap year's 366 days). */
export const INSIGHTS_MAX_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const insightsDay = z
  .string()
  .regex(DAY, 'Use a date like 2026-03-02')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a calendar date');

const schoolNames = brand.schools.map((s) => s.name) as [string, ...string[]];

/** Days between two GMT+8 days, both counted: 2026-03-02..2026-03-02 is 1. */
export const daysInPeriod = (from: string, to: string): number => Math.round((midnightInMY(to) - midnightInMY(from)) / 86_400_000) + 1;

/**
 * Every Insights call's query: `from` and `to` are GMT+8 days, both inclusive, at most a year apart; `school` one of
 * the group's schools (brand.config.json), or left out for all.
 */
export const insightsQuerySchema = z
  .object({
    from: insightsDay,
    to: insightsDay,
    school: z.enum(schoolNames, { message: `School must be one of: ${schoolNames.join(', ')}` }).optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'The start date must not be after the end date', path: ['to'] })
  .refine((q) => q.from > q.to || daysInPeriod(q.from, q.to) <= INSIGHTS_MAX_DAYS, {
    message: `The period can be at most ${INSIGHTS_MAX_DAYS} days`,
    path: ['to'],
  });
export type InsightsQuery = z.input<typeof insightsQuerySchema>;

/** The day after `to`: the period's end, exclusive. */
export const periodEndExclusive = (to: string): string => addDays(to, 1);

const count = z.number().int().nonnegative();
const sen = z.number().int();

/** Seats booked of seats offered, per Monday-to-Sunday week (GMT+8) of the period; weeks ahead included. */
export const fillRateSchema = z.object({
  weeks: z.array(
    z.object({
      /** The week's Monday (GMT+8, YYYY-MM-DD); the first and last week may be cut by the period. */
      weekStart: z.string(),
      seatsOffered: count,
      /** Seats booked (of the school filtered on, or of all). */
      seatsBooked: count,
      /** seatsBooked of seatsOffered in percent, rounded; null for a week without seats. */
      fillRatePercent: z.number().int().nullable(),
      /** Seats booked per school (every school of the group, or the one filtered on). */
      bySchool: z.array(z.object({ school: z.string(), seatsBooked: count })),
    }),
  ),
});
export type FillRate = z.infer<typeof fillRateSchema>;

/** Seats booked per weekday (1 Monday … 7 Sunday) and start time (GMT+8 HH:MM) of the visits in the period. */
export const popularTimesSchema = z.object({
  cells: z.array(z.object({ weekday: z.number().int().min(1).max(7), time: z.string(), seatsBooked: count })),
});
export type PopularTimes = z.infer<typeof popularTimesSchema>;

/** Demand beyond supply: entries joining per week, what their offers came to, how fast a freed seat went again. */
export const waitlistInsightsSchema = z.object({
  weeks: z.array(z.object({ weekStart: z.string(), entries: count })),
  offers: z.object({ made: count, accepted: count, passed: count, expired: count, cancelled: count, open: count }),
  rebooking: z.object({
    /** Seats freed by a cancellation in the period. */
    freed: count,
    /** Of those, booked again by a later payment. */
    rebooked: count,
    /** The median minutes from the cancellation to the next paid booking of the seat; null when none was. */
    medianMinutes: z.number().nullable(),
  }),
});
export type WaitlistInsights = z.infer<typeof waitlistInsightsSchema>;

const funnelCounts = {
  started: count,
  paid: count,
  failed: count,
  cancelled: count,
  expired: count,
  open: count,
};
/** Holds taken in the period, and what the payments started in it came to, per payment method. */
export const checkoutFunnelSchema = z.object({
  holds: count,
  ...funnelCounts,
  /** paid of holds, in percent, rounded to one decimal; null without holds. */
  holdToPaidPercent: z.number().nullable(),
  byMethod: z.array(z.object({ method: z.string(), ...funnelCounts })),
});
export type CheckoutFunnel = z.infer<typeof checkoutFunnelSchema>;

/** What happened to bookings in the period, per school: cancelled by the parent or by staff, moved. */
export const attendanceSchema = z.object({
  schools: z.array(z.object({ school: z.string(), cancelledByParent: count, cancelledByStaff: count, moved: count })),
});
export type Attendance = z.infer<typeof attendanceSchema>;

/** Fees paid and refunded for the payments started in the period, per school (integer sen). */
export const moneySchema = z.object({
  schools: z.array(z.object({ school: z.string(), paidSen: sen, refundedSen: sen, netSen: sen })),
});
export type Money = z.infer<typeof moneySchema>;
