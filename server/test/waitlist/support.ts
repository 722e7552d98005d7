import { asc, eq, sql } from 'drizzle-orm';
import { addDays, dateInMY, isWeekend, midnightInMY, type WaitlistJoinBodyInput } from 'shared-api/contract';
import { currentNoticeVersion } from 'shared-api/privacy';
import { mailOutbox } from '../../src/mail/tables';
import { slots } from '../../src/slots/tables';
import { waitlistEntries, waitlistOffers } from '../../src/waitlist/tables';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { postJsonFrom } from '../payments/server-process';
import type { PayCtx } from '../payments/support';

/** A fixed clock for the waitlist: `at` moves it. */
export type Clock = { now: Date; set(d: Date): void; add(minutes: number): void };
export function fixClock(ctx: PayCtx, start: Date): Clock {
  const clock: Clock = {
    now: start,
    set(d) {
      clock.now = d;
    },
    add(minutes) {
      clock.now = new Date(clock.now.getTime() + minutes * 60_000);
    },
  };
  ctx.app.waitlist.rules.now = () => clock.now;
  return clock;
}

/** `day` (YYYY-MM-DD) at `hhmm` GMT+8. */
export const atMY = (day: string, hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return new Date(midnightInMY(day) + (h * 60 + m) * 60_000);
};
/** The first weekday on or after `day`. */
export const weekdayFrom = (day: string) => {
  let d = day;
  while (isWeekend(d)) d = addDays(d, 1);
  return d;
};
/** Tomorrow (GMT+8) at `hhmm`: a clock always ahead of the real one, so holds it sets are live on the database's clock too. */
export const tomorrowAt = (hhmm: string) => atMY(addDays(dateInMY(new Date()), 1), hhmm);

export const SCHOOL = 'Seri Ilmu Private Secondary';
/** Parent `i`: their own email, phone and client network. */
export const parent = (i: number) => ({
  name: `Parent ${i}`,
  email: `parent${i}@example.com`,
  phone: `01${String(20_000_000 + i)}`,
  address: `10.${100 + (i % 100)}.${Math.floor(i / 100)}.7`,
});

export function joinBody(i: number, extra: Partial<WaitlistJoinBodyInput> & { fromDate: string; toDate: string }): WaitlistJoinBodyInput {
  const p = parent(i);
  return {
    name: p.name,
    email: p.email,
    phone: p.phone,
    school: SCHOOL,
    childName: `Child ${i}`,
    childYear: 'Form 1',
    partOfDay: 'any',
    locale: 'en',
    privacyConsent: { noticeVersion: currentNoticeVersion(), language: 'en' },
    ...extra,
  };
}

/** POST /api/waitlist alone: a request, pending until its mail's link confirms it (issue 35). */
export const joinRequest = (ctx: PayCtx, i: number, extra: Partial<WaitlistJoinBodyInput> & { fromDate: string; toDate: string }, address = parent(i).address) =>
  ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: joinBody(i, extra), remoteAddress: address });

/** The newest confirmation mail's entry token for `email`, or null. */
export async function confirmTokenFor(ctx: Pick<PayCtx, 'database'>, email: string): Promise<string | null> {
  const mails = (await mailsTo(ctx, email)).filter((m) => m.kind === 'waitlist_confirm');
  return mails.length ? linkToken(mails[mails.length - 1].textBody, 'entry') : null;
}

/**
 * A parent joining as parents do: the request, then "Confirm my place" from the mail it sent (when it sent one: a join
 * that changed nothing sends none). Answers the request's answer; a refused confirmation throws.
 */
export async function join(ctx: PayCtx, i: number, extra: Partial<WaitlistJoinBodyInput> & { fromDate: string; toDate: string }, address = parent(i).address) {
  const email = extra.email ?? parent(i).email;
  const before = await confirmTokenFor(ctx, email);
  const res = await joinRequest(ctx, i, extra, address);
  const token = res.statusCode === 202 ? await confirmTokenFor(ctx, email) : null;
  if (token && token !== before) {
    const confirmed = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/entry/${token}/confirm`, remoteAddress: address });
    if (confirmed.statusCode !== 200) throw new Error(`confirm ${i}: ${confirmed.statusCode} ${confirmed.body}`);
  }
  return res;
}

/** Joins parents `from`..`to` in order (each must answer 202). */
export async function joinMany(ctx: PayCtx, ids: number[], extra: { fromDate: string; toDate: string; partOfDay?: 'any' | 'morning' | 'afternoon' }) {
  for (const i of ids) {
    const res = await join(ctx, i, extra);
    if (res.statusCode !== 202) throw new Error(`join ${i}: ${res.statusCode} ${res.body}`);
  }
}

/** A free slot at `start` (30 minutes). */
export async function slotAt(ctx: PayCtx, start: Date) {
  const [row] = await ctx.database.db.insert(slots).values({ startAt: start, endAt: new Date(start.getTime() + 30 * 60_000) }).returning();
  return row;
}

export const entries = (ctx: PayCtx) => ctx.database.db.select().from(waitlistEntries).orderBy(asc(waitlistEntries.position));
export const offers = (ctx: PayCtx) => ctx.database.db.select().from(waitlistOffers).orderBy(asc(waitlistOffers.id));
export const liveOffers = async (ctx: PayCtx) => (await offers(ctx)).filter((o) => o.outcome === null);
export const mailsTo = (ctx: Pick<PayCtx, 'database'>, email: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(asc(mailOutbox.id));

/** The token of a link `/waitlist/<token>` or `/waitlist/offer/<token>` in a mail's text. */
export function linkToken(text: string, kind: 'entry' | 'offer'): string {
  const re = kind === 'offer' ? /\/waitlist\/offer\/([A-Za-z0-9_-]{43})/ : /\/waitlist\/([A-Za-z0-9_-]{43})/;
  const token = re.exec(text)?.[1];
  if (!token) throw new Error(`no ${kind} link in:\n${text}`);
  return token;
}

/** The latest offer mail's token for parent `i`. */
export async function offerTokenOf(ctx: PayCtx, i: number): Promise<string> {
  const mails = (await mailsTo(ctx, parent(i).email)).filter((m) => m.kind === 'waitlist_offer');
  if (mails.length === 0) throw new Error(`no offer mail for parent ${i}`);
  return linkToken(mails[mails.length - 1].textBody, 'offer');
}
export async function entryTokenOf(ctx: PayCtx, i: number): Promise<string> {
  const mails = (await mailsTo(ctx, parent(i).email)).filter((m) => m.kind === 'waitlist_joined');
  return linkToken(mails[mails.length - 1].textBody, 'entry');
}

/** Which parent (by number) each live offer went to, by slot id. */
export async function offeredTo(ctx: PayCtx): Promise<Record<number, number>> {
  const rows = (await ctx.database.db.execute(sql`
    SELECT o.slot_id, e.email FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id WHERE o.outcome IS NULL ORDER BY o.slot_id`)) as unknown as {
    rows: { slot_id: number; email: string }[];
  };
  return Object.fromEntries(rows.rows.map((r) => [r.slot_id, Number(/parent(\d+)@/.exec(r.email)![1])]));
}

/** The newest confirmation mail's token for `email`, read from the database a real process writes to. */
export async function confirmTokenIn(db: DatabaseHandle, email: string): Promise<string> {
  const rows = (await db.db.execute(sql`
    SELECT text_body FROM mail_outbox WHERE kind = 'waitlist_confirm' AND recipient = ${email} ORDER BY id DESC LIMIT 1`)) as unknown as { rows: { text_body: string }[] };
  if (!rows.rows[0]) throw new Error(`no confirmation mail for ${email}`);
  return linkToken(rows.rows[0].text_body, 'entry');
}

/** A request to a real process (`base`), then "Confirm my place" from its mail, both from `address`: the confirmation's status. */
export async function joinAndConfirm(db: DatabaseHandle, base: string, address: string, body: WaitlistJoinBodyInput): Promise<number> {
  const asked = await postJsonFrom(address, `${base}/api/waitlist`, body);
  if (asked.status !== 202) return asked.status;
  const token = await confirmTokenIn(db, body.email);
  return (await postJsonFrom(address, `${base}/api/waitlist/entry/${token}/confirm`, {})).status;
}
