import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Mirrors migrations/*.sql (the SQL files are the source of truth; this gives typed queries).
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  username: text('username'),
  passwordHash: text('password_hash').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  /** Migration 0008: a disabled account cannot log in; its sessions were revoked when it was disabled. */
  disabledAt: tz('disabled_at'),
  lastLoginAt: tz('last_login_at'),
});

export const sessions = pgTable('sessions', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: tz('created_at').notNull().defaultNow(),
  lastUsedAt: tz('last_used_at').notNull().defaultNow(),
  expiresAt: tz('expires_at').notNull(),
  revokedAt: tz('revoked_at'),
});

export const slots = pgTable(
  'slots',
  {
    id: serial('id').primaryKey(),
    startAt: tz('start_at').notNull(),
    endAt: tz('end_at').notNull(),
    status: text('status', { enum: ['available', 'booked'] }).notNull().default('available'),
    visitorName: text('visitor_name'),
    visitorEmail: text('visitor_email'),
    visitorContactNo: text('visitor_contact_no'),
    selectedSchool: text('selected_school'),
    bookingReference: text('booking_reference').unique(),
    amountSen: integer('amount_sen'),
    bookedAt: tz('booked_at'),
    holdTokenHash: text('hold_token_hash'),
    holdExpiresAt: tz('hold_expires_at'),
    /** Keyed hashes of who holds the slot (migration 0005): the client's address, the visitor's email and phone. */
    holdClient: text('hold_client'),
    holdEmail: text('hold_email'),
    holdPhone: text('hold_phone'),
    createdAt: tz('created_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [
    uniqueIndex('slots_live_start_uq').on(t.startAt).where(sql`deleted_at IS NULL`),
    index('slots_public_list_idx').on(t.startAt, t.id).where(sql`deleted_at IS NULL AND status = 'available'`),
    check('slots_end_after_start', sql`end_at > start_at`),
  ],
);

export type SlotRow = typeof slots.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export const schema = { users, sessions, slots };
