import { sql } from 'drizzle-orm';
import type { Locale } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { whatsappMessages } from './tables';

/** What the Cloud API adapter answers (server/src/whatsapp/cloud/, part 1 of issue 38). */
export type WhatsAppSendResult = { ok: true; messageId: string } | { ok: false; retry: boolean; status: number; code?: number | string; title: string };
export type WhatsAppApi = { send(body: Record<string, unknown>): Promise<WhatsAppSendResult> };
/** Builds a message's request body (the template catalogue); the outbox stores it as sent. */
export type BodyBuilder = (kind: string, locale: Locale, to: string, input: Record<string, unknown>) => { template: string; body: Record<string, unknown> };

const GMT8_MS = 8 * 3600_000;
/** Messages go only between 07:00 and 22:00 GMT+8. */
export const SEND_FROM_HOUR = 7;
export const SEND_UNTIL_HOUR = 22;

/** `now` when it falls within 07:00–22:00 GMT+8, else the next 07:00 GMT+8. */
export function sendAfterFor(now: Date): Date {
  const local = new Date(now.getTime() + GMT8_MS);
  const hour = local.getUTCHours();
  if (hour >= SEND_FROM_HOUR && hour < SEND_UNTIL_HOUR) return now;
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) + (hour >= SEND_UNTIL_HOUR ? 86_400_000 : 0);
  return new Date(day + SEND_FROM_HOUR * 3600_000 - GMT8_MS);
}

import { toE164 } from './cloud/e164';

export { toE164 };

/** Until part 1's catalogue is wired: a template named `<kind>` with the input's values as body parameters, in order. */
export const plainTemplateBody: BodyBuilder = (kind, locale, to, input) => ({
  template: kind,
  body: {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: to.replace(/^\+/, ''),
    type: 'template',
    template: {
      name: kind,
      language: { code: locale === 'zh' ? 'zh_CN' : locale },
      components: [{ type: 'body', parameters: Object.values(input).map((v) => ({ type: 'text', text: String(v) })) }],
    },
  },
});

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
  build?: BodyBuilder;
};

/**
 * Writes a WhatsApp message in the caller's transaction (the change it tells of), due now or at the next 07:00 GMT+8
 * in quiet hours; a repeat of its dedupe key is ignored. After the commit, `app.whatsapp.wake()` queues its job
 * (the relay each minute queues any row still without one). Resolves with the row's id, or null for a repeat.
 */
/** Why a message to a number that is not a phone number was never sent. */
export const INVALID_NUMBER = 'Not a valid phone number for WhatsApp';

export async function enqueueWhatsApp(tx: DbOrTx, message: EnqueueWhatsApp): Promise<number | null> {
  // A number that cannot be one on WhatsApp is written failed, so staff see why (the email goes all the same).
  const e164 = toE164(message.to);
  const to = e164 ?? message.to;
  const { template, body } = (message.build ?? plainTemplateBody)(message.kind, message.locale, to, message.input);
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
      ...(e164 ? {} : { state: 'failed' as const, errorTitle: INVALID_NUMBER }),
    })
    .onConflictDoNothing({ target: whatsappMessages.dedupeKey })
    .returning({ id: whatsappMessages.id });
  return row?.id ?? null;
}

/** A message's states in order: a status never moves it back (failed ends it). */
export const STATE_RANK = { queued: 0, sending: 0, sent: 1, delivered: 2, read: 3, failed: 4 } as const;
export const stateRankSql = (column: unknown) =>
  sql`(CASE ${column} WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'failed' THEN 4 ELSE 0 END)`;
