// `node --import tsx bench/insights.ts` (package.json is frozen, so there is no `bench:insights` script): the six
// Insights routes (`GET /staff/insights/*`, issue 41) on a season of data in a throwaway PostgreSQL database: 60,000
// slots of which 50,000 seats booked, ~71,000 payments, 200,000 payment events, booking events, waitlist entries and
// offers, hold grants, seeded with set-based SQL. Each route is called 50 times for each period and school; p50/p95
// are written to docs/PERFORMANCE.md and the run fails if any route's p95 reaches 100 ms.
import { addDays, brand, HOLD_TIME_WINDOW_MINUTES, todayInMY } from 'shared-api/contract';
import { stopChild } from '../scripts/product';
import { createDatabase, pg, startServer, staffToken, type Server } from './api/server';
import { loadAverage, median, percentile, today, writeDocSection } from './doc';

const CALLS = Number(process.env.BENCH_INSIGHTS_CALLS) || 50;
const LIMIT_MS = 100;
const section = '## Insights at a season\'s size (bench/insights.ts)';
const ROUTES = ['fill-rate', 'popular-times', 'waitlist', 'checkout', 'attendance', 'money'];

// The season: 50 weeks (40 past, this one, 9 ahead), weekdays, 40 starts a day (08:00-17:45 GMT+8, 15 min), 6 seats.
const WEEKS_BACK = 40;
const SLOTS = 60_000;
const ATTEMPTS = 20_000; // payments started that never paid (failed, cancelled, expired, still open)
const ENTRIES = 10_000;
const OFFERS = 8_000;
const GRANTS = 30_000;
const PAYMENT_EVENTS = 200_000;
// Each payment and entry has a consent of its own (payments.consent_id is unique): where each kind's ids start.
const CONSENTS = { cancelled: SLOTS, attempts: 2 * SLOTS, entries: 2 * SLOTS + ATTEMPTS };

/** The seed, one statement per table, all set-based; triggers (a NOTIFY per slot) are off for this session only. */
function seedSql(schools: string[]): string[] {
  const school = (n: string) => `(ARRAY[${schools.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}])[(${n}) % ${schools.length} + 1]`;
  // Monday 08:00 GMT+8 (00:00 UTC) of the week WEEKS_BACK weeks before this one.
  const base = `(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '${WEEKS_BACK} weeks') AT TIME ZONE 'UTC'`;
  return [
    `SET session_replication_role = replica`,
    `INSERT INTO consents (id, notice_version, language, channel, given_at)
       SELECT g, 'v1', 'en', 'web', now() FROM generate_series(1, ${CONSENTS.entries + ENTRIES}) g`,
    `SELECT setval('consents_id_seq', (SELECT max(id) FROM consents))`,
    // Slot i (id i+1): week i/1200, weekday (i%1200)/240, start (i%240)/6, seat i%6+1. Seats 1-5 are booked, seat 6 is free.
    `INSERT INTO slots (id, start_at, end_at, status, visitor_name, visitor_email, visitor_contact_no, selected_school,
                        booking_reference, amount_sen, booked_at, consent_id, child_name, child_year, seat)
       SELECT i + 1, s, s + interval '15 minutes',
              CASE WHEN i % 6 < 5 THEN 'booked' ELSE 'available' END,
              CASE WHEN i % 6 < 5 THEN 'Parent ' || i END, CASE WHEN i % 6 < 5 THEN 'p' || i || '@example.com' END,
              CASE WHEN i % 6 < 5 THEN '0123456789' END, CASE WHEN i % 6 < 5 THEN ${school('i / 6')} END,
              CASE WHEN i % 6 < 5 THEN 'REF' || i END, CASE WHEN i % 6 < 5 THEN 5000 END,
              CASE WHEN i % 6 < 5 THEN s - interval '10 days' END, CASE WHEN i % 6 < 5 THEN i + 1 END,
              CASE WHEN i % 6 < 5 THEN 'Child ' || i END, CASE WHEN i % 6 < 5 THEN 'Year 1' END, (i % 6 + 1)::smallint
       FROM generate_series(0, ${SLOTS - 1}) i,
            LATERAL (SELECT ${base} + (i / 1200) * interval '7 days' + ((i % 1200) / 240) * interval '1 day'
                            + ((i % 240) / 6) * interval '15 minutes' AS s) t`,
    `SELECT setval('slots_id_seq', ${SLOTS})`,
    // One paid payment per booked seat, created 1-30 days before the visit (before now, for a visit ahead); every 10th start's seats 1 and 2 are one
    // payment of two children (seat 2 has no payment of its own); 3 % refunded; 1 in 4 paid by card, e-wallet, FPX.
    `INSERT INTO payments (id, reference, slot_id, status, amount_sen, method, visitor_name, visitor_email, visitor_contact_no,
                           selected_school, hold_token, gateway, session_expires_at, completed_at, created_at, paid_amount_sen,
                           refund_amount_sen, booking_status, consent_id)
       SELECT 'pay_' || s.id, 'R' || s.id, s.id, CASE WHEN s.id % 33 = 0 THEN 'refunded' ELSE 'completed' END,
              CASE WHEN s.seat = 1 AND ((s.id - 1) / 6) % 10 = 0 THEN 10000 ELSE 5000 END,
              (ARRAY['fpx','card','ewallet','fpx'])[s.id % 4 + 1], s.visitor_name, s.visitor_email, s.visitor_contact_no,
              s.selected_school, 'hold_' || s.id, 'sandbox', c.at + interval '15 minutes', c.at + interval '3 minutes', c.at,
              CASE WHEN s.seat = 1 AND ((s.id - 1) / 6) % 10 = 0 THEN 10000 ELSE 5000 END,
              CASE WHEN s.id % 33 = 0 THEN 5000 END, 'booked', s.id
       FROM slots s, LATERAL (SELECT LEAST(s.start_at, now()) - (1 + s.id % 30) * interval '1 day' - (s.id % 600) * interval '1 minute' AS at) c
       WHERE s.status = 'booked' AND NOT (s.seat = 2 AND ((s.id - 1) / 6) % 10 = 0)`,
    `INSERT INTO payment_children (payment_id, position, slot_id, child_name, child_year, selected_school, fee_sen, discount_sen, amount_sen)
       SELECT 'pay_' || s.id, k, s.id + k - 1, 'Child ' || k, 'Year 1', s.selected_school, 5000, 0, 5000
       FROM slots s, generate_series(1, 2) k WHERE s.seat = 1 AND ((s.id - 1) / 6) % 10 = 0 AND s.status = 'booked'`,
    // Bookings cancelled before the seat was booked again (seat 3 of every 5th start): a refunded, cancelled payment a
    // day before the seat's live payment; half by the parent, half by staff.
    `INSERT INTO payments (id, reference, slot_id, status, amount_sen, method, visitor_name, visitor_email, visitor_contact_no,
                           selected_school, hold_token, gateway, session_expires_at, completed_at, created_at, paid_amount_sen,
                           refund_amount_sen, booking_status, cancelled_at, cancelled_by, consent_id)
       SELECT 'gone_' || p.slot_id, 'G' || p.slot_id, p.slot_id, 'refunded', 5000, p.method, 'Earlier ' || p.slot_id,
              'e' || p.slot_id || '@example.com', '0123456789', p.selected_school, 'hold_gone_' || p.slot_id, 'sandbox',
              p.created_at - interval '2 days', p.created_at - interval '2 days' + interval '3 minutes', p.created_at - interval '2 days',
              5000, 5000, 'cancelled', p.created_at - interval '1 day' - (p.slot_id % 300) * interval '1 minute',
              CASE WHEN p.slot_id % 2 = 0 THEN 'parent' ELSE 'admin@example.com' END, ${CONSENTS.cancelled} + p.slot_id
       FROM payments p JOIN slots s ON s.id = p.slot_id WHERE s.seat = 3 AND ((s.id - 1) / 6) % 5 = 0`,
    // Payments started that never paid, on booked seats, spread over the season.
    `INSERT INTO payments (id, reference, slot_id, status, amount_sen, method, visitor_name, visitor_email, visitor_contact_no,
                           selected_school, hold_token, gateway, session_expires_at, created_at, failure_reason, consent_id)
       SELECT 'try_' || g, 'T' || g, s.id,
              (ARRAY['failed','failed','cancelled','pending'])[g % 4 + 1], 5000,
              CASE WHEN g % 5 = 0 THEN NULL ELSE (ARRAY['fpx','card','ewallet'])[g % 3 + 1] END,
              'Try ' || g, 't' || g || '@example.com', '0123456789', s.selected_school, 'hold_try_' || g, 'sandbox',
              LEAST(s.start_at, now()) - interval '5 days', LEAST(s.start_at, now()) - interval '5 days' - interval '15 minutes',
              CASE WHEN g % 4 = 0 THEN 'Payment session expired' WHEN g % 4 = 1 THEN 'Card declined' END,
              ${CONSENTS.attempts} + g
       FROM generate_series(1, ${ATTEMPTS}) g JOIN slots s ON s.id = (g * 3) % ${SLOTS} + 1 AND s.status = 'booked'`,
    `INSERT INTO booking_events (payment_id, kind, actor, created_at)
       SELECT id, 'booked', 'parent', completed_at FROM payments WHERE completed_at IS NOT NULL
       UNION ALL SELECT id, 'cancelled', cancelled_by, cancelled_at FROM payments WHERE booking_status = 'cancelled'
       UNION ALL SELECT id, 'rescheduled', CASE WHEN slot_id % 3 = 0 THEN 'admin@example.com' ELSE 'parent' END, completed_at + interval '2 days'
         FROM payments WHERE booking_status = 'booked' AND slot_id % 25 = 0`,
    `INSERT INTO payment_events (gateway, event_id, payment_id, kind, received_at)
       SELECT 'sandbox', p.id || '_' || k, p.id, (ARRAY['created','authorised','settled'])[k], p.created_at + k * interval '1 minute'
       FROM payments p, generate_series(1, 3) k LIMIT ${PAYMENT_EVENTS}`,
    // Waitlist entries over the season (every sixth never confirmed), the first OFFERS of them offered a seat.
    `INSERT INTO waitlist_entries (id, school, name, email, phone, locale, from_date, to_date, part_of_day, joined_at, state,
                                   token_hash, consent_id)
       SELECT g, ${school('g')}, 'Waiting ' || g, 'w' || g || '@example.com', '01' || lpad(g::text, 8, '0'), 'en',
              j::date, j::date + 14, 'any', j,
              (ARRAY['waiting','offered','booked','expired','left','pending'])[g % 6 + 1], 'wt' || g, ${CONSENTS.entries} + g
       FROM generate_series(1, ${ENTRIES}) g, LATERAL (SELECT ${base} + (g % 350) * interval '1 day' + (g % 480) * interval '1 minute' AS j) t`,
    `SELECT setval('waitlist_entries_id_seq', ${ENTRIES})`,
    `INSERT INTO waitlist_offers (entry_id, slot_id, token_hash, hold_token, created_at, starts_at, expires_at, outcome, ended_at)
       SELECT e.id, e.id, 'wo' || e.id, 'hold_offer_' || e.id, e.joined_at + interval '1 day', e.joined_at + interval '1 day',
              e.joined_at + interval '2 days', (ARRAY['booked','declined','expired','cancelled', NULL])[e.id % 5 + 1],
              CASE WHEN e.id % 5 < 4 THEN e.joined_at + interval '30 hours' END
       FROM waitlist_entries e WHERE e.id <= ${OFFERS}`,
    // Hold grants as a running server keeps them: each new grant sweeps those past HOLD_TIME_WINDOW_MINUTES
    // (checkout/hold-time.ts), so only the window's are there: those of the recent payments, the rest never paid (an
    // enrolment rush's worth). Runs before 2026-11-29 13:00 spread 30,000 grants over 50 days, which no server keeps.
    `INSERT INTO hold_grants (slot_id, token_hash, client, started_at, ends_at)
       SELECT p.slot_id, encode(sha256(convert_to(p.hold_token, 'UTF8')), 'hex'), 'c' || (p.slot_id % 900),
              p.created_at - interval '2 minutes', p.created_at + interval '8 minutes'
       FROM payments p WHERE p.created_at > now() - make_interval(mins => ${HOLD_TIME_WINDOW_MINUTES}) ORDER BY p.created_at DESC LIMIT ${GRANTS / 2}`,
    `INSERT INTO hold_grants (slot_id, token_hash, client, started_at, ends_at)
       SELECT g % ${SLOTS} + 1, 'never' || g, 'c' || (g % 900), t.at, t.at + interval '10 minutes'
       FROM generate_series(1, ${GRANTS}) g, LATERAL (SELECT now() - (g % ${HOLD_TIME_WINDOW_MINUTES - 10}) * interval '1 minute' AS at) t`,
    `SET session_replication_role = DEFAULT`,
    `ANALYZE`,
  ];
}

type Case = { label: string; from: string; to: string; school?: string };

async function main() {
  const database = await createDatabase('PostgreSQL');
  let server: Server | undefined;
  const client = new pg.Client({ connectionString: database.url });
  try {
    server = await startServer(database);
    const token = await staffToken(server.url);
    await client.connect();
    const schools = brand.schools.map((s) => s.name);
    const seedStarted = performance.now();
    for (const statement of seedSql(schools)) await client.query(statement);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const counts = (
      await client.query(`SELECT (SELECT count(*) FROM slots)::int AS slots, (SELECT count(*) FROM slots WHERE status = 'booked')::int AS booked,
        (SELECT count(*) FROM payments)::int AS payments, (SELECT count(*) FROM payment_events)::int AS "paymentEvents",
        (SELECT count(*) FROM booking_events)::int AS "bookingEvents", (SELECT count(*) FROM waitlist_entries)::int AS entries,
        (SELECT count(*) FROM waitlist_offers)::int AS offers, (SELECT count(*) FROM hold_grants)::int AS grants,
        (SELECT count(*) FROM payment_children)::int AS children`)
    ).rows[0] as Record<string, number>;
    console.log(`seeded in ${seedSeconds.toFixed(1)} s:`, counts);

    const now = todayInMY();
    const seasonFrom = addDays(now, -WEEKS_BACK * 7 - 7);
    const cases: Case[] = [
      { label: 'this week', from: now, to: addDays(now, 6) },
      { label: 'next 4 weeks', from: now, to: addDays(now, 27) },
      { label: 'the season (50 weeks)', from: seasonFrom, to: addDays(seasonFrom, 365) },
    ].flatMap((c) => [c, { ...c, label: `${c.label}, one school`, school: schools[1] }]);

    const timings = new Map<string, number[]>(ROUTES.map((r) => [r, []]));
    const worst = new Map<string, { p95: number; label: string }>();
    for (const route of ROUTES) {
      for (const c of cases) {
        const query = new URLSearchParams({ from: c.from, to: c.to, ...(c.school ? { school: c.school } : {}) });
        const url = `${server.url}/staff/insights/${route}?${query}`;
        const call = async () => {
          const started = performance.now();
          const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
          const body = await response.text();
          if (response.status !== 200) throw new Error(`${route} ${c.label}: ${response.status} ${body.slice(0, 300)}`);
          return performance.now() - started;
        };
        await call(); // the first call plans the statements; it is not counted
        const here: number[] = [];
        for (let i = 0; i < CALLS; i++) here.push(await call());
        timings.get(route)!.push(...here);
        const p95 = percentile(here, 95);
        if (!worst.has(route) || worst.get(route)!.p95 < p95) worst.set(route, { p95, label: c.label });
      }
      const all = timings.get(route)!;
      console.log(`${route}: p50 ${median(all).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms, worst case p95 ${worst.get(route)!.p95.toFixed(1)} ms (${worst.get(route)!.label})`);
    }

    const load = loadAverage();
    const rows = ROUTES.map((route) => {
      const all = timings.get(route)!;
      const w = worst.get(route)!;
      return `| \`GET /staff/insights/${route}\` | ${median(all).toFixed(1)} | ${percentile(all, 95).toFixed(1)} | ${w.p95.toFixed(1)} (${w.label}) |`;
    });
    const failing = ROUTES.filter((route) => worst.get(route)!.p95 >= LIMIT_MS);
    writeDocSection(
      section,
      `${section}

Measured by \`node --import tsx bench/insights.ts\` (package.json has no script for it) on ${today()}, load average
${load} (1/5/15 min), on a shared 2-core machine: one API process (\`server/src/main.ts\`) on a throwaway PostgreSQL
database seeded with set-based SQL in ${seedSeconds.toFixed(0)} s: ${counts.slots.toLocaleString('en')} slots over 50 weeks
(40 past, ${counts.booked.toLocaleString('en')} seats booked), ${counts.payments.toLocaleString('en')} payments
(${counts.children.toLocaleString('en')} child lines, cancellations rebooked, ${ATTEMPTS.toLocaleString('en')} never paid),
${counts.paymentEvents.toLocaleString('en')} payment events, ${counts.bookingEvents.toLocaleString('en')} booking events,
${counts.entries.toLocaleString('en')} waitlist entries, ${counts.offers.toLocaleString('en')} offers,
${counts.grants.toLocaleString('en')} hold grants. Each route is called ${CALLS} times (after one uncounted call) for each of
${cases.length} cases: this week, the next 4 weeks, the whole season (366 days), each for all schools and one school;
loopback HTTP with a staff token, one call at a time. The run fails if a case's p95 reaches ${LIMIT_MS} ms.

| route | p50 ms | p95 ms | worst case's p95 ms |
| --- | --- | --- | --- |
${rows.join('\n')}
`,
    );
    if (failing.length) {
      console.error(`p95 ≥ ${LIMIT_MS} ms: ${failing.join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await client.end().catch(() => {});
    if (server) await stopChild(server.child);
    // BENCH_INSIGHTS_KEEP=1 keeps the seeded database for EXPLAIN ANALYZE (drop it by hand afterwards).
    if (process.env.BENCH_INSIGHTS_KEEP === '1') console.log(`kept ${database.url}`);
    else await database.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
