import { boolean, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { LOCALES, MAIL_KINDS } from 'shared-api/contract';
import { PAYMENT_STATUSES } from './statuses';

// Mirrors migrations/0002_payments_mail.sql, 0006_payment_checks.sql, 0007_booking_lifecycle.sql and 0012_booking_locale.sql (the SQL is the source of truth; this gives typed queries).
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const payments = pgTable('payments', {
  id: text('id').primaryKey(),
  reference: text('reference').notNull().unique(),
  slotId: integer('slot_id').notNull(),
  status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
  amountSen: integer('amount_sen').notNull(),
  currency: text('currency').notNull().default('MYR'),
  method: text('method'),
  visitorName: text('visitor_name').notNull(),
  visitorEmail: text('visitor_email').notNull(),
  visitorContactNo: text('visitor_contact_no').notNull(),
  selectedSchool: text('selected_school').notNull(),
  holdToken: text('hold_token').notNull(),
  gateway: text('gateway').notNull(),
  gatewaySessionId: text('gateway_session_id'),
  checkoutUrl: text('checkout_url'),
  sessionExpiresAt: tz('session_expires_at').notNull(),
  failureReason: text('failure_reason'),
  refundReason: text('refund_reason'),
  gatewayRefundId: text('gateway_refund_id'),
  completedAt: tz('completed_at'),
  lastCheckedAt: tz('last_checked_at'),
  paidAmountSen: integer('paid_amount_sen'),
  refundAttempts: integer('refund_attempts').notNull().default(0),
  refundLastError: text('refund_last_error'),
  nextRefundAt: tz('next_refund_at'),
  bookingStatus: text('booking_status', { enum: ['booked', 'cancelled'] }),
  cancelledAt: tz('cancelled_at'),
  cancelledBy: text('cancelled_by'),
  refundAmountSen: integer('refund_amount_sen'),
  refundRequestedAt: tz('refund_requested_at'),
  calendarSequence: integer('calendar_sequence').notNull().default(0),
  /** The language the parent booked in: their mails, invitations and reminders speak it (migration 0012). */
  locale: text('locale', { enum: LOCALES }).notNull().default('en'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
export type PaymentRow = typeof payments.$inferSelect;

export const paymentEvents = pgTable('payment_events', {
  id: serial('id').primaryKey(),
  gateway: text('gateway').notNull(),
  eventId: text('event_id').notNull(),
  paymentId: text('payment_id'),
  kind: text('kind').notNull(),
  receivedAt: tz('received_at').notNull().defaultNow(),
});


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
  nextAttemptAt: tz('next_attempt_at').notNull().defaultNow(),
  claimedUntil: tz('claimed_until'),
  lastError: text('last_error'),
  timedOut: boolean('timed_out').notNull().default(false),
  messageId: text('message_id').notNull(),
  /** A parent's message's language (its Content-Language); null for staff messages (migration 0012). */
  locale: text('locale', { enum: LOCALES }),
  sentAt: tz('sent_at'),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type MailRow = typeof mailOutbox.$inferSelect;

export const sandboxSessions = pgTable('sandbox_sessions', {
  id: text('id').primaryKey(),
  reference: text('reference').notNull(),
  amountSen: integer('amount_sen').notNull(),
  description: text('description').notNull(),
  customerEmail: text('customer_email').notNull(),
  allowedMethods: text('allowed_methods').notNull(),
  status: text('status', { enum: ['created', 'paid', 'failed', 'cancelled', 'refunded'] }).notNull().default('created'),
  method: text('method'),
  expiresAt: tz('expires_at').notNull(),
  successUrl: text('success_url').notNull(),
  failureUrl: text('failure_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  callbackUrl: text('callback_url').notNull(),
  paidAt: tz('paid_at'),
  refundedAt: tz('refunded_at'),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type SandboxSessionRow = typeof sandboxSessions.$inferSelect;

export const manageTokens = pgTable('manage_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  paymentId: text('payment_id').notNull(),
  purpose: text('purpose', { enum: ['mail', 'browser'] }).notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});

export const bookingEvents = pgTable('booking_events', {
  id: serial('id').primaryKey(),
  paymentId: text('payment_id').notNull(),
  kind: text('kind', { enum: ['booked', 'rescheduled', 'cancelled', 'refund_requested', 'refunded', 'refund_failed'] }).notNull(),
  actor: text('actor').notNull(),
  fromStart: tz('from_start'),
  toStart: tz('to_start'),
  amountSen: integer('amount_sen'),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type BookingEventRow = typeof bookingEvents.$inferSelect;

export const bookingReminders = pgTable('booking_reminders', {
  paymentId: text('payment_id').notNull(),
  visitStart: tz('visit_start').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});
