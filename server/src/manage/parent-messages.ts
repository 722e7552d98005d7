// What staff see of a booking's messages to the parent and of the parent's answer (issue 38): each email and WhatsApp
// message with its state and why it failed, "Confirmed by parent", the WhatsApp choice. Never a message's body.
import { sql } from 'drizzle-orm';
import type {
  ParentMessage,
  ParentMessageKind,
  ParentMessageState,
  WhatsAppChoice,
} from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { MAYBE_DELIVERED_NOTE } from '../mail';

/** A parent's mail kinds and what each was in staff's words (the admin's copies and staff mails are not the parent's). */
const MAIL_KIND_WORDS: Record<string, ParentMessageKind> = {
  visitor_confirmation: 'confirmation',
  visitor_reminder: 'reminder',
  visitor_rescheduled: 'move',
  visitor_cancelled: 'cancel',
  visitor_refund: 'refund',
  waitlist_offer: 'waitlist_offer',
};

/** A WhatsApp kind in staff's words: the catalogue's kinds by name, a later kind by what its name says. */
export function whatsappKindWords(kind: string): ParentMessageKind {
  if (kind === 'reply_text') return 'reply';
  if (kind.includes('waitlist') || kind.includes('offer')) return 'waitlist_offer';
  if (kind.includes('confirmation')) return 'confirmation';
  if (kind.includes('reminder')) return 'reminder';
  if (kind.includes('cancel')) return 'cancel';
  if (kind.includes('refund')) return 'refund';
  if (kind.includes('resched') || kind.includes('move')) return 'move';
  return 'other';
}

/** The cut a raw error is shown at, after its plain words. */
const DETAIL_CHARS = 160;

/** A mail's last error in plain words, the server's own answer after them (cut short) for whoever digs further. */
export function mailErrorInWords(lastError: string): string {
  const maybe = lastError.startsWith(MAYBE_DELIVERED_NOTE);
  const raw = (maybe ? lastError.slice(MAYBE_DELIVERED_NOTE.length) : lastError).trim();
  const detail = raw.length > DETAIL_CHARS ? `${raw.slice(0, DETAIL_CHARS - 1)}…` : raw;
  const words = maybe
    ? 'The connection dropped after the mail was handed over; it may have arrived'
    : /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|timeout|timed out|greeting/i.test(
          raw,
        )
      ? 'The mail server could not be reached'
      : /\b5\.1\.[0-9]\b|user unknown|no such user|does not exist|unknown recipient|mailbox unavailable|recipient.*rejected/i.test(
            raw,
          )
        ? "The parent's email address was refused: it may be mistyped or closed"
        : /\b552\b|\b5\.2\.2\b|mailbox full|over quota/i.test(raw)
          ? "The parent's mailbox is full"
          : /^4\d\d\b|\b4\.\d\.\d\b/.test(raw)
            ? 'The mail server asked to try again later'
            : /^5\d\d\b|\b5\.\d\.\d\b/.test(raw)
              ? 'The mail server refused the message'
              : 'The mail could not be sent';
  return detail ? `${words} (${detail})` : words;
}

type MessageRow = {
  channel: 'email' | 'whatsapp';
  kind: string;
  state: string;
  at: string | Date;
  error_code: string | null;
  error: string | null;
};

const iso = (value: string | Date) => new Date(value).toISOString();

/** A row of either outbox as staff see it. */
function messageOf(row: MessageRow): ParentMessage {
  if (row.channel === 'email') {
    const state: ParentMessageState =
      row.state === 'sent' ? 'sent' : row.state === 'failed' ? 'failed' : 'queued';
    // A mail still retried keeps its last error: staff see why it has not gone yet.
    return {
      channel: 'email',
      kind: MAIL_KIND_WORDS[row.kind] ?? 'other',
      state,
      at: iso(row.at),
      reason: row.error && state !== 'sent' ? mailErrorInWords(row.error) : null,
    };
  }
  const state: ParentMessageState = row.state === 'sending' ? 'queued' : (row.state as ParentMessageState);
  const why = [row.error_code, row.error].filter(Boolean).join(' ');
  return {
    channel: 'whatsapp',
    kind: whatsappKindWords(row.kind),
    state,
    at: iso(row.at),
    reason: why && (state === 'failed' || state === 'queued') ? why : null,
  };
}

/** Which booking's messages: a paid one by its payment (and the waitlist offer it was paid from), an unpaid one by its reference. */
export type MessagesOf = { paymentId: string | null; reference: string; holdToken?: string | null };

/**
 * Every message to the parent about a booking on either channel, newest first: the payment's own, the waitlist offer
 * it was paid from (the offer's hold token became the payment's), and an unpaid booking's mails by the reference their
 * Message-ID carries.
 */
export async function parentMessages(db: DbOrTx, of: MessagesOf): Promise<ParentMessage[]> {
  const mailKinds = Object.keys(MAIL_KIND_WORDS);
  const offers = of.holdToken
    ? sql`SELECT id FROM waitlist_offers WHERE hold_token = ${of.holdToken}`
    : sql`SELECT NULL::int AS id WHERE false`;
  const ownMail = of.paymentId
    ? sql`m.payment_id = ${of.paymentId}`
    : sql`(m.payment_id IS NULL AND m.message_id LIKE ${`<${likeEscape(of.reference)}.%`})`;
  const result = await db.execute(sql`
    WITH offers AS (${offers})
    SELECT 'email' AS channel, m.kind, m.status AS state, coalesce(m.sent_at, m.created_at) AS at, NULL AS error_code, m.last_error AS error, m.id
    FROM mail_outbox m
    WHERE m.kind IN (${sql.join(
      mailKinds.map((k) => sql`${k}`),
      sql`, `,
    )})
      AND (${ownMail} OR (m.kind = 'waitlist_offer' AND EXISTS (SELECT 1 FROM offers o WHERE m.message_id LIKE '<WL-offer-' || o.id || '.%')))
    UNION ALL
    SELECT 'whatsapp', w.kind, w.state, coalesce(w.state_at, w.sent_at, w.created_at), w.error_code, w.error_title, w.id
    FROM whatsapp_messages w
    WHERE ${of.paymentId ? sql`w.payment_id = ${of.paymentId}` : sql`false`} OR w.waitlist_offer_id IN (SELECT id FROM offers)
    ORDER BY at DESC, channel, id DESC`);
  return (result as unknown as { rows: MessageRow[] }).rows.map(messageOf);
}

/** `%`, `_` and `\` in a reference matched literally by LIKE. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The parent's WhatsApp choice on a payment: withdrawn when the last word was a withdrawal. */
export function whatsappChoiceOf(
  p: { whatsappOptInAt: Date | null; whatsappOptOutAt: Date | null } | null,
): WhatsAppChoice {
  if (p?.whatsappOptOutAt && (!p.whatsappOptInAt || p.whatsappOptOutAt >= p.whatsappOptInAt))
    return { state: 'withdrawn', at: p.whatsappOptOutAt.toISOString() };
  if (p?.whatsappOptInAt) return { state: 'opted_in', at: p.whatsappOptInAt.toISOString() };
  return { state: 'not_asked', at: null };
}
