import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';

// Mirrors migrations/0001 (users, sessions) and 0008_accounts.sql.
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
export type UserRow = typeof users.$inferSelect;

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  expiresAt: tz('expires_at').notNull(),
  usedAt: tz('used_at'),
});
