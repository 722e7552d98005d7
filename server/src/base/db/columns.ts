import { timestamp } from 'drizzle-orm/pg-core';

/** Every time column: timestamptz, read as a Date. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
