import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { VISIT_ATTENDANCE_STATES } from 'shared-api/contract';
import { tz } from '../base/db/columns';
import { users } from '../auth';

// Mirrors migrations/0041_attendance.sql (issue 40).

/** Who came to a visit (a booking at one time): one row per visit, deleted by an undo within its minutes. */
export const visitAttendance = pgTable(
  'visit_attendance',
  {
    reference: text('reference').notNull(),
    startAt: tz('start_at').notNull(),
    state: text('state', { enum: VISIT_ATTENDANCE_STATES }).notNull(),
    markedAt: tz('marked_at').notNull(),
    markedBy: text('marked_by').notNull(),
    markedByUserId: integer('marked_by_user_id').references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.reference, t.startAt] })],
);
export type VisitAttendanceRow = typeof visitAttendance.$inferSelect;
