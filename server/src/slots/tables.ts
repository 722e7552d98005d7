import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tz } from '../base/db/columns';

// Mirrors migrations/0001, 0005, 0014, 0015, 0022, 0029, 0034 and 0035: the timetable, one row per seat. Its hold columns are written only by server/src/checkout.
export const slots = pgTable(
  'slots',
  {
    id: serial('id').primaryKey(),
    startAt: tz('start_at').notNull(),
    endAt: tz('end_at').notNull(),
    /** Which of its time's seats this row is (migration 0034): a time's seats are its live rows, seat 1 first. */
    seat: smallint('seat').notNull().default(1),
    status: text('status', { enum: ['available', 'booked'] }).notNull().default('available'),
    visitorName: text('visitor_name'),
    visitorEmail: text('visitor_email'),
    visitorContactNo: text('visitor_contact_no'),
    selectedSchool: text('selected_school'),
    /** The child and the year or grade applied for (migration 0014). */
    childName: text('child_name'),
    childYear: text('child_year'),
    /** The booking's reference; the seats one checkout booked for several children share it (migration 0035). */
    bookingReference: text('booking_reference'),
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
    /** The number of the slot's latest freeing (slot_freed_seq, migration 0029): the waitlist offers only slots freed while its entries waited. */
    freedSeq: bigint('freed_seq', { mode: 'number' }).notNull().default(sql`nextval('slot_freed_seq')`),
    createdAt: tz('created_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [
    uniqueIndex('slots_live_start_seat_uq').on(t.startAt, t.seat).where(sql`deleted_at IS NULL`),
    index('slots_booking_reference_idx').on(t.bookingReference).where(sql`booking_reference IS NOT NULL`),
    index('slots_public_list_idx').on(t.startAt, t.id).where(sql`deleted_at IS NULL AND status = 'available'`),
    index('slots_booked_list_idx').on(t.startAt, t.seat).where(sql`deleted_at IS NULL AND status = 'booked'`),
    check('slots_end_after_start', sql`end_at > start_at`),
    check('slots_seat_check', sql`seat BETWEEN 1 AND 6`),
    check('slots_booked_names_consent', sql`status <> 'booked' OR consent_id IS NOT NULL`),
  ],
);

export type SlotRow = typeof slots.$inferSelect;
