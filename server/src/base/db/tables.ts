import { pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from './columns';

/** Secrets every replica shares (migration 0004; server/src/base/secrets.ts reads and creates them in SQL). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});
