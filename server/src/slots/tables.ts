import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';

// Mirrors migrations/0001, 0005, 0013, 0014, 0015 and 0022: the timetable, and the hold time granted on its slots.
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
    /** The child and the year or grade applied for (migration 0014). */
    childName: text('child_name'),
    childYear: text('child_year'),
    bookingReference: text('booking_reference').unique(),
    amountSen: integer('amount_sen'),
    bookedAt: tz('booked_at'),
    /** The booking's consent to the privacy notice (`consents`, migration 0015); null while the slot is free, never null once booked (0022). */
    consentId: integer('consent_id'),
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
    check('slots_booked_names_consent', sql`status <> 'booked' OR consent_id IS NOT NULL`),
  ],
);

/** Hold time granted on a slot to a client network, email and phone (migration 0013; server/src/holds/hold-time.ts). */
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

export type SlotRow = typeof slots.$inferSelect;
