import { date, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';

// Mirrors migrations/0018_privacy_requests.sql: access and correction requests and their dates.
export const privacyRequests = pgTable('privacy_requests', {
  id: serial('id').primaryKey(),
  kind: text('kind', { enum: ['access', 'correction'] }).notNull(),
  personEmail: text('person_email'),
  personPhone: text('person_phone'),
  /** The GMT+8 day the request arrived (YYYY-MM-DD). */
  receivedOn: date('received_on', { mode: 'string' }).notNull(),
  extendedAt: tz('extended_at'),
  handledBy: text('handled_by').notNull(),
  answeredAt: tz('answered_at'),
  note: text('note').notNull().default(''),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;

// Mirrors migrations/0024_breaches.sql: the breach log; deadlines and the people touched are computed, not stored.
export const breaches = pgTable('breaches', {
  id: serial('id').primaryKey(),
  foundAt: tz('found_at').notNull(),
  whatHappened: text('what_happened').notNull(),
  dataAffected: text('data_affected').notNull(),
  whatHappenedMs: text('what_happened_ms'),
  dataAffectedMs: text('data_affected_ms'),
  whatHappenedZh: text('what_happened_zh'),
  dataAffectedZh: text('data_affected_zh'),
  /** The GMT+8 days (YYYY-MM-DD) between which the parents touched booked, both or neither. */
  bookedFrom: date('booked_from', { mode: 'string' }),
  bookedTo: date('booked_to', { mode: 'string' }),
  school: text('school'),
  commissionerNotifiedAt: tz('commissioner_notified_at'),
  peopleNotifiedAt: tz('people_notified_at'),
  peopleNotified: integer('people_notified'),
  recordedBy: text('recorded_by').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  /** Where the school has two admins or more: the admin (email) who asked to mail the people, and when (a second one sends). */
  notifyAskedBy: text('notify_asked_by'),
  notifyAskedAt: tz('notify_asked_at'),
});
export type BreachRow = typeof breaches.$inferSelect;
