import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import {
  addDays,
  BOOKING_LEAD_HOURS,
  dateInMY,
  ErrorCode,
  HoldMessage,
  isSchoolYear,
  schoolDetails,
  ValidationMessage,
  waitlistDatesMessage,
  waitlistDatesProblem,
  WAITLIST_BLOCK_DAYS,
  WAITLIST_CONFIRM_HOURS,
  WAITLIST_UNCONFIRMED_STATES,
  WaitlistErrorCode,
  WaitlistMessage,
  waitlistNotMePath,
  weekdayOf,
  type StaffWaitlistEntry,
  type StaffWaitlistSummary,
  type WaitlistAccept,
  type WaitlistDates,
  type WaitlistDisown,
  type WaitlistEntryView,
  type WaitlistJoinBody,
  type WaitlistOfferView,
  type WaitlistSlot,
} from 'shared-api/contract';
import { newToken, sha256 } from '../base/crypto';
import type { Db, DbOrTx } from '../base/db/connection';
import { AppError, tooManyRequests } from '../base/errors';
import { sharedSecret } from '../base/secrets';
import { recordAudit } from '../audit';
import { recordConsent } from '../bookings';
import { consents } from '../bookings';
import { FIRST_PAID_HOLD_WORK, HoldLimitError, HoldLimitText, issueHoldChallenge, MAX_HOLD_WORK, priceOf, redeemProof, type Checkout } from '../checkout';
import { guessLimit, refuseUnknownToken } from '../limits';
import { hitCounter } from '../limits';
import { freeSeatsAt, toPublicSlot } from '../slots';
import { slots, type SlotRow } from '../slots';
import { enqueueWaitlistMail, renderWaitlistConfirm, renderWaitlistJoined, WAITLIST_CONFIRM_KIND } from './mails';
import { at, backOfLine, entryUrl, type Links } from './pass';
import { earliestOfferable, inQuietHours, offerWindow, slotFits, type WaitlistRules } from './rules';
import { waitlistEntries, waitlistOffers, type WaitlistEntryRow, type WaitlistOfferRow } from './tables';

const code = (c: WaitlistErrorCode) => c as unknown as ErrorCode;
const rows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const fail = (status: number, c: WaitlistErrorCode, message: string) => new AppError(status, code(c), message);
/** 409 for confirm / "this wasn't me" on a request not waiting for its confirmation; `rule` says why. */
const notPending = (rule: 'expired' | 'disowned' | 'confirmed') =>
  fail(409, WaitlistErrorCode.WAITLIST_NOT_PENDING, rule === 'expired' ? WaitlistMessage.confirmExpired : WaitlistMessage.notPending).withReason({ rule });
/** What a disowned request's details become (as retention's anonymised words). */
const ERASED = '[anonymised]';

/** Joins one client network may make per hour for free; past that each needs a solved proof of work, up to the ceiling. */
export const FREE_JOINS_PER_NETWORK = 3;
export const MAX_JOINS_PER_NETWORK = 20;
export const JOIN_WINDOW_SECONDS = 3600;
/** An address gets at most one mail from joins in this window (a confirmation, or its live entry's link again), whoever asks. */
export const JOIN_MAIL_WINDOW_SECONDS = 86_400;
/** Unknown waitlist links one client network may try (the guess limit's numbers, as manage links). */
export const WAITLIST_GUESS_LIMIT = guessLimit('waitlist-token', WaitlistMessage.tooManyTries);
/** When a network at its live entries is told to ask again (an offer's day, at the latest, frees one). */
export const NETWORK_FULL_RETRY_SECONDS = 3600;
/** Ended entries the staff list keeps showing. */
export const ENDED_SHOWN_DAYS = 30;

const LIVE = ['waiting', 'offered'] as const;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const slotOf = (slot: SlotRow): WaitlistSlot => {
  const s = toPublicSlot(slot);
  return { id: s.id, date: s.date, startTime: s.startTime, endTime: s.endTime };
};

export type WaitlistServiceOptions = { db: Db; checkout: Checkout; rules: WaitlistRules; links: Links; onChange: () => void; onMail: () => void };

/** The waitlist's parent and staff actions (the offer pass is pass.ts). */
export class WaitlistService {
  constructor(private readonly o: WaitlistServiceOptions) {}

  private get db() {
    return this.o.db;
  }

  // ---- Joining ----

  /** Refuses bad dates and unknown schools (400, nothing written). */
  private checkInput(body: Pick<WaitlistJoinBody, 'school' | 'childYear'> | null, dates: WaitlistDates): void {
    if (body) {
      priceOf(body.school, () => fail(400, WaitlistErrorCode.WAITLIST_SCHOOL, WaitlistMessage.unknownSchool));
      if (body.childYear && schoolDetails(body.school) && !isSchoolYear(body.school, body.childYear))
        throw new AppError(400, ErrorCode.VALIDATION_ERROR, ValidationMessage.childYearInvalid).withReason({ rule: 'childYearInvalid', field: 'childYear' });
    }
    const weeks = this.o.rules.settings.weeksAhead;
    const problem = waitlistDatesProblem(dates.fromDate, dates.toDate, dateInMY(this.o.rules.now()), weeks);
    if (problem) throw fail(400, WaitlistErrorCode.WAITLIST_DATES, waitlistDatesMessage(problem, weeks)).withReason({ rule: problem, params: { weeks } });
  }

  /**
   * POST /api/waitlist. Limited per client network like holds (a few free, then proof of work: payJoin; counted in the
   * join's transaction, so exact across processes), and a network may have only `liveEntriesPerNetwork` live entries
   * (counted under the network's lock): each entry's offers hold slots charged to that network. A new entry is written
   * with its consent and mailed its place and link; an existing live entry of that email or phone at that school is left
   * as it is and its holder mailed a new link (at most every 10 minutes). The caller learns nothing either way.
   */
  async join(body: WaitlistJoinBody, ip: string): Promise<void> {
    this.checkInput(body, body);
    const holder = this.o.checkout.limits.holder(ip);
    const client = holder.client;
    const challengeKey = await sharedSecret(this.db, 'altcha-hmac');
    await this.o.checkout.limits.transaction(this.db, holder, async (tx) => {
      // A network at its live entries is told so before any work is asked: no work would get it a place.
      const perNetwork = this.o.rules.settings.liveEntriesPerNetwork;
      const [{ live }] = await tx
        .select({ live: count() })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.client, client), inArray(waitlistEntries.state, [...LIVE])));
      if (Number(live) >= perNetwork)
        throw tooManyRequests(WaitlistMessage.networkFull(perNetwork), NETWORK_FULL_RETRY_SECONDS).withReason({ rule: 'networkFull', params: { entries: perNetwork } });
      await this.payJoin(tx, challengeKey, client, body.proofOfWork);
      await this.request(tx, body, client);
    });
    this.o.onMail();
  }

  /**
   * What a join costs its network: one hit of `waitlist-join:<network>` (an hour), counted only when the join is made.
   * The first FREE_JOINS_PER_NETWORK are free; then a join needs a proof of a join challenge issued to this network,
   * good at the work it was issued for however many joins the network made while it was solved (parents racing behind
   * one carrier address are not sent round again), and used once. Without one, the request is answered a challenge at
   * the level its join would have (thrown, so rolled back: asking costs no hit, and a stranger behind the same address
   * who never solves uses up nothing of the honest crowd's hour). Past MAX_JOINS_PER_NETWORK joins, a plain refusal.
   */
  private async payJoin(tx: DbOrTx, challengeKey: string, client: string, proof?: string): Promise<void> {
    // Attacker: challenges are free to ask and may be kept at one level, but each join spends a hit, so no network makes
    // more than MAX_JOINS_PER_NETWORK an hour, the bound that holds against a native solver (the work only slows phones).
    const paid = proof ? (await redeemProof(tx, challengeKey, proof, client, null, 'waitlist-join')) === 'ok' : false;
    const { hits, retryAfterSeconds } = await hitCounter(tx, `waitlist-join:${client}`, JOIN_WINDOW_SECONDS);
    if (hits > MAX_JOINS_PER_NETWORK) throw new HoldLimitError(HoldMessage.limit, null, retryAfterSeconds);
    if (paid || hits <= FREE_JOINS_PER_NETWORK) return;
    const level = hits - FREE_JOINS_PER_NETWORK;
    const work = Math.min(MAX_HOLD_WORK, FIRST_PAID_HOLD_WORK * 2 ** (level - 1));
    const challenge = await issueHoldChallenge(challengeKey, client, work, level, 'waitlist-join');
    throw new HoldLimitError(proof ? HoldLimitText.proofRefused : HoldLimitText.challenge, challenge);
  }

  /** A paid join: a request written and mailed, or nothing new (the address blocked or mailed today, already on the list). */
  private async request(tx: DbOrTx, body: WaitlistJoinBody, client: string): Promise<void> {
    // An address whose owner said "this wasn't me" cannot be put on a list for a while: nothing is written or mailed.
    const emailKey = this.o.checkout.limits.person(body.email, '').email;
    if (await this.blocked(tx, emailKey)) return;
    const existing = await this.liveEntryOf(tx, body.school, body.email, body.phone);
    if (existing) return this.remail(tx, existing);
    // One mail a day to an address from joins, whoever asks: a stranger cannot fill a parent's inbox.
    if (!(await this.mayMail(tx, emailKey))) return;
    const [pending] = await tx
      .select()
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.school, body.school), eq(waitlistEntries.email, body.email), eq(waitlistEntries.state, 'pending')))
      .for('update');
    const consent = await recordConsent(tx, body.privacyConsent, 'web');
    const token = newToken();
    const details = {
      name: body.name,
      phone: body.phone,
      childName: body.childName ?? null,
      childYear: body.childYear ?? null,
      children: body.children,
      locale: body.locale,
      fromDate: body.fromDate,
      toDate: body.toDate,
      partOfDay: body.partOfDay,
      tokenHash: sha256(token),
      consentId: consent.id,
      // The offer on WhatsApp too, given with that consent (issue 38).
      whatsappOptInAt: body.privacyConsent.whatsapp ? consent.givenAt : null,
      client,
      // The database's clock, as booked_at and the expiry of requests (a day) are.
      joinedAt: sql`now()` as unknown as Date,
    };
    // A request already waiting for its confirmation is replaced (its earlier link stops working): the newest mail is the one to answer.
    const [entry] = pending
      ? await tx.update(waitlistEntries).set(details).where(eq(waitlistEntries.id, pending.id)).returning()
      : await tx
          .insert(waitlistEntries)
          .values({ ...details, school: body.school, email: body.email, state: 'pending' })
          .onConflictDoNothing()
          .returning();
    if (!entry) {
      // Another request for this address and school was made meanwhile: it stands, this consent goes.
      await tx.delete(consents).where(eq(consents.id, consent.id));
      return;
    }
    await this.mailConfirm(tx, entry, token);
  }

  private async blocked(tx: DbOrTx, emailKey: string): Promise<boolean> {
    const [row] = rows<{ blocked: boolean }>(
      await tx.execute(sql`SELECT EXISTS (SELECT 1 FROM waitlist_join_blocks WHERE email_key = ${emailKey} AND until > ${at(this.o.rules.now())}) AS blocked`),
    );
    return row?.blocked === true;
  }

  /** True for the first join mail to this address today (counted under the address's key, exact across processes). */
  private async mayMail(tx: DbOrTx, emailKey: string): Promise<boolean> {
    const { hits } = await hitCounter(tx, `waitlist-mail:${emailKey}`, JOIN_MAIL_WINDOW_SECONDS);
    return hits <= 1;
  }

  private async mailConfirm(tx: DbOrTx, entry: WaitlistEntryRow, token: string): Promise<void> {
    const mail = renderWaitlistConfirm({
      ...entry,
      confirmUrl: entryUrl(this.o.links, token),
      notMeUrl: `${this.o.links.publicSiteUrl}${waitlistNotMePath(token)}`,
      confirmHours: WAITLIST_CONFIRM_HOURS,
      blockDays: WAITLIST_BLOCK_DAYS,
    });
    await enqueueWaitlistMail(tx, WAITLIST_CONFIRM_KIND, entry.email, mail, `confirm-${entry.id}-${sha256(token).slice(0, 12)}`, this.o.links.mailFrom);
  }

  private async liveEntryOf(tx: DbOrTx, school: string, email: string, phone: string): Promise<WaitlistEntryRow | undefined> {
    const [row] = await tx
      .select()
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.school, school), inArray(waitlistEntries.state, [...LIVE]), or(eq(waitlistEntries.email, email), eq(waitlistEntries.phone, phone))))
      .orderBy(asc(waitlistEntries.id))
      .limit(1)
      .for('update');
    return row;
  }

  /** The entry's holder gets its link again (a new one: only hashes are kept), within the address's one join mail a day. */
  private async remail(tx: DbOrTx, entry: WaitlistEntryRow): Promise<void> {
    if (!(await this.mayMail(tx, this.o.checkout.limits.person(entry.email, '').email))) return;
    const token = newToken();
    await tx.update(waitlistEntries).set({ tokenHash: sha256(token) }).where(eq(waitlistEntries.id, entry.id));
    await this.mailJoined(tx, entry, token);
  }

  private async mailJoined(tx: DbOrTx, entry: WaitlistEntryRow, token: string): Promise<void> {
    const place = await this.placeOf(tx, entry);
    const mail = renderWaitlistJoined({ ...entry, place, url: entryUrl(this.o.links, token), offerMinutes: this.o.rules.settings.offerMinutes });
    await enqueueWaitlistMail(tx, 'waitlist_joined', entry.email, mail, `${entry.id}-${sha256(token).slice(0, 12)}`, this.o.links.mailFrom);
  }

  /** 1-based among the waiting entries of its school; null when not waiting. */
  private async placeOf(db: DbOrTx, entry: Pick<WaitlistEntryRow, 'school' | 'state' | 'position'>): Promise<number | null> {
    if (entry.state !== 'waiting') return null;
    const [row] = await db
      .select({ n: count() })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.school, entry.school), eq(waitlistEntries.state, 'waiting'), lte(waitlistEntries.position, entry.position)));
    return Number(row.n);
  }

  // ---- The entry link ----

  private async entryFor(db: DbOrTx, token: string, ip: string, lock = false): Promise<WaitlistEntryRow> {
    if (TOKEN.test(token)) {
      const query = db.select().from(waitlistEntries).where(eq(waitlistEntries.tokenHash, sha256(token)));
      const [row] = lock ? await query.for('update') : await query;
      if (row) return row;
    }
    return refuseUnknownToken(db, WAITLIST_GUESS_LIMIT, ip, () => fail(404, WaitlistErrorCode.WAITLIST_LINK_INVALID, WaitlistMessage.invalidLink));
  }

  private async entryView(db: DbOrTx, entry: WaitlistEntryRow): Promise<WaitlistEntryView> {
    const [live] = await db
      .select({ offer: waitlistOffers, slot: slots })
      .from(waitlistOffers)
      .innerJoin(slots, eq(slots.id, waitlistOffers.slotId))
      .where(and(eq(waitlistOffers.entryId, entry.id), isNull(waitlistOffers.outcome)));
    return {
      entry: {
        school: entry.school,
        name: entry.name,
        email: entry.email,
        phone: entry.phone,
        fromDate: entry.fromDate,
        toDate: entry.toDate,
        partOfDay: entry.partOfDay,
        locale: entry.locale,
        children: entry.children,
        state: entry.state,
        place: await this.placeOf(db, entry),
      },
      offer: live ? { slot: slotOf(live.slot), startsAt: live.offer.startsAt.toISOString(), expiresAt: live.offer.expiresAt.toISOString() } : null,
    };
  }

  async viewEntry(token: string, ip: string): Promise<WaitlistEntryView> {
    return this.entryView(this.db, await this.entryFor(this.db, token, ip));
  }

  /** New dates for a waiting entry (409 once offered or ended); its place stays. */
  async updateEntry(token: string, dates: WaitlistDates, ip: string): Promise<WaitlistEntryView> {
    await this.entryFor(this.db, token, ip);
    this.checkInput(null, dates);
    const view = await this.db.transaction(async (tx) => {
      const entry = await this.entryFor(tx, token, ip, true);
      if (entry.state !== 'waiting') throw fail(409, WaitlistErrorCode.WAITLIST_NOT_LIVE, WaitlistMessage.notWaiting);
      const [updated] = await tx.update(waitlistEntries).set(dates).where(eq(waitlistEntries.id, entry.id)).returning();
      return this.entryView(tx, updated);
    });
    this.o.onChange();
    return view;
  }

  /** The parent leaves: a live offer ends ('declined') and its slot passes on. An ended entry is shown as it is. */
  async leave(token: string, ip: string): Promise<WaitlistEntryView> {
    await this.entryFor(this.db, token, ip);
    const view = await this.db.transaction(async (tx) => {
      const entry = await this.entryFor(tx, token, ip, true);
      if (!LIVE.includes(entry.state as (typeof LIVE)[number])) return this.entryView(tx, entry);
      await this.endLiveOffer(tx, entry.id, 'declined');
      const [left] = await tx.update(waitlistEntries).set({ state: 'left', endedAt: this.o.rules.now() }).where(eq(waitlistEntries.id, entry.id)).returning();
      return this.entryView(tx, left);
    });
    this.o.onChange();
    return view;
  }

  /**
   * The request's owner confirms it from its mail: it starts waiting at the back of the line (its place, its term and
   * the slots it may be offered count from now), and the usual "you are on the list" mail follows. Under the lock of
   * the network that asked, which may hold only `liveEntriesPerNetwork` live entries (the same count as a join).
   */
  async confirm(token: string, ip: string): Promise<WaitlistEntryView> {
    const asked = await this.entryFor(this.db, token, ip);
    const view = await this.o.checkout.limits.transaction(this.db, { client: asked.client ?? `entry-${asked.id}` }, async (tx) => {
      const entry = await this.entryFor(tx, token, ip, true);
      if (entry.state !== 'pending') throw notPending(entry.state === 'unconfirmed' ? 'expired' : entry.state === 'disowned' ? 'disowned' : 'confirmed');
      const [{ late }] = rows<{ late: boolean }>(
        await tx.execute(sql`SELECT ${waitlistEntries.joinedAt} + make_interval(hours => ${WAITLIST_CONFIRM_HOURS}) <= now() AS late FROM ${waitlistEntries} WHERE id = ${entry.id}`),
      );
      if (late) throw notPending('expired');
      const perNetwork = this.o.rules.settings.liveEntriesPerNetwork;
      if (entry.client) {
        const [{ live }] = await tx
          .select({ live: count() })
          .from(waitlistEntries)
          .where(and(eq(waitlistEntries.client, entry.client), inArray(waitlistEntries.state, [...LIVE])));
        if (Number(live) >= perNetwork)
          throw tooManyRequests(WaitlistMessage.networkFull(perNetwork), NETWORK_FULL_RETRY_SECONDS).withReason({ rule: 'networkFull', params: { entries: perNetwork } });
      }
      if (await this.liveEntryOf(tx, entry.school, entry.email, entry.phone)) throw fail(409, WaitlistErrorCode.WAITLIST_ALREADY_ON, WaitlistMessage.alreadyOn);
      const [row] = await tx
        .update(waitlistEntries)
        .set({
          state: 'waiting',
          joinedAt: sql`now()` as unknown as Date,
          waitingSeq: sql`nextval('slot_freed_seq')` as unknown as number,
          position: sql`nextval(pg_get_serial_sequence('waitlist_entries', 'position'))` as unknown as number,
        })
        .where(eq(waitlistEntries.id, entry.id))
        .returning();
      await this.mailJoined(tx, row, token);
      return this.entryView(tx, row);
    });
    this.o.onMail();
    this.o.onChange();
    return view;
  }

  /**
   * "This wasn't me", from the confirmation mail: the request ends 'disowned' with its details erased (they were
   * typed by someone else), every other unconfirmed request of that address ends too, and no join may name the address
   * for WAITLIST_BLOCK_DAYS (a keyed hash is all that is kept of it).
   */
  async disown(token: string, ip: string): Promise<WaitlistDisown> {
    await this.entryFor(this.db, token, ip);
    return this.db.transaction(async (tx) => {
      const entry = await this.entryFor(tx, token, ip, true);
      if (entry.state !== 'pending') throw notPending(entry.state === 'unconfirmed' ? 'expired' : entry.state === 'disowned' ? 'disowned' : 'confirmed');
      const now = this.o.rules.now();
      const until = new Date(now.getTime() + WAITLIST_BLOCK_DAYS * 86_400_000);
      const emailKey = this.o.checkout.limits.person(entry.email, '').email;
      await tx.execute(sql`
        INSERT INTO waitlist_join_blocks (email_key, until) VALUES (${emailKey}, ${at(until)})
        ON CONFLICT (email_key) DO UPDATE SET until = GREATEST(waitlist_join_blocks.until, EXCLUDED.until)`);
      await tx.execute(sql`
        UPDATE waitlist_entries SET state = 'disowned', ended_at = ${at(now)}, name = ${ERASED}, email = 'erased-' || id || '@invalid',
          phone = '', child_name = NULL, child_year = NULL
        WHERE state = 'pending' AND email = ${entry.email}`);
      return { state: 'disowned' as const, blockedUntil: until.toISOString() };
    });
  }

  private async endLiveOffer(tx: DbOrTx, entryId: number, outcome: 'declined' | 'cancelled'): Promise<WaitlistOfferRow | undefined> {
    const now = this.o.rules.now();
    const [ended] = await tx
      .update(waitlistOffers)
      .set({ outcome, endedAt: now })
      .where(and(eq(waitlistOffers.entryId, entryId), isNull(waitlistOffers.outcome)))
      .returning();
    if (ended) await this.o.checkout.releaseOffer(tx, ended, now);
    return ended;
  }

  // ---- The offer link ----

  private async offerFor(db: DbOrTx, token: string, ip: string, lock = false) {
    if (TOKEN.test(token)) {
      const query = db
        .select({ offer: waitlistOffers, entry: waitlistEntries, slot: slots })
        .from(waitlistOffers)
        .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
        .innerJoin(slots, eq(slots.id, waitlistOffers.slotId))
        .where(eq(waitlistOffers.tokenHash, sha256(token)));
      const [row] = lock ? await query.for('update', { of: waitlistOffers }) : await query;
      if (row) return row;
    }
    return refuseUnknownToken(db, WAITLIST_GUESS_LIMIT, ip, () => fail(404, WaitlistErrorCode.WAITLIST_LINK_INVALID, WaitlistMessage.invalidLink));
  }

  private offerState(offer: WaitlistOfferRow): WaitlistOfferView['state'] {
    const now = this.o.rules.now();
    if (offer.outcome === 'booked' || offer.outcome === 'declined') return offer.outcome;
    if (offer.outcome) return 'expired';
    if (offer.expiresAt <= now) return 'expired';
    return offer.startsAt > now ? 'waiting' : 'live';
  }

  async viewOffer(token: string, ip: string): Promise<WaitlistOfferView> {
    const { offer, entry, slot } = await this.offerFor(this.db, token, ip);
    return {
      state: this.offerState(offer),
      school: entry.school,
      slot: slotOf(slot),
      feeSen: priceOf(entry.school),
      children: entry.children,
      startsAt: offer.startsAt.toISOString(),
      expiresAt: offer.expiresAt.toISOString(),
      visitor: { name: entry.name, email: entry.email, phone: entry.phone, school: entry.school, childName: entry.childName, childYear: entry.childYear },
      locale: entry.locale,
    };
  }

  /** The slot's hold token of a live offer: the browser pays with it as after a reserve (409 when not live). */
  async accept(token: string, ip: string): Promise<WaitlistAccept> {
    const { offer, slot } = await this.offerFor(this.db, token, ip);
    if (this.offerState(offer) !== 'live' || slot.holdTokenHash !== sha256(offer.holdToken) || slot.status !== 'available')
      throw fail(409, WaitlistErrorCode.WAITLIST_NOT_LIVE, WaitlistMessage.offerNotLive);
    // Until the later of the offer's end and the hold's (a payment started on it may have taken it further).
    const until = slot.holdExpiresAt && slot.holdExpiresAt > offer.expiresAt ? slot.holdExpiresAt : offer.expiresAt;
    return { slotId: slot.id, token: offer.holdToken, expiresAt: until.toISOString() };
  }

  /** The parent declines: the offer ends, the slot passes on at once, the entry waits for another slot. */
  async decline(token: string, ip: string): Promise<void> {
    await this.offerFor(this.db, token, ip);
    await this.db.transaction(async (tx) => {
      const { offer } = await this.offerFor(tx, token, ip, true);
      const state = this.offerState(offer);
      if (state !== 'live' && state !== 'waiting') throw fail(409, WaitlistErrorCode.WAITLIST_NOT_LIVE, WaitlistMessage.offerNotLive);
      await this.endLiveOffer(tx, offer.entryId, 'declined');
      await backOfLine(tx, offer.entryId, this.o.rules.now());
    });
    this.o.onChange();
  }

  /**
   * "Let it pass" pressed on the offer's WhatsApp message (issue 38; the platform proved the reply came from the number
   * the offer went to): as a decline by the link. Resolves 'passed', or 'ended' when the offer was no longer open.
   */
  async passOffer(offerId: number): Promise<'passed' | 'ended'> {
    const outcome = await this.db.transaction(async (tx) => {
      const [offer] = await tx.select().from(waitlistOffers).where(eq(waitlistOffers.id, offerId)).for('update');
      const state = offer ? this.offerState(offer) : 'expired';
      if (!offer || (state !== 'live' && state !== 'waiting')) return 'ended' as const;
      await this.endLiveOffer(tx, offer.entryId, 'declined');
      await backOfLine(tx, offer.entryId, this.o.rules.now());
      return 'passed' as const;
    });
    if (outcome === 'passed') this.o.onChange();
    return outcome;
  }

  // ---- The rule: a slot freed while entries wait is offered to the list first ----

  /**
   * True when the reserve and payment routes (and a parent's move) must refuse this free slot now: an offer of it runs
   * for another hold token than the caller's, or (outside quiet hours) it was freed since the list last looked at it
   * and an entry that began waiting before that would be offered it. A slot that was free before anyone waited, or that
   * the list has passed, is anyone's.
   */
  async claims(db: DbOrTx, slotId: number, holdTokenHash: string | null): Promise<boolean> {
    const { settings, now: clock } = this.o.rules;
    const now = clock();
    const [row] = rows<{ start_at: string | Date; status: string; deleted: boolean; held: boolean; lapsed: boolean; freed_seq: string | number; checked: string | number | null }>(
      await db.execute(sql`
        SELECT s.start_at, s.status, s.deleted_at IS NOT NULL AS deleted, s.hold_expires_at > now() AS held,
               (s.hold_token_hash IS NOT NULL AND s.hold_expires_at <= now()) AS lapsed, s.freed_seq, c.freed_seq AS checked
        FROM slots s LEFT JOIN waitlist_slot_checks c ON c.slot_id = s.id WHERE s.id = ${slotId}`),
    );
    if (!row || row.status !== 'available' || row.deleted) return false;
    const [live] = await db.select().from(waitlistOffers).where(and(eq(waitlistOffers.slotId, slotId), isNull(waitlistOffers.outcome)));
    if (live) return !(holdTokenHash && sha256(live.holdToken) === holdTokenHash);
    if (row.held || inQuietHours(now, settings)) return false;
    // A hold that ran out is freed now (the next pass numbers it): any entry waiting may be offered it.
    const freedSeq = row.lapsed ? Number.MAX_SAFE_INTEGER : Number(row.freed_seq);
    if (!row.lapsed && freedSeq <= Number(row.checked ?? 0)) return false;
    const start = new Date(row.start_at);
    if (start < earliestOfferable(now, settings) || start.getTime() < now.getTime() + BOOKING_LEAD_HOURS * 3_600_000) return false;
    if (!offerWindow(now, start, settings)) return false;
    const day = dateInMY(start);
    const candidates = await db
      .select()
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.state, 'waiting'),
          lte(waitlistEntries.fromDate, day),
          gte(waitlistEntries.toDate, day),
          sql`${waitlistEntries.waitingSeq} < ${freedSeq}`,
          sql`(${waitlistEntries.offerableAfter} IS NULL OR ${waitlistEntries.offerableAfter} <= ${at(now)})`,
          sql`NOT EXISTS (SELECT 1 FROM waitlist_offers o WHERE o.entry_id = ${waitlistEntries.id} AND o.slot_id = ${slotId})`,
        ),
      );
    const fitting = candidates.filter((e) => slotFits(start, e));
    if (fitting.every((e) => e.children > 1) && fitting.length > 0) {
      // Only families of several wait for this time (issue 37): theirs when enough of its seats freed since they waited are free.
      const others = (await freeSeatsAt(db, start)).filter((seat) => seat.id !== slotId);
      return fitting.some((e) => others.filter((seat) => seat.freedSeq > e.waitingSeq).length >= e.children - 1);
    }
    return fitting.length > 0;
  }

  // ---- Staff ----

  async staffList(school?: string): Promise<StaffWaitlistEntry[]> {
    const since = new Date(this.o.rules.now().getTime() - ENDED_SHOWN_DAYS * 86_400_000);
    const entries = await this.db
      .select()
      .from(waitlistEntries)
      .where(
        and(
          school ? eq(waitlistEntries.school, school) : undefined,
          notInArray(waitlistEntries.state, [...WAITLIST_UNCONFIRMED_STATES]),
          or(inArray(waitlistEntries.state, [...LIVE]), gt(waitlistEntries.endedAt, since)),
        ),
      )
      .orderBy(asc(waitlistEntries.position));
    const ids = entries.map((e) => e.id);
    const offers = ids.length
      ? await this.db
          .select({ offer: waitlistOffers, slot: slots })
          .from(waitlistOffers)
          .innerJoin(slots, eq(slots.id, waitlistOffers.slotId))
          .where(inArray(waitlistOffers.entryId, ids))
          .orderBy(asc(waitlistOffers.id))
      : [];
    const isLive = (e: WaitlistEntryRow) => LIVE.includes(e.state as (typeof LIVE)[number]);
    const placeInSchool = new Map<string, number>();
    const live = entries.filter(isLive);
    const ended = entries.filter((e) => !isLive(e)).sort((a, b) => (b.endedAt?.getTime() ?? 0) - (a.endedAt?.getTime() ?? 0));
    return [...live, ...ended].map((e) => {
      let position: number | null = null;
      if (isLive(e)) {
        position = (placeInSchool.get(e.school) ?? 0) + 1;
        placeInSchool.set(e.school, position);
      }
      const own = offers.filter((o) => o.offer.entryId === e.id);
      const current = own.find((o) => o.offer.outcome === null);
      return {
        id: e.id,
        position,
        name: e.name,
        email: e.email,
        phone: e.phone,
        school: e.school,
        childName: e.childName,
        childYear: e.childYear,
        children: e.children,
        fromDate: e.fromDate,
        toDate: e.toDate,
        partOfDay: e.partOfDay,
        // The query left out the unconfirmed states.
        state: e.state as StaffWaitlistEntry['state'],
        joinedAt: e.joinedAt.toISOString(),
        offer: current ? { slot: slotOf(current.slot), expiresAt: current.offer.expiresAt.toISOString() } : null,
        offers: own.map((o) => ({
          slot: slotOf(o.slot),
          createdAt: o.offer.createdAt.toISOString(),
          expiresAt: o.offer.expiresAt.toISOString(),
          outcome: o.offer.outcome,
        })),
      };
    });
  }

  /** Swaps a live entry's place with its live neighbour's in its school (409 when it is already first or last), audited. */
  async move(id: number, direction: 'up' | 'down', reason: string, by: { actor: string; actorUserId: number; ip: string }): Promise<string> {
    const school = await this.db.transaction(async (tx) => {
      const [entry] = await tx.select().from(waitlistEntries).where(eq(waitlistEntries.id, id)).for('update');
      if (!entry) throw fail(404, WaitlistErrorCode.WAITLIST_LINK_INVALID, 'Waitlist entry not found.');
      if (!LIVE.includes(entry.state as (typeof LIVE)[number])) throw fail(409, WaitlistErrorCode.WAITLIST_NOT_LIVE, 'This entry is no longer on the list.');
      const [neighbour] = await tx
        .select()
        .from(waitlistEntries)
        .where(
          and(
            eq(waitlistEntries.school, entry.school),
            inArray(waitlistEntries.state, [...LIVE]),
            ne(waitlistEntries.id, entry.id),
            direction === 'up' ? sql`${waitlistEntries.position} < ${entry.position}` : sql`${waitlistEntries.position} > ${entry.position}`,
          ),
        )
        .orderBy(direction === 'up' ? desc(waitlistEntries.position) : asc(waitlistEntries.position))
        .limit(1)
        .for('update');
      if (!neighbour) throw fail(409, WaitlistErrorCode.WAITLIST_NOT_LIVE, direction === 'up' ? 'This entry is already first.' : 'This entry is already last.');
      await tx.update(waitlistEntries).set({ position: neighbour.position }).where(eq(waitlistEntries.id, entry.id));
      await tx.update(waitlistEntries).set({ position: entry.position }).where(eq(waitlistEntries.id, neighbour.id));
      await recordAudit(tx, {
        ...by,
        action: 'waitlist_moved',
        target: entry.id,
        detail: { direction, reason, school: entry.school, email: entry.email, swappedWith: neighbour.id },
      });
      return entry.school;
    });
    this.o.onChange();
    return school;
  }

  /** Takes a live entry off the list (its live offer ends and the slot passes on), audited. */
  async remove(id: number, reason: string, by: { actor: string; actorUserId: number; ip: string }): Promise<string> {
    const school = await this.db.transaction(async (tx) => {
      const [entry] = await tx.select().from(waitlistEntries).where(eq(waitlistEntries.id, id)).for('update');
      if (!entry) throw fail(404, WaitlistErrorCode.WAITLIST_LINK_INVALID, 'Waitlist entry not found.');
      if (!LIVE.includes(entry.state as (typeof LIVE)[number])) throw fail(409, WaitlistErrorCode.WAITLIST_NOT_LIVE, 'This entry is no longer on the list.');
      await this.endLiveOffer(tx, entry.id, 'cancelled');
      await tx.update(waitlistEntries).set({ state: 'removed', endedAt: this.o.rules.now() }).where(eq(waitlistEntries.id, entry.id));
      await recordAudit(tx, { ...by, action: 'waitlist_removed', target: entry.id, detail: { reason, school: entry.school, email: entry.email, state: entry.state } });
      return entry.school;
    });
    this.o.onChange();
    return school;
  }

  /** Dashboard counts: waiting now, live offers, offers booked since Monday (GMT+8). */
  async summary(): Promise<StaffWaitlistSummary> {
    const now = this.o.rules.now();
    const today = dateInMY(now);
    const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
    const [row] = (
      (await this.db.execute(sql`
        SELECT (SELECT count(*) FROM waitlist_entries WHERE state = 'waiting')::int AS waiting,
               (SELECT count(*) FROM waitlist_offers WHERE outcome IS NULL AND expires_at > ${at(now)})::int AS offers_live,
               (SELECT count(*) FROM waitlist_offers WHERE outcome = 'booked' AND ended_at >= ${at(new Date(`${monday}T00:00:00+08:00`))})::int AS filled`)) as unknown as {
        rows: { waiting: number; offers_live: number; filled: number }[];
      }
    ).rows;
    return { waiting: Number(row.waiting), offersLive: Number(row.offers_live), filledThisWeek: Number(row.filled) };
  }
}

