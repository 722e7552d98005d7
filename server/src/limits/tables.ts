import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';

// Mirrors migrations/0004_rate_counters.sql (rate-counter.ts queries it in SQL; this keeps the schema in one view).
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').primaryKey(),
    windowStart: tz('window_start').notNull().defaultNow(),
    hits: integer('hits').notNull().default(0),
  },
  (t) => [index('rate_counters_window_idx').on(t.windowStart)],
);
