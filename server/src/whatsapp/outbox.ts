import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Locale } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { buildWhatsAppBody } from './cloud/templates';
import { whatsappMessages, whatsappStops } from './tables';

/** What the Cloud API adapter answers (server/src/whatsapp/cloud/, part 1 of issue 38). */
export type WhatsAppSendResult = { ok: true; messageId: string } | { ok: false; retry: boolean; status: number; code?: number | string; title: string };
export type WhatsAppApi = { send(body: Record<string, unknown>): Promise<WhatsAppSendResult> };
/** Builds a message's request body (the template catalogue); the outbox stores it as sent. */
export type BodyBuilder = (kind: string, locale: Locale, to: string, input: Record<string, unknown>) => { template: string; body: Record<string, unknown> };

const GMT8_MS = 8 * 3600_000;
/** Messages go only between 07:00 and 22:00 GMT+8. */
export const SEND_FROM_HOUR = 7;
export const SEND_UNTIL_HOUR = 22;

/** WHATSAPP_QUIET_HOURS=off (tests and the e2e stack, as WAITLIST_QUIET_HOURS): messages go at any hour. */
let quietHours = true;
export function useQuietHours(on: boolean): void {
  quietHours = on;
}

/** `now` when it falls within 07:00–22:00 GMT+8, else the next 07:00 GMT+8. */
export function sendAfterFor(now: Date): Date {
  if (!quietHours) return now;
  const local = new Date(now.getTime() + GMT8_MS);
  const hour = local.getUTCHours();
  if (hour >= SEND_FROM_HOUR && hour < SEND_UNTIL_HOUR) return now;
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) + (hour >= SEND_UNTIL_HOUR ? 86_400_000 : 0);
  return new Date(day + SEND_FROM_HOUR * 3600_000 - GMT8_MS);
}

import { toE164 } from './cloud/e164';

export { toE164 };

export type EnqueueWhatsApp = {
  /** Unique per message: `booking:<payment id>:<kind>[:<suffix>]`, `offer:<offer id>:<kind>`; a repeat is ignored. */
  dedupeKey: string;
  kind: string;
  locale: Locale;
  /** The parent's number as typed or stored; sent as E.164. */
  to: string;
  input: Record<string, unknown>;
  paymentId?: string | null;
  waitlistOfferId?: number | null;
  now: Date;
  /**
   * The parent's opt-in: when given and not withdrawn, or `'replying'` for an answer to a message they just sent (the
   * 24 h window; it goes even after STOP, to say it was heard). Anything else writes nothing.
   */
  optIn: { at: Date | null; withdrawnAt: Date | null } | 'replying';
  /** Not sent by then, it never goes (a reminder once its visit began, an offer once it ended). */
  sendBefore?: Date | null;
  build?: BodyBuilder;
};

/**
 * Writes a WhatsApp message in the caller's transaction (the change it tells of), due now or at the next 07:00 GMT+8
 * in quiet hours; a repeat of its dedupe key is ignored. After the commit, `app.whatsapp.wake()` queues its job
 * (the relay each minute queues any row still without one). Resolves with the row's id, or null for a repeat.
 */
/** Why a message to a number that is not a phone number was never sent. */
export const INVALID_NUMBER = 'Not a valid phone number for WhatsApp';
/** Why a message to a number that replied STOP after opting in was never sent. */
export const STOPPED_BY_PARENT = 'The parent replied STOP: no more WhatsApp messages';
/** Why a message that could not leave before its `send_before` never went. */
export const TOO_LATE = 'Not sent in time (the visit began or the offer ended first)';

/** True when the number replied STOP after `since` (an opt-in given after a STOP counts again). */
export async function stoppedSince(tx: DbOrTx, e164: string, since: Date): Promise<boolean> {
  const [row] = await tx
    .select({ at: whatsappStops.stoppedAt })
    .from(whatsappStops)
    .where(and(eq(whatsappStops.toE164, e164), gt(whatsappStops.stoppedAt, since)));
  return row !== undefined;
}

export async function enqueueWhatsApp(tx: DbOrTx, message: EnqueueWhatsApp): Promise<number | null> {
  // Only to a parent who ticked the box and has not withdrawn it (the one place this rule lives).
  const { optIn } = message;
  if (optIn !== 'replying' && (!optIn.at || optIn.withdrawnAt)) return null;
  // A number that cannot be one on WhatsApp is written failed, so staff see why (the email goes all the same).
  const e164 = toE164(message.to);
  const to = e164 ?? message.to;
  const stopped = optIn !== 'replying' && e164 !== null && optIn.at !== null && (await stoppedSince(tx, e164, optIn.at));
  const failure = !e164 ? INVALID_NUMBER : stopped ? STOPPED_BY_PARENT : null;
  const { template, body } = (message.build ?? buildWhatsAppBody)(message.kind, message.locale, to, message.input);
  const [row] = await tx
    .insert(whatsappMessages)
    .values({
      paymentId: message.paymentId ?? null,
      waitlistOfferId: message.waitlistOfferId ?? null,
      kind: message.kind,
      toE164: to,
      locale: message.locale,
      template,
      requestBody: body,
      dedupeKey: message.dedupeKey,
      sendAfter: sendAfterFor(message.now),
      sendBefore: message.sendBefore ?? null,
      ...(failure ? { state: 'failed' as const, errorTitle: failure } : {}),
    })
    .onConflictDoNothing({ target: whatsappMessages.dedupeKey })
    .returning({ id: whatsappMessages.id });
  return row?.id ?? null;
}

/** A message's states in order: a status never moves it back (failed ends it). */
export const STATE_RANK = { queued: 0, sending: 0, sent: 1, delivered: 2, read: 3, failed: 4 } as const;
export const stateRankSql = (column: unknown) =>
  sql`(CASE ${column} WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'failed' THEN 4 ELSE 0 END)`;

/**
 * STOP from a number: no message written before a later opt-in goes to it, and those still waiting are failed now
 * (in the caller's transaction). Resolves with the payments and waitlist offers it had messages for.
 */
export async function stopNumber(tx: DbOrTx, e164: string, at: Date): Promise<{ paymentIds: string[]; waitlistOfferIds: number[] }> {
  await tx
    .insert(whatsappStops)
    .values({ toE164: e164, stoppedAt: at })
    .onConflictDoUpdate({ target: whatsappStops.toE164, set: { stoppedAt: sql`GREATEST(${whatsappStops.stoppedAt}, EXCLUDED.stopped_at)` } });
  await tx
    .update(whatsappMessages)
    .set({ state: 'failed', errorTitle: STOPPED_BY_PARENT, stateAt: at })
    .where(and(eq(whatsappMessages.toE164, e164), eq(whatsappMessages.state, 'queued'), isNull(whatsappMessages.wamid), sql`${whatsappMessages.kind} <> 'reply_text'`));
  const rows = await tx
    .selectDistinct({ paymentId: whatsappMessages.paymentId, offerId: whatsappMessages.waitlistOfferId })
    .from(whatsappMessages)
    .where(eq(whatsappMessages.toE164, e164));
  return {
    paymentIds: rows.flatMap((r) => (r.paymentId ? [r.paymentId] : [])),
    waitlistOfferIds: rows.flatMap((r) => (r.offerId ? [r.offerId] : [])),
  };
}

/** The parent withdrew on the manage page: the booking's messages still waiting are failed now (caller's transaction). */
export async function withdrawPaymentMessages(tx: DbOrTx, paymentId: string, at: Date): Promise<void> {
  await tx
    .update(whatsappMessages)
    .set({ state: 'failed', errorTitle: WITHDRAWN, stateAt: at })
    .where(and(eq(whatsappMessages.paymentId, paymentId), inArray(whatsappMessages.state, ['queued']), isNull(whatsappMessages.wamid)));
}
/** Why a message was not sent after the parent turned WhatsApp off on the manage page. */
export const WITHDRAWN = 'The parent turned WhatsApp messages off';
