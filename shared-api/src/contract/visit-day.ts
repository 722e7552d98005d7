// Issue 40: the visit's day for staff — the day's visits with each child's documents, who came, and no-shows.
// One contract for the server's staff routes (server/src/visit-day/) and the staff's Today view (admin-remote).
import { z } from 'zod';
import { documentKindSchema } from './documents';
import { calendarDaySchema } from './staff-messages';

export const VISIT_ATTENDANCE_STATES = ['arrived', 'noShow'] as const;
export const visitAttendanceStateSchema = z.enum(VISIT_ATTENDANCE_STATES);
export type VisitAttendanceState = z.infer<typeof visitAttendanceStateSchema>;

/** How long after marking a visit staff may undo the mark. */
export const ATTENDANCE_UNDO_MINUTES = 5;

/** A visit's attendance: what was marked, when (ISO), by whom (staff email), and until when it may be undone (ISO). */
export const visitAttendanceSchema = z.object({
  state: visitAttendanceStateSchema,
  at: z.string(),
  by: z.string(),
  undoableUntil: z.string(),
});
export type VisitAttendance = z.infer<typeof visitAttendanceSchema>;

/** A child's documents at the visit: "2 of 4 in" (uploaded, or seen on paper), the missing kinds named. */
export const visitChecklistSchema = z.object({
  required: z.number().int().min(0),
  inCount: z.number().int().min(0),
  missing: z.array(documentKindSchema),
});
export type VisitChecklist = z.infer<typeof visitChecklistSchema>;

export const dayVisitChildSchema = z.object({
  /** The child's place in the booking (documents are kept by it); a staff booking's seat. */
  position: z.number().int().min(1),
  /** '' on a booking made before children were asked for. */
  name: z.string(),
  school: z.string(),
  /** Null for a booking staff made with no payment: no manage link, so no documents uploaded ahead. */
  checklist: visitChecklistSchema.nullable(),
});
export type DayVisitChild = z.infer<typeof dayVisitChildSchema>;

/** One visit: a booking at one time (a child moved alone to another time is a visit of its own). */
export const dayVisitSchema = z.object({
  reference: z.string(),
  start: z.string(),
  end: z.string(),
  visitorName: z.string(),
  visitorContactNo: z.string(),
  children: z.array(dayVisitChildSchema),
  /** False for a booking staff made with no payment. */
  paid: z.boolean(),
  attendance: visitAttendanceSchema.nullable(),
});
export type DayVisit = z.infer<typeof dayVisitSchema>;

/** GET /staff/visits/day?day=YYYY-MM-DD (GMT+8): the day's visits in start order, and the server's time (ISO) for the buttons. */
export const visitDayQuerySchema = z.object({ day: calendarDaySchema });
export const visitDaySchema = z.object({ day: z.string(), now: z.string(), visits: z.array(dayVisitSchema) });
export type VisitDay = z.infer<typeof visitDaySchema>;

/** POST /staff/visits/:reference/attendance: mark the visit starting at `start` (ISO). */
export const visitReferenceParamSchema = z.object({ reference: z.string().min(1).max(100) });
export const visitStartSchema = z.iso.datetime({ offset: true });
export const attendanceBodySchema = z.object({ start: visitStartSchema, state: visitAttendanceStateSchema });
export type AttendanceBody = z.infer<typeof attendanceBodySchema>;
/** DELETE /staff/visits/:reference/attendance?start=: undo the mark within ATTENDANCE_UNDO_MINUTES. */
export const attendanceUndoQuerySchema = z.object({ start: visitStartSchema });
/** The answer of a mark or an undo: the visit's attendance now (null after an undo). */
export const attendanceAnswerSchema = z.object({ reference: z.string(), start: z.string(), attendance: visitAttendanceSchema.nullable() });
export type AttendanceAnswer = z.infer<typeof attendanceAnswerSchema>;

/** GET /staff/visits/attendance?from=&to= (GMT+8 days, inclusive, at most a year): the marks, for the Booked list and the CSV. */
export const ATTENDANCE_RANGE_MAX_DAYS = 366;
export const attendanceRangeQuerySchema = z
  .object({ from: calendarDaySchema, to: calendarDaySchema })
  .refine((q) => q.from <= q.to, { message: 'The start date must not be after the end date', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ATTENDANCE_RANGE_MAX_DAYS, {
    message: `At most ${ATTENDANCE_RANGE_MAX_DAYS} days at a time`,
    path: ['to'],
  });
export const attendanceRecordSchema = visitAttendanceSchema.extend({ reference: z.string(), start: z.string() });
export type AttendanceRecord = z.infer<typeof attendanceRecordSchema>;
export const attendanceListSchema = z.object({ records: z.array(attendanceRecordSchema) });
export type AttendanceList = z.infer<typeof attendanceListSchema>;

// ---- Words (staff: English) ----
export const VisitDayErrorCode = {
  /** 404: no booking at that time carries the reference. */
  VISIT_NOT_FOUND: 'VISIT_NOT_FOUND',
  /** 409: the booking is cancelled. */
  VISIT_CANCELLED: 'VISIT_CANCELLED',
  /** 409: a no-show before the visit's start, or a mark on another day than the visit's. */
  ATTENDANCE_NOT_YET: 'ATTENDANCE_NOT_YET',
  /** 409: the visit is already marked otherwise (undo it first). */
  ATTENDANCE_ALREADY_MARKED: 'ATTENDANCE_ALREADY_MARKED',
  /** 409: the mark is older than ATTENDANCE_UNDO_MINUTES. */
  ATTENDANCE_UNDO_TOO_LATE: 'ATTENDANCE_UNDO_TOO_LATE',
  /** 404: nothing is marked for this visit. */
  ATTENDANCE_NOT_MARKED: 'ATTENDANCE_NOT_MARKED',
} as const;
export type VisitDayErrorCode = (typeof VisitDayErrorCode)[keyof typeof VisitDayErrorCode];

export const VisitDayMessage = {
  notFound: 'No booking with this reference starts at that time.',
  cancelled: 'This booking is cancelled, so its visit cannot be marked.',
  noShowTooEarly: 'A visit can be marked No-show only after its start time.',
  notItsDay: "A visit can be marked only on its own day (GMT+8).",
  alreadyMarked: 'This visit is already marked. Undo that mark first.',
  undoTooLate: `Too late to undo: a mark can be undone within ${ATTENDANCE_UNDO_MINUTES} minutes.`,
  notMarked: 'This visit is not marked, so there is nothing to undo.',
  arrived: 'Marked as arrived.',
  noShow: 'Marked as no-show.',
  undone: 'Mark undone.',
} as const;

/** How the Booked list, the CSV and the Today view name a state. */
export const AttendanceLabel: Record<VisitAttendanceState, string> = { arrived: 'Arrived', noShow: 'No-show' };
