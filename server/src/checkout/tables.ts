import { bigserial, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';
import { slots } from '../slots';

// Mirrors migrations/0013_hold_grants.sql: the hold time granted on each slot to a client network, email and phone (hold-time.ts).
export const holdGrants = pgTable('hold_grants', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  slotId: integer('slot_id')
    .notNull()
    .references(() => slots.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  client: text('client').notNull(),
  email: text('email'),
  phone: text('phone'),
  startedAt: tz('started_at').notNull().defaultNow(),
  endsAt: tz('ends_at').notNull(),
});
