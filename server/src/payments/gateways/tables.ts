import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from '../../base/db/columns';

// Mirrors migrations/0002_payments_mail.sql and 0035 (refunded_sen): the embedded sandbox gateway's checkout sessions.
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
  /** What refunds gave back so far (partial refunds: one child's share). */
  refundedSen: integer('refunded_sen').notNull().default(0),
  createdAt: tz('created_at').notNull().defaultNow(),
});
export type SandboxSessionRow = typeof sandboxSessions.$inferSelect;
