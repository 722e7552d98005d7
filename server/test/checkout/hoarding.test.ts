jest.setTimeout(600_000);
import { sql } from 'drizzle-orm';
import { addDays, dateInMY, isWeekend, waitlistSettings, type HoldChallenge } from 'shared-api/contract';
import { solveHoldChallenge } from '../../../booking-remote/src/lib/hold-limit/holdChallenge';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { slots } from '../../src/slots/tables';
import { Checkout } from '../../src/checkout';
import { runOfferPass } from '../../src/waitlist/pass';
import { currentConsent, queryRows, visitor } from '../helpers';
import { postJsonFrom, twoApiProcesses, type Server } from '../payments/server-process';
import { shiftTimesSql } from '../support/clock-shift';
import { atMY, confirmTokenIn, joinAndConfirm, joinBody, linkToken } from '../waitlist/support';

// Issue 34's attack, as a stranger would run it: loopback addresses only, two API processes on one PostgreSQL, time
// passing by moving every time the rules count into the past. The waitlist used to hold slots for anyone: one /24 held
// 87.5 % of the timetable within two hours through offers, and 16 other /24s joining 3 times each held 48 of 56 slots.

const SLOTS = 56;
const ROUND_MINUTES = 10;

type Answer = Awaited<ReturnType<typeof postJsonFrom<{ token?: string; challenge?: HoldChallenge | null; paymentSession?: { holdToken: string } }>>>;

/** A payment in invented names (`kind` and `n` make them), as a script with an address book of none would start one. */
const inventedPayment = (kind: 'invented' | 'renewer', n: number, body: { slotId: number; holdToken?: string; proofOfWork?: string }) => ({
  ...visitor,
  visitorName: `${kind} ${n}`,
  visitorEmail: `${kind}${n}@example.com`,
  visitorContactNo: `01${String((kind === 'invented' ? 30_000_000 : 40_000_000) + n)}`,
  consent: currentConsent(),
  ...body,
});

describe('hoarding slots through any door, two API processes on one PostgreSQL', () => {
  let servers: Server[] = [];
  let db: DatabaseHandle;
  let stop: () => Promise<void>;

  beforeEach(async () => {
    ({ servers, db, stop } = await twoApiProcesses('hoarding'));
    // 56 weekday slots, three days ahead and later (past every cut-off), free before anyone waits.
    const days: string[] = [];
    for (let day = addDays(dateInMY(new Date()), 3); days.length < 6; day = addDays(day, 1)) if (!isWeekend(day)) days.push(day);
    const starts = days.flatMap((day) => Array.from({ length: 10 }, (_, i) => atMY(day, `${String(8 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`))).slice(0, SLOTS);
    await db.db.insert(slots).values(starts.map((startAt) => ({ startAt, endAt: new Date(startAt.getTime() + 30 * 60_000) })));
  });
  afterEach(() => stop?.());

  const api = (n: number) => servers[n % servers.length].base;
  const counts = async () =>
    (
      await queryRows<{ bookable: number; held: number; offers: number }>(
        db,
        sql`SELECT count(*) FILTER (WHERE status = 'available' AND start_at >= now() + interval '1 hour')::int AS bookable,
                   count(*) FILTER (WHERE status = 'available' AND hold_expires_at > now())::int AS held,
                   (SELECT count(*)::int FROM waitlist_offers WHERE outcome IS NULL) AS offers
            FROM slots WHERE deleted_at IS NULL`,
      )
    )[0];
  const publicIds = async (): Promise<number[]> => {
    const res = await fetch(`${api(0)}/public/list?limit=100&page=1`);
    return ((await res.json()) as { data: { slots: { id: number }[] } }).data.slots.map((s) => s.id);
  };
  const shift = (minutes: number) => db.db.execute(sql.raw(shiftTimesSql(minutes * 60_000)));
  /** An offer pass now, as a third process would run one (the processes' own run every 30 s and on each freeing). */
  const pass = async () => {
    const rules = { settings: { ...waitlistSettings(), quietHours: { from: '00:00', to: '00:00' } }, now: () => new Date() };
    await runOfferPass(db.db, await Checkout.for(db.db), rules, { publicSiteUrl: 'http://site.test', mailFrom: 'Test <booking@example.com>' });
  };

  it('one /24 with 16 addresses, solving every challenge it is given, through reserve, initiate and the waitlist, holds at most 20 % of the slots at any moment for two hours', async () => {
    const addresses = Array.from({ length: 16 }, (_, i) => `127.0.9.${i + 2}`);
    const range = { fromDate: dateInMY(new Date()), toDate: addDays(dateInMY(new Date()), 21) };
    const tokens = new Map<number, string>();
    let n = 0;
    let solved = 0;
    let worst = 0;
    const from = () => addresses[n++ % addresses.length];
    /** A request; a challenge answered (once) with its solution, as a script with CPU to spare would. */
    const withWork = async (send: (proof?: string) => Promise<Answer>): Promise<Answer> => {
      const first = await send();
      const challenge = first.status === 429 ? first.body.data?.challenge : null;
      if (!challenge) return first;
      solved += 1;
      return send((await solveHoldChallenge(challenge))!);
    };
    for (let round = 0; round < 120 / ROUND_MINUTES; round++) {
      // Hold every listed slot it can (in a new order each round), through reserve and through initiate without a hold.
      const listed = (await publicIds()).sort(() => Math.random() - 0.5);
      for (const slotId of listed.slice(0, 24)) {
        const viaInitiate = n % 3 === 0;
        const address = from();
        const answer = await withWork((proofOfWork) =>
          viaInitiate
            ? postJsonFrom(address, `${api(n)}/api/payment/initiate`, inventedPayment('invented', n, { slotId, proofOfWork }))
            : postJsonFrom(address, `${api(n)}/slot/${slotId}/reserve`, { proofOfWork }),
        );
        const token = answer.body.data?.token ?? answer.body.data?.paymentSession?.holdToken;
        if (answer.status === 200 && token) tokens.set(slotId, token);
      }
      // Renew every hold it has with a payment in invented names (a new payment each time: renewals cost a new hold's work).
      for (const [slotId, holdToken] of tokens) {
        const address = from();
        await withWork((proofOfWork) => postJsonFrom(address, `${api(n)}/api/payment/initiate`, inventedPayment('renewer', n, { slotId, holdToken, proofOfWork })));
      }
      // Join the waitlist with invented parents (confirming from their invented mailboxes), and take every offer that reaches them.
      for (let j = 0; j < 4; j++) {
        const address = from();
        const body = joinBody(1000 + n + j * 7, range);
        const asked = await withWork((proofOfWork) => postJsonFrom(address, `${api(n)}/api/waitlist`, { ...body, proofOfWork }));
        const token = asked.status === 202 ? await confirmTokenIn(db, body.email).catch(() => null) : null;
        if (token) await postJsonFrom(address, `${api(n)}/api/waitlist/entry/${token}/confirm`, {});
      }
      const offerMails = await queryRows<{ text_body: string }>(db, sql`SELECT text_body FROM mail_outbox WHERE kind = 'waitlist_offer' AND recipient LIKE 'parent%'`);
      for (const mail of offerMails) {
        const accepted = await postJsonFrom<{ slotId: number; token: string }>(from(), `${api(n)}/api/waitlist/offer/${linkToken(mail.text_body, 'offer')}/accept`, {});
        if (accepted.status === 200) tokens.set(accepted.body.data.slotId, accepted.body.data.token);
      }
      // Staff add a slot now and then: freed while the attacker's entries wait, it goes to the list first.
      if (round % 4 === 1) {
        const startAt = atMY(addDays(dateInMY(new Date()), 10 + round), '15:00');
        await db.db.insert(slots).values({ startAt, endAt: new Date(startAt.getTime() + 30 * 60_000) }).onConflictDoNothing();
      }
      await pass();
      const now = await counts();
      worst = Math.max(worst, now.held / now.bookable);
      expect(now.held).toBeLessThanOrEqual(0.2 * now.bookable);
      await shift(ROUND_MINUTES);
    }
    // It did try every door: holds, payments, challenges solved, waitlist entries (whose offers its share left no room for).
    const [tried] = await queryRows<{ payments: number; entries: number }>(
      db,
      sql`SELECT (SELECT count(*)::int FROM payments) AS payments, (SELECT count(*)::int FROM waitlist_entries) AS entries`,
    );
    expect(tried.payments).toBeGreaterThan(0);
    expect(tried.entries).toBeGreaterThan(0);
    expect(solved).toBeGreaterThan(0);
    expect(worst).toBeGreaterThan(0.1);
  });

  it('16 other /24s joining the waitlist 3 times each, no work: they hold no slot anyone could book; a slot freed later goes to the first in line alone', async () => {
    const range = { fromDate: dateInMY(new Date()), toDate: addDays(dateInMY(new Date()), 21) };
    for (let network = 0; network < 16; network++)
      for (let k = 0; k < 3; k++) {
        const i = 2000 + network * 3 + k;
        expect(await joinAndConfirm(db, api(i), `127.0.${20 + network}.${k + 2}`, joinBody(i, range))).toBe(200);
      }
    for (let hour = 0; hour < 3; hour++) {
      await pass();
      expect(await counts()).toMatchObject({ held: 0, offers: 0, bookable: SLOTS });
      expect(await publicIds()).toHaveLength(SLOTS);
      await shift(60);
    }
    // A staff member adds a slot: freed while they wait, offered to the first entry in line, and to nobody else.
    const startAt = atMY(addDays(dateInMY(new Date()), 12), '15:30');
    const [added] = await db.db.insert(slots).values({ startAt, endAt: new Date(startAt.getTime() + 30 * 60_000) }).returning();
    await pass();
    const offers = await queryRows<{ slot_id: number; email: string }>(
      db,
      sql`SELECT o.slot_id, e.email FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id WHERE o.outcome IS NULL`,
    );
    expect(offers).toEqual([{ slot_id: added.id, email: 'parent2000@example.com' }]);
    expect(await counts()).toMatchObject({ held: 1, offers: 1 });
  });
});
