import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, dateInMY, waitlistEntryPath, waitlistOfferPath } from 'shared-api/contract';
import { newToken, sha256 } from '../base/crypto';
import type { Db, DbOrTx } from '../base/db/connection';
import { slots } from '../slots/tables';
import { enqueueWaitlistMail, renderWaitlistOffer } from './mails';
import { earliestOfferable, offerWindow, slotFits, type WaitlistRules } from './rules';
import { waitlistEntries, waitlistOffers, type WaitlistEntryRow, type WaitlistOfferRow } from './tables';

/** The transaction-scoped advisory lock every offer pass takes: one pass at a time, on every process. */
export const WAITLIST_PASS_LOCK = 2_600_260;

export type Links = { publicSiteUrl: string; mailFrom: string };

/** What one pass did, and the jobs to queue once it committed. */
export type PassOutcome = {
  offered: WaitlistOfferRow[];
  /** Offers whose mail was written in this pass (made now, or whose quiet hours ended). */
  mailed: WaitlistOfferRow[];
  ended: { offerId: number; outcome: 'booked' | 'expired' | 'cancelled'; createdAt: Date; endedAt: Date }[];
  entriesEnded: number;
};

const rows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** An instant as a SQL parameter (both drivers). */
export const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export const offerUrl = (links: Links, token: string) => `${links.publicSiteUrl}${waitlistOfferPath(token)}`;
export const entryUrl = (links: Links, token: string) => `${links.publicSiteUrl}${waitlistEntryPath(token)}`;
/** The decline link: the offer page, which declines in one click with `?decline=1`. */
export const declineUrl = (links: Links, token: string) => `${offerUrl(links, token)}?decline=1`;

/**
 * Gives back the slot an offer held (only while it is still held by the offer's token and no payment has taken its
 * hold further than the offer's end: that payment's own end releases it, the product's late-payment path).
 */
export async function releaseOfferHold(tx: DbOrTx, offer: Pick<WaitlistOfferRow, 'slotId' | 'holdToken' | 'expiresAt'>, now: Date): Promise<void> {
  await tx.execute(sql`
    UPDATE slots SET hold_token_hash = NULL, hold_expires_at = NULL
    WHERE id = ${offer.slotId} AND status = 'available' AND hold_token_hash = ${sha256(offer.holdToken)}
      AND (hold_expires_at IS NULL OR hold_expires_at <= ${at(offer.expiresAt)} OR hold_expires_at <= ${at(now)})`);
}

/** The offer's mail, written in the caller's transaction, and the offer marked as mailed. */
async function mailOffer(tx: DbOrTx, offer: WaitlistOfferRow, entry: WaitlistEntryRow, token: string | null, links: Links, now: Date): Promise<WaitlistOfferRow> {
  // A quiet-hours offer is mailed when its hours end: its link token is minted then (only its hash is stored).
  const linkToken = token ?? newToken();
  if (!token) await tx.update(waitlistOffers).set({ tokenHash: sha256(linkToken) }).where(eq(waitlistOffers.id, offer.id));
  const [slot] = await tx.select().from(slots).where(eq(slots.id, offer.slotId));
  const mail = renderWaitlistOffer({
    ...entry,
    start: slot.startAt,
    end: slot.endAt,
    expiresAt: offer.expiresAt,
    offerUrl: offerUrl(links, linkToken),
    declineUrl: declineUrl(links, linkToken),
  });
  await enqueueWaitlistMail(tx, 'waitlist_offer', entry.email, mail, `offer-${offer.id}`, links.mailFrom);
  const [marked] = await tx.update(waitlistOffers).set({ mailQueuedAt: now }).where(eq(waitlistOffers.id, offer.id)).returning();
  return marked;
}

/**
 * One offer pass, in one transaction under WAITLIST_PASS_LOCK (so two processes never offer one slot twice, nor
 * two slots to one entry):
 * 1. live offers whose slot got booked end 'booked' (by the offer's own hold: the entry is booked) or 'cancelled';
 * 2. live entries whose email or phone booked a slot of their school since they joined end 'booked' (their offer, if
 *    any, is cancelled and its slot given back);
 * 3. offers past their end end 'expired' (the slot given back, the entry waiting again), entries past their days 'expired';
 * 4. every publicly free slot (not booked, no live hold, after the lead time, its offer able to end by the cut-off)
 *    that fits a waiting entry goes, in slot time order, to the first entry in line that fits and was never offered
 *    it, held for the offer's length with a token of the offer's; the offer mail is written in this transaction
 *    (quiet hours: when they end, by a later pass);
 * 5. quiet-hours offers whose start has come get their mail.
 */
export async function runOfferPass(db: Db, rules: WaitlistRules, links: Links): Promise<PassOutcome> {
  const now = rules.now();
  const { settings } = rules;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${WAITLIST_PASS_LOCK})`);
    const outcome: PassOutcome = { offered: [], mailed: [], ended: [], entriesEnded: 0 };

    // 1. Live offers whose slot is booked (or gone).
    const settled = rows<{ id: number; entry_id: number; created_at: string | Date; by_offer: boolean; gone: boolean }>(
      await tx.execute(sql`
        SELECT o.id, o.entry_id, o.created_at, s.deleted_at IS NOT NULL AS gone,
               EXISTS (SELECT 1 FROM payments p WHERE p.slot_id = o.slot_id AND p.hold_token = o.hold_token
                       AND p.status = 'completed' AND p.reference = s.booking_reference) AS by_offer
        FROM waitlist_offers o JOIN slots s ON s.id = o.slot_id
        WHERE o.outcome IS NULL AND (s.status = 'booked' OR s.deleted_at IS NOT NULL)
        ORDER BY o.id FOR UPDATE OF o`),
    );
    for (const o of settled) {
      const result = o.by_offer ? 'booked' : 'cancelled';
      await tx.update(waitlistOffers).set({ outcome: result, endedAt: now }).where(eq(waitlistOffers.id, o.id));
      await tx
        .update(waitlistEntries)
        .set(o.by_offer ? { state: 'booked', endedAt: now } : { state: 'waiting' })
        .where(and(eq(waitlistEntries.id, o.entry_id), eq(waitlistEntries.state, 'offered')));
      outcome.ended.push({ offerId: o.id, outcome: result, createdAt: new Date(o.created_at), endedAt: now });
    }

    // 2. Entries whose parent booked normally (same email or phone, same school, after joining).
    const bookedNormally = rows<{ id: number }>(
      await tx.execute(sql`
        UPDATE waitlist_entries e SET state = 'booked', ended_at = ${at(now)}
        WHERE e.state IN ('waiting', 'offered') AND EXISTS (
          SELECT 1 FROM slots s WHERE s.status = 'booked' AND s.deleted_at IS NULL AND s.selected_school = e.school
            AND s.booked_at >= e.joined_at AND (lower(s.visitor_email) = e.email OR regexp_replace(s.visitor_contact_no, '[^0-9+]', '', 'g') = e.phone))
        RETURNING e.id`),
    );
    outcome.entriesEnded += bookedNormally.length;
    if (bookedNormally.length > 0) {
      const cancelled = await tx
        .update(waitlistOffers)
        .set({ outcome: 'cancelled', endedAt: now })
        .where(and(isNull(waitlistOffers.outcome), inArray(waitlistOffers.entryId, bookedNormally.map((e) => e.id))))
        .returning();
      for (const o of cancelled) {
        await releaseOfferHold(tx, o, now);
        outcome.ended.push({ offerId: o.id, outcome: 'cancelled', createdAt: o.createdAt, endedAt: now });
      }
    }

    // 3. Offers past their end, and entries past their days.
    const expired = await tx
      .update(waitlistOffers)
      .set({ outcome: 'expired', endedAt: now })
      .where(and(isNull(waitlistOffers.outcome), lte(waitlistOffers.expiresAt, now)))
      .returning();
    for (const o of expired) {
      await releaseOfferHold(tx, o, now);
      await tx.update(waitlistEntries).set({ state: 'waiting' }).where(and(eq(waitlistEntries.id, o.entryId), eq(waitlistEntries.state, 'offered')));
      outcome.ended.push({ offerId: o.id, outcome: 'expired', createdAt: o.createdAt, endedAt: now });
    }
    const pastDays = await tx
      .update(waitlistEntries)
      .set({ state: 'expired', endedAt: now })
      .where(and(eq(waitlistEntries.state, 'waiting'), sql`${waitlistEntries.toDate} < ${dateInMY(now)}::date`))
      .returning({ id: waitlistEntries.id });
    outcome.entriesEnded += pastDays.length;

    // 4. Free slots that fit a waiting entry, in time order, each to the first entry in line that fits.
    const waiting = await tx.select().from(waitlistEntries).where(eq(waitlistEntries.state, 'waiting')).orderBy(asc(waitlistEntries.position));
    if (waiting.length > 0) {
      const earliest = new Date(Math.max(earliestOfferable(now, settings).getTime(), now.getTime() + BOOKING_LEAD_HOURS * 3_600_000));
      const lastDay = waiting.reduce((max, e) => (e.toDate > max ? e.toDate : max), waiting[0].toDate);
      // Locked, skipping any a reserve or booking holds locked right now (it wins that slot; it was not free).
      const free = rows<{ id: number; start_at: string | Date }>(
        await tx.execute(sql`
          SELECT id, start_at FROM slots
          WHERE deleted_at IS NULL AND status = 'available' AND (hold_expires_at IS NULL OR hold_expires_at <= ${at(now)})
            AND NOT EXISTS (SELECT 1 FROM waitlist_offers o WHERE o.slot_id = slots.id AND o.outcome IS NULL)
            AND start_at >= ${at(earliest)} AND start_at < ${at(new Date(`${lastDay}T16:00:00Z`))}
          ORDER BY start_at, id
          FOR UPDATE SKIP LOCKED`),
      );
      if (free.length > 0) {
        const pairs = await tx
          .select({ entryId: waitlistOffers.entryId, slotId: waitlistOffers.slotId })
          .from(waitlistOffers)
          .where(inArray(waitlistOffers.entryId, waiting.map((e) => e.id)));
        const offeredBefore = new Set(pairs.map((p) => `${p.entryId}:${p.slotId}`));
        const taken = new Set<number>();
        for (const slot of free) {
          const start = new Date(slot.start_at);
          const window = offerWindow(now, start, settings);
          if (!window) continue;
          const entry = waiting.find((e) => !taken.has(e.id) && !offeredBefore.has(`${e.id}:${slot.id}`) && slotFits(start, e));
          if (!entry) continue;
          const holdToken = newToken();
          const held = await tx
            .update(slots)
            .set({ holdTokenHash: sha256(holdToken), holdExpiresAt: window.expiresAt, holdClient: null, holdEmail: null, holdPhone: null })
            .where(and(eq(slots.id, slot.id), eq(slots.status, 'available'), isNull(slots.deletedAt)))
            .returning({ id: slots.id });
          if (held.length === 0) continue;
          const linkToken = window.startsAt <= now ? newToken() : null;
          const [offer] = await tx
            .insert(waitlistOffers)
            .values({
              entryId: entry.id,
              slotId: slot.id,
              // Until the quiet hours end, a hash of an unknown secret: no link opens it.
              tokenHash: sha256(linkToken ?? newToken()),
              holdToken,
              createdAt: now,
              startsAt: window.startsAt,
              expiresAt: window.expiresAt,
            })
            .returning();
          await tx.update(waitlistEntries).set({ state: 'offered' }).where(eq(waitlistEntries.id, entry.id));
          taken.add(entry.id);
          outcome.offered.push(offer);
          if (linkToken) outcome.mailed.push(await mailOffer(tx, offer, entry, linkToken, links, now));
        }
      }
    }

    // 5. Quiet-hours offers whose start has come.
    const due = await tx
      .select({ offer: waitlistOffers, entry: waitlistEntries })
      .from(waitlistOffers)
      .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
      .where(and(isNull(waitlistOffers.outcome), isNull(waitlistOffers.mailQueuedAt), lte(waitlistOffers.startsAt, now)))
      .orderBy(asc(waitlistOffers.id));
    for (const { offer, entry } of due) outcome.mailed.push(await mailOffer(tx, offer, entry, null, links, now));
    return outcome;
  });
}
