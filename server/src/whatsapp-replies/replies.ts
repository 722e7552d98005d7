import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { LOCALES, type Locale } from 'shared-api/contract';
import type { Db, DbOrTx } from '../base/db/connection';
import { manageUrl, mintManageToken } from '../bookings';
import { payments } from '../payments';
import { waitlistEntries } from '../waitlist';
import { enqueueWhatsApp, REPLY_PAYLOADS, replyText, stopNumber, whatsappMessages, type ReplyAnswer, type WhatsAppMessageRow, type WhatsAppReplyRow } from '../whatsapp';

/** Texts that mean "no more messages" in the product's languages (and the platform's usual words). */
const STOP_WORDS = new Set(['STOP', 'UNSUBSCRIBE', 'BERHENTI', '停止', '退订']);

export type ReplyDeps = {
  db: Db;
  publicSiteUrl: string;
  /** The waitlist's "let it pass" by offer id (the waitlist owns its offers). */
  passOffer: (offerId: number) => Promise<'passed' | 'ended'>;
  now?: () => Date;
};

const localeOf = (row: WhatsAppMessageRow | undefined): Locale => (row && (LOCALES as readonly string[]).includes(row.locale) ? (row.locale as Locale) : 'en');

/**
 * What a parent's reply does (issue 38; docs/SECURITY.md). A reply proves only who holds the phone, so it acts only
 * on a message sent to that same number, and moves no money and no booking: "Confirm I'm coming" records it, "Change
 * time" and "Cancel" answer with the manage link, "Let it pass" passes a waitlist offer on (as the offer's own link
 * would), STOP ends every later WhatsApp message to the number. Each reply is handled once (the webhook stores it by
 * its message id); the answer is a text in the 24 h window the reply opened.
 */
export async function handleReply(deps: ReplyDeps, reply: WhatsAppReplyRow): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const context = reply.contextWamid
    ? (await deps.db.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, reply.contextWamid)))[0]
    : undefined;
  // Someone else's message quoted from another phone is not theirs to act on.
  const own = context && context.toE164 === reply.fromE164 ? context : undefined;
  const [latest] = await deps.db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.toE164, reply.fromE164), isNotNull(whatsappMessages.wamid), sql`${whatsappMessages.kind} <> 'reply_text'`))
    .orderBy(desc(whatsappMessages.id))
    .limit(1);
  const about = own ?? latest;
  const locale = localeOf(about);
  const payload = reply.payload?.trim().toUpperCase() ?? null;
  const text = reply.text?.trim().toUpperCase() ?? '';

  const answer = (tx: DbOrTx, which: ReplyAnswer, paymentId: string | null, link?: string) =>
    enqueueWhatsApp(tx, {
      dedupeKey: `reply:${reply.messageId}`,
      kind: 'reply_text',
      locale,
      to: reply.fromE164,
      input: { text: replyText(locale, which, { manageUrl: link }) },
      paymentId,
      waitlistOfferId: about?.waitlistOfferId ?? null,
      now,
      optIn: 'replying',
    });
  const stillThere = async (id: string | null | undefined) =>
    id ? ((await deps.db.select({ id: payments.id }).from(payments).where(eq(payments.id, id)))[0]?.id ?? null) : null;
  const linkFor = async (tx: DbOrTx, paymentId: string) => manageUrl(deps.publicSiteUrl, await mintManageToken(tx, paymentId, 'mail'));

  if (STOP_WORDS.has(text) || payload === 'STOP') {
    await deps.db.transaction(async (tx) => {
      const { paymentIds, waitlistOfferIds } = await stopNumber(tx, reply.fromE164, now);
      if (paymentIds.length > 0)
        await tx
          .update(payments)
          .set({ whatsappOptOutAt: now })
          .where(and(inArray(payments.id, paymentIds), isNotNull(payments.whatsappOptInAt), isNull(payments.whatsappOptOutAt)));
      if (waitlistOfferIds.length > 0)
        await tx
          .update(waitlistEntries)
          .set({ whatsappOptOutAt: now })
          .where(
            and(
              sql`${waitlistEntries.id} IN (SELECT entry_id FROM waitlist_offers WHERE id IN (${sql.join(waitlistOfferIds.map((id) => sql`${id}`), sql`, `)}))`,
              isNotNull(waitlistEntries.whatsappOptInAt),
              isNull(waitlistEntries.whatsappOptOutAt),
            ),
          );
      await answer(tx, 'stopped', about?.paymentId ?? null);
    });
    return;
  }

  if (payload === REPLY_PAYLOADS.pass && own?.waitlistOfferId) {
    // An offer already over is passed on by nothing: no answer then (the offer's own mail says how it ended).
    if ((await deps.passOffer(own.waitlistOfferId)) === 'passed') await deps.db.transaction((tx) => answer(tx, 'passed', null));
    return;
  }

  // The booking the quoted message was about, if it is still there (a message row outlives nothing it names).
  const paymentId = await stillThere(own?.paymentId);
  if (payload === REPLY_PAYLOADS.confirm && paymentId) {
    await deps.db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set({ confirmedByParentAt: now })
        .where(and(eq(payments.id, paymentId), eq(payments.bookingStatus, 'booked'), isNull(payments.confirmedByParentAt)));
      const [booking] = await tx.select({ status: payments.bookingStatus }).from(payments).where(eq(payments.id, paymentId));
      await answer(tx, booking?.status === 'booked' ? 'confirmed' : 'unknown', paymentId, booking?.status === 'booked' ? undefined : await linkFor(tx, paymentId));
    });
    return;
  }
  if ((payload === REPLY_PAYLOADS.change || payload === REPLY_PAYLOADS.cancel) && paymentId) {
    // Never acted on here: the manage page is where a time changes or money moves.
    await deps.db.transaction(async (tx) => answer(tx, payload === REPLY_PAYLOADS.change ? 'change' : 'cancel', paymentId, await linkFor(tx, paymentId)));
    return;
  }
  // Anything else: the booking's link when the number has one, else no answer (nothing to point to).
  const fallback = await stillThere(about?.paymentId);
  if (fallback) await deps.db.transaction(async (tx) => answer(tx, 'unknown', fallback, await linkFor(tx, fallback)));
}
