import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Mirrors migrations/0008_accounts.sql.
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  expiresAt: tz('expires_at').notNull(),
  usedAt: tz('used_at'),
});
