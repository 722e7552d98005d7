import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { BOOKING_LEAD_HOURS, dateInMY, WAITLIST_CONFIRM_HOURS, waitlistEntryPath, waitlistOfferPath } from 'shared-api/contract';
import { newToken, sha256 } from '../base/crypto';
import type { Db, DbOrTx } from '../base/db/connection';
import { hasPrice, priceOf, type Checkout } from '../checkout';
import { freeSeatsAt, slots } from '../slots';
import { enqueueOfferWhatsApp } from '../whatsapp';
import { enqueueWaitlistMail, renderWaitlistEntryEnded, renderWaitlistOffer, WAITLIST_ENTRY_ENDED_KIND } from './mails';
import { earliestOfferable, inQuietHours, offerWindow, REOFFER_AFTER_MS, slotFits, termStartedBy, type WaitlistRules } from './rules';
import { waitlistEntries, waitlistOffers, type WaitlistEntryRow, type WaitlistOfferRow } from './tables';

/** The transaction-scoped advisory lock every offer pass takes: one pass at a time, on every process. */
export const WAITLIST_PASS_LOCK = 2_600_260;

export type Links = { publicSiteUrl: string; mailFrom: string };

/** What one pass did, and the jobs to queue once it committed. */
export type PassOutcome = {
  offered: WaitlistOfferRow[];
  /** Offers whose mail was written in this pass. */
  mailed: WaitlistOfferRow[];
  ended: { offerId: number; outcome: 'booked' | 'expired' | 'cancelled'; createdAt: Date; endedAt: Date }[];
  entriesEnded: number;
  /** Entries whose term ended in this pass (each parent's mail written with it). */
  termEnded: WaitlistEntryRow[];
};

const rows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** An instant as a SQL parameter (both drivers). */
export const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export const offerUrl = (links: Links, token: string) => `${links.publicSiteUrl}${waitlistOfferPath(token)}`;
export const entryUrl = (links: Links, token: string) => `${links.publicSiteUrl}${waitlistEntryPath(token)}`;
/** The decline link: the offer page, which with `?decline=1` asks "let the slot pass?" first (a press declines). */
export const declineUrl = (links: Links, token: string) => `${offerUrl(links, token)}?decline=1`;

/**
 * An entry whose offer ended without a booking (expired or declined) waits again at the back of the line, and is
 * offered nothing before a day has passed: one parent cannot keep a slot for themselves by letting offers lapse.
 */
export async function backOfLine(tx: DbOrTx, entryId: number, now: Date): Promise<void> {
  await tx.execute(sql`
    UPDATE waitlist_entries SET state = 'waiting', position = nextval(pg_get_serial_sequence('waitlist_entries', 'position')),
      offerable_after = ${at(new Date(now.getTime() + REOFFER_AFTER_MS))}
    WHERE id = ${entryId} AND state = 'offered'`);
}

/** The offer's mail, written in the caller's transaction, and the offer marked as mailed. */
async function mailOffer(tx: DbOrTx, offer: WaitlistOfferRow, entry: WaitlistEntryRow, token: string | null, links: Links, now: Date): Promise<WaitlistOfferRow> {
  // An offer made before offers waited for quiet hours to end is mailed by a later pass: its link token is minted then.
  const linkToken = token ?? newToken();
  if (!token) await tx.update(waitlistOffers).set({ tokenHash: sha256(linkToken) }).where(eq(waitlistOffers.id, offer.id));
  const [slot] = await tx.select().from(slots).where(eq(slots.id, offer.slotId));
  const mail = renderWaitlistOffer({
    ...entry,
    start: slot.startAt,
    end: slot.endAt,
    expiresAt: offer.expiresAt,
    feeSen: priceOf(entry.school),
    offerUrl: offerUrl(links, linkToken),
    declineUrl: declineUrl(links, linkToken),
  });
  await enqueueWaitlistMail(tx, 'waitlist_offer', entry.email, mail, `offer-${offer.id}`, links.mailFrom);
  // On WhatsApp too when the parent opted in (issue 38): offers are made only outside the quiet hours, so it leaves
  // with the mail and the hold runs from then; one not sent before the offer ends never goes.
  await enqueueOfferWhatsApp(tx, { ...entry, offerId: offer.id, start: slot.startAt, expiresAt: offer.expiresAt, offerUrl: offerUrl(links, linkToken), now });
  const [marked] = await tx.update(waitlistOffers).set({ mailQueuedAt: now }).where(eq(waitlistOffers.id, offer.id)).returning();
  return marked;
}

/** Records that the pass has looked at this freeing of the slot (offered, or nobody fitting: public from now on). */
const markChecked = (tx: DbOrTx, slotId: number, freedSeq: number) =>
  tx.execute(sql`
    INSERT INTO waitlist_slot_checks (slot_id, freed_seq) VALUES (${slotId}, ${freedSeq})
    ON CONFLICT (slot_id) DO UPDATE SET freed_seq = GREATEST(waitlist_slot_checks.freed_seq, EXCLUDED.freed_seq)`);

/** An entry's holder for the checkout: its person, and the network that made it (an entry made before that was kept: its own). */
const personOf = (checkout: Checkout, entry: WaitlistEntryRow) => ({
  client: entry.client ?? `entry-${entry.id}`,
  ...checkout.limits.person(entry.email, entry.phone),
});

/**
 * One offer pass, in one transaction under WAITLIST_PASS_LOCK (so two processes never offer one slot twice, nor
 * two slots to one entry):
 * 0. holds that ran out are cleared through the checkout, so their freeing is numbered like any other;
 * 1. live offers whose slot got booked end 'booked' (by the offer's own hold: the entry is booked) or 'cancelled';
 * 2. live entries whose email booked a slot of their school since they joined end 'booked' (their offer, if any, is
 *    cancelled and its slot given back);
 * 3. offers past their end end 'expired' (the slot given back, the entry waiting again at the back of the line),
 *    entries past their days or their term end 'expired' (the term's end mailed to the parent);
 * 4. outside quiet hours, every slot freed since the pass last looked at it (added by staff, a hold released or run
 *    out, a booking cancelled or moved, an offer ended) that is still free goes, in slot time order, to the first entry
 *    in line that fits it, began waiting before it was freed, may be offered again, was never offered it, and may hold
 *    it (the checkout charges the hold to the entry's person and network, within the same limits as any hold); the
 *    offer mail is written in this transaction. A slot nobody took is public from then on: the list looks again only
 *    when it is freed again. In quiet hours no offer is made: freed slots are anyone's until they end.
 */
export async function runOfferPass(db: Db, checkout: Checkout, rules: WaitlistRules, links: Links): Promise<PassOutcome> {
  const now = rules.now();
  const { settings } = rules;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${WAITLIST_PASS_LOCK})`);
    const outcome: PassOutcome = { offered: [], mailed: [], ended: [], entriesEnded: 0, termEnded: [] };

    // 0. Holds that ran out (the database's clock).
    await checkout.clearLapsedHolds(tx);

    // 1. Live offers whose slot is booked (or gone).
    // 0b. Entries a booking ended whose booking was cancelled within the entry's term come back at their old place.
    await reviveCancelled(tx, now, settings.termDays);

    const settled = rows<{ id: number; entry_id: number; created_at: string | Date; by_offer: boolean; gone: boolean; reference: string | null }>(
      await tx.execute(sql`
        SELECT o.id, o.entry_id, o.created_at, s.deleted_at IS NOT NULL AS gone, s.booking_reference AS reference,
               EXISTS (SELECT 1 FROM payments p WHERE p.slot_id = o.slot_id AND p.hold_token = o.hold_token
                       AND p.status = 'completed' AND p.reference = s.booking_reference) AS by_offer
        FROM waitlist_offers o JOIN slots s ON s.id = o.slot_id
        WHERE o.outcome IS NULL AND (s.status = 'booked' OR s.deleted_at IS NOT NULL)
        ORDER BY o.id FOR UPDATE OF o`),
    );
    for (const o of settled) {
      const result = o.by_offer ? 'booked' : 'cancelled';
      await tx.update(waitlistOffers).set({ outcome: result, endedAt: now }).where(eq(waitlistOffers.id, o.id));
      // Not the parent's doing when it went another way: they keep their place.
      await tx
        .update(waitlistEntries)
        .set(o.by_offer ? { state: 'booked', endedAt: now, endedByReference: o.reference } : { state: 'waiting' })
        .where(and(eq(waitlistEntries.id, o.entry_id), eq(waitlistEntries.state, 'offered')));
      outcome.ended.push({ offerId: o.id, outcome: result, createdAt: new Date(o.created_at), endedAt: now });
    }

    // 2. Entries whose parent booked normally (the entry's email, same school, after joining).
    const bookedNormally = rows<{ id: number }>(
      await tx.execute(sql`
        UPDATE waitlist_entries e SET state = 'booked', ended_at = ${at(now)}, ended_by_reference = (
          SELECT s.booking_reference FROM slots s WHERE s.status = 'booked' AND s.deleted_at IS NULL AND s.selected_school = e.school
            AND s.booked_at >= e.joined_at AND lower(s.visitor_email) = e.email ORDER BY s.booked_at LIMIT 1)
        WHERE e.state IN ('waiting', 'offered') AND EXISTS (
          SELECT 1 FROM slots s WHERE s.status = 'booked' AND s.deleted_at IS NULL AND s.selected_school = e.school
            AND s.booked_at >= e.joined_at AND lower(s.visitor_email) = e.email)
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
        await checkout.releaseOffer(tx, o, now);
        outcome.ended.push({ offerId: o.id, outcome: 'cancelled', createdAt: o.createdAt, endedAt: now });
      }
    }

    // 3. Offers past their end, and entries past their days or their term.
    const expired = await tx
      .update(waitlistOffers)
      .set({ outcome: 'expired', endedAt: now })
      .where(and(isNull(waitlistOffers.outcome), lte(waitlistOffers.expiresAt, now)))
      .returning();
    for (const o of expired) {
      await checkout.releaseOffer(tx, o, now);
      await backOfLine(tx, o.entryId, now);
      outcome.ended.push({ offerId: o.id, outcome: 'expired', createdAt: o.createdAt, endedAt: now });
    }
    const pastDays = await tx
      .update(waitlistEntries)
      .set({ state: 'expired', endedAt: now })
      .where(and(eq(waitlistEntries.state, 'waiting'), sql`${waitlistEntries.toDate} < ${dateInMY(now)}::date`))
      .returning({ id: waitlistEntries.id });
    outcome.entriesEnded += pastDays.length;
    // Requests nobody confirmed within a day (the database's clock, as they were made) end: they never waited, nothing to mail.
    await tx
      .update(waitlistEntries)
      .set({ state: 'unconfirmed', endedAt: now })
      .where(and(eq(waitlistEntries.state, 'pending'), sql`${waitlistEntries.joinedAt} <= now() - make_interval(hours => ${WAITLIST_CONFIRM_HOURS})`));
    outcome.termEnded = await tx
      .update(waitlistEntries)
      .set({ state: 'expired', endedAt: now })
      .where(and(eq(waitlistEntries.state, 'waiting'), lte(waitlistEntries.joinedAt, termStartedBy(now, settings))))
      .returning();
    outcome.entriesEnded += outcome.termEnded.length;
    for (const entry of outcome.termEnded) {
      const mail = renderWaitlistEntryEnded({ ...entry, termDays: settings.termDays, bookingSiteUrl: `${links.publicSiteUrl}/` });
      await enqueueWaitlistMail(tx, WAITLIST_ENTRY_ENDED_KIND, entry.email, mail, `ended-${entry.id}`, links.mailFrom);
    }

    // 4. Slots freed since the list last looked, each to the first entry in line that fits and may hold it.
    if (!inQuietHours(now, settings)) await offerFreedSlots(tx, checkout, rules, links, now, outcome);

    // Offers made before offers waited for quiet hours to end, whose start has come, get their mail.
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

/**
 * Step 0b: an entry that ended 'booked' through a booking (its own offer, or its confirmed email booking the school)
 * waits again at its old place when that booking was cancelled before the entry's term ran out, its days have not all
 * passed, and no other live entry of its email or phone is on the school's list now.
 */
async function reviveCancelled(tx: DbOrTx, now: Date, termDays: number): Promise<void> {
  await tx.execute(sql`
    UPDATE waitlist_entries e SET state = 'waiting', ended_at = NULL, ended_by_reference = NULL
    WHERE e.state = 'booked' AND e.ended_by_reference IS NOT NULL
      AND e.joined_at > ${at(new Date(now.getTime() - termDays * 86_400_000))} AND e.to_date >= ${dateInMY(now)}::date
      AND EXISTS (SELECT 1 FROM payments p WHERE p.reference = e.ended_by_reference AND p.booking_status = 'cancelled'
                  AND p.cancelled_at < e.joined_at + make_interval(days => ${termDays}))
      AND NOT EXISTS (SELECT 1 FROM waitlist_entries o WHERE o.school = e.school AND o.id <> e.id
                      AND o.state IN ('waiting', 'offered') AND (o.email = e.email OR o.phone = e.phone))`);
}

/** Step 4 of the pass (see runOfferPass). */
async function offerFreedSlots(tx: DbOrTx, checkout: Checkout, rules: WaitlistRules, links: Links, now: Date, outcome: PassOutcome): Promise<void> {
  const { settings } = rules;
  // Free, not offered, freed since the list last looked; locked, skipping any a reserve or booking holds locked right
  // now (it wins that slot: it was not free).
  const freed = rows<{ id: number; start_at: string | Date; freed_seq: string | number }>(
    await tx.execute(sql`
      SELECT s.id, s.start_at, s.freed_seq FROM slots s LEFT JOIN waitlist_slot_checks c ON c.slot_id = s.id
      WHERE s.deleted_at IS NULL AND s.status = 'available' AND (s.hold_expires_at IS NULL OR s.hold_expires_at <= now())
        AND s.freed_seq > COALESCE(c.freed_seq, 0)
        AND NOT EXISTS (SELECT 1 FROM waitlist_offers o WHERE o.slot_id = s.id AND o.outcome IS NULL)
      ORDER BY s.start_at, s.id
      FOR UPDATE OF s SKIP LOCKED`),
  );
  if (freed.length === 0) return;
  const waiting = await tx
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.state, 'waiting'), sql`(${waitlistEntries.offerableAfter} IS NULL OR ${waitlistEntries.offerableAfter} <= ${at(now)})`))
    .orderBy(asc(waitlistEntries.position));
  const pairs = waiting.length
    ? await tx
        .select({ entryId: waitlistOffers.entryId, slotId: waitlistOffers.slotId })
        .from(waitlistOffers)
        .where(inArray(waitlistOffers.entryId, waiting.map((e) => e.id)))
    : [];
  const offeredBefore = new Set(pairs.map((p) => `${p.entryId}:${p.slotId}`));
  const earliest = Math.max(earliestOfferable(now, settings).getTime(), now.getTime() + BOOKING_LEAD_HOURS * 3_600_000);
  const taken = new Set<number>();
  // Seats an offer of several children took in this pass: held now, each looked at again when it is freed again.
  const heldNow = new Set<number>();
  for (const slot of freed) {
    if (heldNow.has(slot.id)) continue;
    const start = new Date(slot.start_at);
    const freedSeq = Number(slot.freed_seq);
    const window = start.getTime() >= earliest ? offerWindow(now, start, settings) : null;
    const fitting = window
      ? waiting.filter((e) => !taken.has(e.id) && e.waitingSeq < freedSeq && !offeredBefore.has(`${e.id}:${slot.id}`) && slotFits(start, e) && hasPrice(e.school))
      : [];
    let busy = false;
    let offered = false;
    let seatsHere: { id: number; freedSeq: number }[] | undefined;
    for (const entry of fitting) {
      // Brothers and sisters come together (issue 37): this seat and enough others of its time, each freed since the
      // entry began waiting (never a seat anyone could take when it joined); fewer free: the next entry in line.
      let slotIds = [slot.id];
      if (entry.children > 1) {
        seatsHere ??= await freeSeatsAt(tx, start);
        const others = seatsHere.filter((seat) => seat.id !== slot.id && !heldNow.has(seat.id) && seat.freedSeq > entry.waitingSeq);
        if (others.length < entry.children - 1) continue;
        slotIds = [slot.id, ...others.slice(0, entry.children - 1).map((seat) => seat.id)];
      }
      const hold = await checkout.offer(tx, { slotIds, person: personOf(checkout, entry), minutes: settings.offerMinutes, at: now });
      if (hold === 'busy') busy = true;
      if (!hold || hold === 'busy') continue;
      for (const id of slotIds) heldNow.add(id);
      const linkToken = newToken();
      const [offer] = await tx
        .insert(waitlistOffers)
        .values({
          entryId: entry.id,
          slotId: slot.id,
          tokenHash: sha256(linkToken),
          holdToken: hold.token,
          createdAt: now,
          startsAt: now,
          // The offer lasts as long as its hold: within the hold time its person may have on this slot.
          expiresAt: hold.expiresAt,
        })
        .returning();
      await tx.update(waitlistEntries).set({ state: 'offered' }).where(eq(waitlistEntries.id, entry.id));
      taken.add(entry.id);
      outcome.offered.push(offer);
      outcome.mailed.push(await mailOffer(tx, offer, entry, linkToken, links, now));
      offered = true;
      break;
    }
    // Looked at unless an entry in line could not be asked now (its holder busy elsewhere): the next pass asks again.
    if (offered || !busy) await markChecked(tx, slot.id, freedSeq);
  }
}
