// Slot planning (issue 15): several start times a day over a date range, created in one request, with a preview.
import { z } from 'zod';
import { LATEST_SLOT_START_MINUTES, latestSlotDateInMY } from './slot-rules';
import { SEATS_MESSAGE, isoDate, staffSlotSchema } from './schemas';
import { SLOT_MAX_SEATS } from './constants';
import { SlotAddMessage } from './slot-messages';
import { formatMinutes12, formatMinutes24, isWeekend, parseSlotTime, slotEndMinutes, todayInMY } from './gmt8';
import { dayInMY } from './time';

/** At most this many start times a day in one request. */
export const SLOT_PLAN_MAX_TIMES = 12;
/** The longest date range one request may cover (inclusive), as the single-time dialog's. */
export const SLOT_PLAN_MAX_DAYS = 92;
/** Monday to Friday, as dayjs/Date number days (0 Sunday ... 6 Saturday). */
export const SLOT_PLAN_DEFAULT_WEEKDAYS = [1, 2, 3, 4, 5] as const;

export const SlotPlanMessage = {
  badTime: 'Start times must be HH:mm (24-hour)',
  timeTooLate: SlotAddMessage.timeTooLate,
  noTimes: 'Give at least one start time',
  tooManyTimes: `Give at most ${SLOT_PLAN_MAX_TIMES} start times`,
  badWeekday: 'Weekdays are numbers from 0 (Sunday) to 6 (Saturday)',
  endBeforeStart: 'End date must be after start date',
  rangeTooLong: `Choose a range of at most ${SLOT_PLAN_MAX_DAYS} days`,
  nothingToCreate: 'No slots would be created with these choices.',
  refused: 'No slots were created: some of the requested slots are refused.',
  /** The single-slot create path when the new slot overlaps a live one that starts at another time. */
  overlapsExisting: (start: string, end: string) => `This slot overlaps an existing slot (${start} - ${end}).`,
  overlapsRequested: (start: string, end: string) => `This slot overlaps another requested slot (${start} - ${end}).`,
  created: (n: number) => `Created ${n} slot(s)`,
  /** add-many with more than one child at a time: its times, and their seats (one row each). */
  createdSeats: (times: number, seats: number) => `Created ${times} slot(s), ${seats} children at a time (${times * seats} seats)`,
} as const;

const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, SlotPlanMessage.badTime)
  .refine((t) => (parseSlotTime(t) ?? 0) <= LATEST_SLOT_START_MINUTES, SlotPlanMessage.timeTooLate);

export const slotPlanBodySchema = z
  .object({
    fromDate: isoDate,
    toDate: isoDate,
    /** Which days of the week to plan (0 Sunday ... 6 Saturday); Monday to Friday when left out. */
    weekdays: z.array(z.number().int().min(0, SlotPlanMessage.badWeekday).max(6, SlotPlanMessage.badWeekday)).min(1).max(7).optional(),
    startTimes: z.array(hhmm).min(1, SlotPlanMessage.noTimes).max(SLOT_PLAN_MAX_TIMES, SlotPlanMessage.tooManyTimes),
    /** Leave out the public holidays of the schools' state (brand.config.json `publicHolidays`); false when left out. */
    skipHolidays: z.boolean().optional(),
    /** Children assessed at the same time (issue 37): each planned time is created as this many seats; 1 when left out. */
    seats: z.number({ error: SEATS_MESSAGE }).int(SEATS_MESSAGE).min(1, SEATS_MESSAGE).max(SLOT_MAX_SEATS, SEATS_MESSAGE).optional(),
  })
  .superRefine(({ fromDate, toDate }, ctx) => {
    const from = dayInMY(fromDate);
    const to = dayInMY(toDate);
    if (!from.isValid()) ctx.addIssue({ code: 'custom', path: ['fromDate'], message: SlotAddMessage.badDate });
    if (!to.isValid()) ctx.addIssue({ code: 'custom', path: ['toDate'], message: SlotAddMessage.badDate });
    if (!from.isValid() || !to.isValid()) return;
    if (toDate < fromDate) ctx.addIssue({ code: 'custom', path: ['toDate'], message: SlotPlanMessage.endBeforeStart });
    else if (to.diff(from, 'day') + 1 > SLOT_PLAN_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['toDate'], message: SlotPlanMessage.rangeTooLong });
  });
export type SlotPlanBody = z.infer<typeof slotPlanBodySchema>;

export const slotPlanRefusalReasonSchema = z.enum(['weekend', 'tooEarly', 'tooFar', 'overlapsExisting', 'overlapsRequested']);
export type SlotPlanRefusalReason = z.infer<typeof slotPlanRefusalReasonSchema>;

export const slotPlanItemSchema = z.object({ date: isoDate, startTime: z.string(), endTime: z.string() });
export type SlotPlanItem = z.infer<typeof slotPlanItemSchema>;
export const slotPlanRefusalSchema = slotPlanItemSchema.extend({ reason: slotPlanRefusalReasonSchema, message: z.string() });
export type SlotPlanRefusal = z.infer<typeof slotPlanRefusalSchema>;

/** A public holiday on a day the plan covers (a chosen weekday of the range); `skipped`: no slot is planned on it. */
export const slotPlanHolidaySchema = z.object({ date: isoDate, name: z.string(), skipped: z.boolean() });
export type SlotPlanHoliday = z.infer<typeof slotPlanHolidaySchema>;

/** What a request would create and what it refuses; add-many creates only when `refused` is empty. */
export const slotPlanSchema = z.object({
  toCreate: z.array(slotPlanItemSchema),
  refused: z.array(slotPlanRefusalSchema),
  /** The public holidays on the plan's days, skipped or not (the server knows them; older answers have none). */
  holidays: z.array(slotPlanHolidaySchema).default([]),
  /** Only for more than one child at a time (issue 37): the seats of each time, and of all the times to create. */
  seats: z.number().int().min(2).optional(),
  seatsToCreate: z.number().int().min(0).optional(),
});
export type SlotPlan = z.infer<typeof slotPlanSchema>;

export const slotPlanCreatedSchema = z.object({ created: z.array(staffSlotSchema), count: z.number().int() });
export type SlotPlanCreated = z.infer<typeof slotPlanCreatedSchema>;

/** The refusal answer of add-many: nothing was created; `data` says why, slot by slot. */
export const slotPlanRefusedEnvelopeSchema = z.object({
  success: z.literal(false),
  data: slotPlanSchema,
  message: z.string(),
  error: z.string(),
});

/** A live slot the plan is checked against (instants in ms). */
export type ExistingSlotSpan = { startMs: number; endMs: number };

/** Public holidays by day (YYYY-MM-DD → name), as the server reads them from its holiday data. */
export type HolidayNames = ReadonlyMap<string, string>;

/**
 * The plan of a request, computed the same way by the server (against the live slots it read under its lock) and by
 * tests: every date of the range on the chosen weekdays, every start time, each 30 minutes, checked in order.
 */
export function planSlots(body: SlotPlanBody, existing: ExistingSlotSpan[], now: Date | number = Date.now(), holidayNames: HolidayNames = new Map()): SlotPlan {
  const weekdays = new Set(body.weekdays ?? SLOT_PLAN_DEFAULT_WEEKDAYS);
  const today = todayInMY(now);
  const latest = latestSlotDateInMY(now);
  const times = [...body.startTimes].map((t) => parseSlotTime(t)!).sort((a, b) => a - b);
  const toCreate: SlotPlanItem[] = [];
  const refused: SlotPlanRefusal[] = [];
  const holidays: SlotPlanHoliday[] = [];
  const from = dayInMY(body.fromDate);
  const days = dayInMY(body.toDate).diff(from, 'day') + 1;
  const fmt = (ms: number) => formatMinutes12(Math.round((ms - dayStartOf(ms)) / 60_000));
  for (let i = 0; i < days; i++) {
    const midnight = from.add(i, 'day');
    const date = midnight.format('YYYY-MM-DD');
    if (!weekdays.has(midnight.day())) continue;
    const holiday = holidayNames.get(date);
    if (holiday !== undefined && !isWeekend(date)) {
      holidays.push({ date, name: holiday, skipped: body.skipHolidays === true });
      if (body.skipHolidays) continue;
    }
    const accepted: ExistingSlotSpan[] = [];
    for (const minutes of times) {
      const item = { date, startTime: formatMinutes24(minutes), endTime: formatMinutes24(slotEndMinutes(minutes)) };
      const startMs = midnight.valueOf() + minutes * 60_000;
      const endMs = midnight.valueOf() + slotEndMinutes(minutes) * 60_000;
      const overlaps = (o: ExistingSlotSpan) => startMs < o.endMs && endMs > o.startMs;
      const clash = existing.find(overlaps);
      const sibling = accepted.find(overlaps);
      if (isWeekend(date)) refused.push({ ...item, reason: 'weekend', message: SlotAddMessage.weekend });
      else if (date <= today) refused.push({ ...item, reason: 'tooEarly', message: SlotAddMessage.tooEarly });
      else if (date > latest) refused.push({ ...item, reason: 'tooFar', message: SlotAddMessage.tooFar });
      else if (clash)
        refused.push({
          ...item,
          reason: 'overlapsExisting',
          message: clash.startMs === startMs ? SlotAddMessage.duplicate : SlotPlanMessage.overlapsExisting(fmt(clash.startMs), fmt(clash.endMs)),
        });
      else if (sibling)
        refused.push({ ...item, reason: 'overlapsRequested', message: SlotPlanMessage.overlapsRequested(fmt(sibling.startMs), fmt(sibling.endMs)) });
      else {
        accepted.push({ startMs, endMs });
        toCreate.push(item);
      }
    }
  }
  const seats = body.seats ?? 1;
  return { toCreate, refused, holidays, ...(seats > 1 ? { seats, seatsToCreate: toCreate.length * seats } : {}) };
}

/** Midnight GMT+8 of the day an instant falls on, in ms. */
const dayStartOf = (ms: number): number => dayInMY(todayInMY(ms)).valueOf();
