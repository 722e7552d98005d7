import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth';

// Mirrors migrations/0011_calendar_feed.sql (the SQL is the source of truth; this gives typed queries).
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;
