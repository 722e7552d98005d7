jest.setTimeout(120_000);
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { addDays, dateInMY, waitlistSettings } from 'shared-api/contract';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { sha256 } from '../../src/base/crypto';
import { runOfferPass } from '../../src/waitlist/pass';
import { Checkout } from '../../src/checkout';
import { slots } from '../../src/slots/tables';
import { queryRows } from '../helpers';
import { postJsonFrom, removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from '../payments/support';
import { atMY, confirmTokenIn, joinAndConfirm, joinBody, weekdayFrom } from './support';

// Two real API processes on one PostgreSQL race to offer the same freed slots (their workers, passes started here on
// other connections, and reserves of the freed slots through both, all at once): each slot is offered exactly once, in
// order, each entry holds at most one live offer, and no reserve takes a freed slot from the list.

describe('waitlist offers with two API processes on PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void>;
  let url: string;
  let db: DatabaseHandle;
  const servers: string[] = [];

  beforeAll(async () => {
    ({ url, drop } = await throwawayPostgres('waitlist_race'));
  });
  afterAll(async () => {
    await stopAll(children);
    await db?.close();
    await drop?.();
    removeProcessDirs();
  });

  it('10 entries, 6 slots freed at once, passes and reserves racing on both processes: 6 offers to the first 6, one per slot', async () => {
    // Quiet hours off: the race is the same whatever the time of day it runs.
    const env = { DATABASE_URL: url, SANDBOX_SECRET, SEED_DEMO: 'false', RECONCILE_INTERVAL_MS: '600000', MAIL_POLL_MS: '600000', WAITLIST_QUIET_HOURS: 'off' };
    const a = await startApiProcess('waitlist-race', env);
    const b = await startApiProcess('waitlist-race', env);
    children.push(a.child, b.child);
    servers.push(a.base, b.base);
    db = await openDatabase({ driver: 'postgres', url, poolSize: 8 });

    const today = dateInMY(new Date());
    const range = { fromDate: today, toDate: addDays(today, 21) };
    for (let i = 1; i <= 10; i++) expect(await joinAndConfirm(db, (i % 2 ? a : b).base, `127.0.${i}.2`, joinBody(i, range))).toBe(200);
    // Six slots free at once (one statement), three days ahead or more: well past any quiet hours and the cut-off.
    const day = weekdayFrom(addDays(today, 4));
    const starts = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((t) => atMY(day, t));
    const freed = await db.db
      .insert(slots)
      .values(starts.map((s) => ({ startAt: s, endAt: new Date(s.getTime() + 30 * 60_000) })))
      .returning({ id: slots.id });
    const rules = { settings: { ...waitlistSettings(), quietHours: { from: '00:00', to: '00:00' } }, now: () => new Date() };
    const checkout = await Checkout.for(db.db);
    const links = { publicSiteUrl: 'http://site.test', mailFrom: 'Test <booking@example.com>' };
    const reserves = freed.flatMap(({ id }, n) =>
      [a, b].map((server, k) => postJsonFrom(`127.1.${n * 2 + k}.9`, `${server.base}/slot/${id}/reserve`, {})),
    );
    const [answers] = await Promise.all([Promise.all(reserves), runOfferPass(db.db, checkout, rules, links), runOfferPass(db.db, checkout, rules, links)]);
    // Nobody outside the list got a freed slot.
    for (const r of answers) expect(r.status).toBe(409);

    // The processes' own passes (poked by the reserves) may run too: wait until every freed slot is offered.
    await waitFor(async () => (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM waitlist_offers WHERE outcome IS NULL`))[0].n >= 6, 20_000, 100);
    const offers = await queryRows<{ slot_id: number; email: string; hold_token: string; hold_token_hash: string; hold_expires_at: Date; expires_at: Date }>(
      db,
      sql`SELECT o.slot_id, e.email, o.hold_token, s.hold_token_hash, s.hold_expires_at, o.expires_at
          FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id JOIN slots s ON s.id = o.slot_id ORDER BY s.start_at`,
    );
    expect(offers).toHaveLength(6);
    expect(offers.map((o) => o.slot_id)).toEqual(freed.map((f) => f.id));
    expect(offers.map((o) => o.email)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `parent${i}@example.com`));
    for (const o of offers) {
      expect(o.hold_token_hash).toBe(sha256(o.hold_token));
      expect(new Date(o.hold_expires_at)).toEqual(new Date(o.expires_at));
    }
    const states = await queryRows<{ state: string; n: number }>(db, sql`SELECT state, count(*)::int AS n FROM waitlist_entries GROUP BY state ORDER BY state`);
    expect(states).toEqual([
      { state: 'offered', n: 6 },
      { state: 'waiting', n: 4 },
    ]);
  });

  it('one parent joining 8 times at once through both processes: the same 202 for all, one request, one mail; 8 confirmations at once: one live entry', async () => {
    const today = dateInMY(new Date());
    const body = { ...joinBody(42, { fromDate: today, toDate: addDays(today, 10) }) };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postJsonFrom(`127.2.${i}.2`, `${servers[i % 2]}/api/waitlist`, { ...body, phone: i % 2 ? body.phone : `01${30_000_000 + i}` })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(202));
    const mails = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = 'parent42@example.com'`);
    expect(mails[0].n).toBe(1);
    const token = await confirmTokenIn(db, 'parent42@example.com');
    const confirmations = await Promise.all(Array.from({ length: 8 }, (_, i) => postJsonFrom(`127.3.${i}.2`, `${servers[i % 2]}/api/waitlist/entry/${token}/confirm`, {})));
    expect(confirmations.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const [{ n }] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE email = 'parent42@example.com' AND state IN ('waiting', 'offered')`);
    expect(n).toBe(1);
  });
});

