import { bigint, bigserial, boolean, integer, jsonb, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { LOCALES } from 'shared-api/contract';
import { tz } from '../base/db/columns';

// Mirrors migrations/0037_whatsapp.sql (issue 38).
export const WHATSAPP_STATES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed'] as const;
export type WhatsAppState = (typeof WHATSAPP_STATES)[number];

export const whatsappMessages = pgTable('whatsapp_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  paymentId: text('payment_id'),
  waitlistOfferId: bigint('waitlist_offer_id', { mode: 'number' }),
  kind: text('kind').notNull(),
  toE164: text('to_e164').notNull(),
  locale: text('locale', { enum: LOCALES }).notNull(),
  template: text('template').notNull(),
  requestBody: jsonb('request_body').$type<Record<string, unknown>>().notNull(),
  dedupeKey: text('dedupe_key').notNull().unique(),
  state: text('state', { enum: WHATSAPP_STATES }).notNull().default('queued'),
  wamid: text('wamid').unique(),
  errorCode: text('error_code'),
  errorTitle: text('error_title'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: tz('created_at').notNull().defaultNow(),
  sentAt: tz('sent_at'),
  stateAt: tz('state_at'),
  sendAfter: tz('send_after').notNull().defaultNow(),
  /** Migration 0038: not sent by then, it never goes (failed, TOO_LATE). */
  sendBefore: tz('send_before'),
});
export type WhatsAppMessageRow = typeof whatsappMessages.$inferSelect;

export const whatsappEvents = pgTable(
  'whatsapp_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    wamid: text('wamid').notNull(),
    status: text('status').notNull(),
    platformAt: tz('platform_at').notNull(),
    raw: jsonb('raw').notNull(),
    receivedAt: tz('received_at').notNull().defaultNow(),
  },
  // Each status of a message once: the platform's repeats are recorded once.
  (t) => [unique().on(t.wamid, t.status)],
);

export const whatsappReplies = pgTable('whatsapp_replies', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  messageId: text('message_id').notNull().unique(),
  fromE164: text('from_e164').notNull(),
  payload: text('payload'),
  text: text('text'),
  contextWamid: text('context_wamid'),
  receivedAt: tz('received_at').notNull().defaultNow(),
  handled: boolean('handled').notNull().default(false),
});
export type WhatsAppReplyRow = typeof whatsappReplies.$inferSelect;

// Mirrors migrations/0038_whatsapp_optin.sql: a number that replied STOP.
export const whatsappStops = pgTable('whatsapp_stops', {
  toE164: text('to_e164').primaryKey(),
  stoppedAt: tz('stopped_at').notNull().defaultNow(),
});
