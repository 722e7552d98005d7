import { bigint, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';

// Mirrors migrations/0001 (users, sessions), 0008_accounts.sql and 0033_staff_roles_second_factor.sql.
export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  username: text('username'),
  passwordHash: text('password_hash').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  /** Migration 0008: a disabled account cannot log in; its sessions were revoked when it was disabled. */
  disabledAt: tz('disabled_at'),
  lastLoginAt: tz('last_login_at'),
  /** 'staff' or 'admin' (STAFF_ROLES); the oldest enabled account was made admin by migration 0033. */
  role: text('role', { enum: ['staff', 'admin'] }).notNull().default('staff'),
  /** TOTP secret (base32) shown by the enrolment until its first right code moves it to `totpSecret`. */
  totpPendingSecret: text('totp_pending_secret'),
  totpSecret: text('totp_secret'),
  totpEnrolledAt: tz('totp_enrolled_at'),
  /** The last 30-second step a code was accepted for: a code of that step or an earlier one is refused. */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
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
  /** When this session last gave the admin's second factor (STEP_UP_HOURS). */
  steppedUpAt: tz('stepped_up_at'),
});
export type UserRow = typeof users.$inferSelect;

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  expiresAt: tz('expires_at').notNull(),
  usedAt: tz('used_at'),
});

/** One-time recovery codes of an enrolled second factor (SHA-256 of each). */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: tz('used_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);
