import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { LOCALES, WAITLIST_ENTRY_STATES, WAITLIST_OFFER_OUTCOMES, WAITLIST_PARTS_OF_DAY } from 'shared-api/contract';
import { tz } from '../base/db/columns';
import { consents } from '../bookings';
import { slots } from '../slots';

// Mirrors migrations/0019_waitlist.sql, 0029, 0032 and 0036: parents waiting for a slot, the offers of freed slots made to them, and
// the freeings of slots the offer pass has looked at.
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    school: text('school').notNull(),
    name: text('name').notNull(),
    /** Lower-case, as the booking form's rules leave it. */
    email: text('email').notNull(),
    /** Normalised as the booking form's rules leave it (`0…` or `+…`, digits only). */
    phone: text('phone').notNull(),
    childName: text('child_name'),
    childYear: text('child_year'),
    /** Migration 0036: how many children come together; an offer needs and holds this many seats of one time. */
    children: smallint('children').notNull().default(1),
    locale: text('locale', { enum: LOCALES }).notNull(),
    /** GMT+8 days (YYYY-MM-DD), both inclusive. */
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    partOfDay: text('part_of_day', { enum: WAITLIST_PARTS_OF_DAY }).notNull(),
    joinedAt: tz('joined_at').notNull().defaultNow(),
    /** The list's order: first come, first served; a staff move swaps it with the neighbour's. */
    position: bigserial('position', { mode: 'number' }).notNull(),
    state: text('state', { enum: WAITLIST_ENTRY_STATES }).notNull().default('waiting'),
    tokenHash: text('token_hash').notNull().unique(),
    consentId: integer('consent_id')
      .notNull()
      .references(() => consents.id),
    endedAt: tz('ended_at'),
    /** Migration 0038 (issue 38): the offer by WhatsApp too, opted in with the consent above. */
    whatsappOptInAt: tz('whatsapp_opt_in_at'),
    whatsappOptOutAt: tz('whatsapp_opt_out_at'),
    /** When it began waiting, on the scale of slot freeings (slots.freed_seq): only slots freed later are offered to it. */
    waitingSeq: bigint('waiting_seq', { mode: 'number' }).notNull().default(sql`nextval('slot_freed_seq')`),
    /** Keyed hash of the client network that made the entry: its offers count toward that network's holds. */
    client: text('client'),
    /** An entry whose offer ended unpaid is offered again no sooner than this. */
    offerableAfter: tz('offerable_after'),
    /** Migration 0032: the booking that ended it 'booked'; cancelled within the term, the entry waits again. */
    endedByReference: text('ended_by_reference'),
  },
  (t) => [
    uniqueIndex('waitlist_entries_live_email_uq').on(t.school, t.email).where(sql`state = ANY (ARRAY['waiting', 'offered'])`),
    uniqueIndex('waitlist_entries_pending_email_uq').on(t.school, t.email).where(sql`state = 'pending'`),
    uniqueIndex('waitlist_entries_live_phone_uq').on(t.school, t.phone).where(sql`state = ANY (ARRAY['waiting', 'offered'])`),
    index('waitlist_entries_waiting_idx').on(t.position).where(sql`state = 'waiting'`),
    check('waitlist_entries_check', sql`to_date >= from_date`),
  ],
);
export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;

export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: serial('id').primaryKey(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => waitlistEntries.id),
    slotId: integer('slot_id')
      .notNull()
      .references(() => slots.id),
    tokenHash: text('token_hash').notNull().unique(),
    /** The slot's hold token while the offer runs, handed to the parent on accept. */
    holdToken: text('hold_token').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    /** Later than createdAt when the offer was made in quiet hours. */
    startsAt: tz('starts_at').notNull(),
    expiresAt: tz('expires_at').notNull(),
    mailQueuedAt: tz('mail_queued_at'),
    outcome: text('outcome', { enum: WAITLIST_OFFER_OUTCOMES }),
    endedAt: tz('ended_at'),
  },
  (t) => [
    uniqueIndex('waitlist_offers_live_entry_uq').on(t.entryId).where(sql`outcome IS NULL`),
    uniqueIndex('waitlist_offers_live_slot_uq').on(t.slotId).where(sql`outcome IS NULL`),
    index('waitlist_offers_entry_idx').on(t.entryId),
    check('waitlist_offers_check', sql`expires_at > starts_at`),
  ],
);
export type WaitlistOfferRow = typeof waitlistOffers.$inferSelect;

/** The latest freeing of each slot the offer pass has looked at (offered it, or found nobody: the slot is public). */
export const waitlistSlotChecks = pgTable('waitlist_slot_checks', {
  slotId: integer('slot_id')
    .primaryKey()
    .references(() => slots.id, { onDelete: 'cascade' }),
  freedSeq: bigint('freed_seq', { mode: 'number' }).notNull(),
});

/** Migration 0032: addresses whose owner said a join was not theirs (keyed hash, as holds key an email), until when. */
export const waitlistJoinBlocks = pgTable('waitlist_join_blocks', {
  emailKey: text('email_key').primaryKey(),
  until: tz('until').notNull(),
});
