import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, smallint, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { slots } from '../slots';
import { LOCALES } from 'shared-api/contract';
import { tz } from '../base/db/columns';
import { PAYMENT_STATUSES } from './statuses';

// Mirrors migrations/0002_payments_mail.sql, 0006_payment_checks.sql, 0007_booking_lifecycle.sql, 0012_booking_locale.sql, 0014_child_details.sql, 0015_consents.sql, 0025_refund_jobs.sql and 0039_chargebacks.sql (server/test/db/schema-mirror.test.ts checks they agree).

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
  /** The child and the year or grade applied for; null on payments made before they were asked (migration 0014). */
  childName: text('child_name'),
  childYear: text('child_year'),
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
  bookingStatus: text('booking_status', { enum: ['booked', 'cancelled'] }),
  cancelledAt: tz('cancelled_at'),
  cancelledBy: text('cancelled_by'),
  refundAmountSen: integer('refund_amount_sen'),
  refundRequestedAt: tz('refund_requested_at'),
  calendarSequence: integer('calendar_sequence').notNull().default(0),
  /** The language the parent booked in: their mails, invitations and reminders speak it (migration 0012). */
  locale: text('locale', { enum: LOCALES }).notNull().default('en'),
  /** The parent's consent to the privacy notice (`consents`, migration 0015): no payment without one. */
  consentId: integer('consent_id').notNull().unique(),
  /** Migration 0038 (issue 38): WhatsApp messages too, opted in with the consent above; withdrawn from the manage page or by STOP. */
  whatsappOptInAt: tz('whatsapp_opt_in_at'),
  whatsappOptOutAt: tz('whatsapp_opt_out_at'),
  /** "Confirm I'm coming" pressed on the WhatsApp reminder (staff see it; it changes nothing else). */
  confirmedByParentAt: tz('confirmed_by_parent_at'),
  /** Migration 0039: the bank took money back (a card chargeback): when (the latest) and how much in all; the booking stays. */
  chargebackAt: tz('chargeback_at'),
  chargebackAmountSen: integer('chargeback_amount_sen'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('payments_gateway_session_uq').on(t.gateway, t.gatewaySessionId).where(sql`gateway_session_id IS NOT NULL`)]);
export type PaymentRow = typeof payments.$inferSelect;

export const paymentEvents = pgTable('payment_events', {
  id: serial('id').primaryKey(),
  gateway: text('gateway').notNull(),
  eventId: text('event_id').notNull(),
  paymentId: text('payment_id'),
  kind: text('kind').notNull(),
  receivedAt: tz('received_at').notNull().defaultNow(),
}, (t) => [unique().on(t.gateway, t.eventId)]);


// Mirrors migrations/0035_payment_children.sql: the children of a checkout of several (issue 37), one seat each.
export const paymentChildren = pgTable(
  'payment_children',
  {
    paymentId: text('payment_id').notNull().references(() => payments.id),
    /** The order the parent gave; 1 is the payment's own child. */
    position: smallint('position').notNull(),
    /** The seat held, then booked, for this child (it follows a move). */
    slotId: integer('slot_id').notNull().references(() => slots.id),
    childName: text('child_name').notNull(),
    childYear: text('child_year').notNull(),
    selectedSchool: text('selected_school').notNull(),
    feeSen: integer('fee_sen').notNull(),
    discountSen: integer('discount_sen').notNull(),
    amountSen: integer('amount_sen').notNull(),
    cancelledAt: tz('cancelled_at'),
    cancelledBy: text('cancelled_by'),
    refundSen: integer('refund_sen'),
    refundState: text('refund_state', { enum: ['pending', 'requested', 'refunded'] }),
    refundAttempts: integer('refund_attempts').notNull().default(0),
    refundLastError: text('refund_last_error'),
    gatewayRefundId: text('gateway_refund_id'),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.position] }), index('payment_children_slot_idx').on(t.slotId)],
);
export type PaymentChildRow = typeof paymentChildren.$inferSelect;
