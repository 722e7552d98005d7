import { integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { LOCALES } from 'shared-api/contract';
import { tz } from '../base/db/columns';

// Mirrors migrations/0007_booking_lifecycle.sql: manage links, the booking's history, reminders sent.
export const manageTokens = pgTable('manage_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  paymentId: text('payment_id').notNull(),
  purpose: text('purpose', { enum: ['mail', 'browser'] }).notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});

export const bookingEvents = pgTable('booking_events', {
  id: serial('id').primaryKey(),
  paymentId: text('payment_id').notNull(),
  kind: text('kind', { enum: ['booked', 'rescheduled', 'cancelled', 'refund_requested', 'refunded', 'refund_failed', 'child_cancelled', 'child_refunded', 'charged_back'] }).notNull(),
  actor: text('actor').notNull(),
  fromStart: tz('from_start'),
  toStart: tz('to_start'),
  amountSen: integer('amount_sen'),
  /** The child a child_cancelled / child_refunded event is about (migration 0035). */
  childName: text('child_name'),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type BookingEventRow = typeof bookingEvents.$inferSelect;

export const bookingReminders = pgTable('booking_reminders', {
  paymentId: text('payment_id').notNull(),
  visitStart: tz('visit_start').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.paymentId, t.visitStart] })]);

/** Mirrors migrations/0015_consents.sql: the parent's consent to the privacy notice, named by each payment and booked slot. */
export const consents = pgTable('consents', {
  id: serial('id').primaryKey(),
  noticeVersion: text('notice_version').notNull(),
  language: text('language', { enum: LOCALES }).notNull(),
  channel: text('channel', { enum: ['web', 'staff', 'legacy'] }).notNull(),
  givenAt: tz('given_at').notNull().defaultNow(),
});
export type ConsentRow = typeof consents.$inferSelect;
