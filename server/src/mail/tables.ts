import { boolean, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { LOCALES, MAIL_KINDS } from 'shared-api/contract';
import { tz } from '../base/db/columns';

// Mirrors migrations/0002_payments_mail.sql, 0006, 0007, 0008, 0012, 0027 and 0028: every message leaves through this outbox.
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  /** Null for a message about no payment (a staff password reset, migration 0008). */
  paymentId: text('payment_id'),
  kind: text('kind', { enum: MAIL_KINDS }).notNull(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  ics: text('ics'),
  status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  timedOut: boolean('timed_out').notNull().default(false),
  messageId: text('message_id').notNull().unique(),
  /** A parent's message's language (its Content-Language); null for staff messages (migration 0012). */
  locale: text('locale', { enum: LOCALES }),
  sentAt: tz('sent_at'),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type MailRow = typeof mailOutbox.$inferSelect;
