// `npm run bench:waitlist`: a full timetable, 500 parents on the waitlist, and 100 bookings cancelled by staff in one
// burst through two API processes on one throwaway PostgreSQL database. Every freed slot must be offered exactly once,
// to the first 100 parents in line; the figure is the time from a slot freeing (its cancel sent) to its offer mail being
// queued in the outbox. Written to docs/PERFORMANCE.md. Run it between 07:00 and 22:00 GMT+8 (in quiet hours the
// offers wait for 07:00 by design).
import http from 'node:http';
import { addDays, formatMinutes24, isWeekend, todayInMY } from 'shared-api/contract';
import { currentNoticeVersion } from 'shared-api/privacy';
import { stopChild } from '../scripts/product';
import { createDatabase, pg, startServer, staffToken, type Server } from './api/server';
import { loadAverage, percentile, today, writeDocSection } from './doc';

const ENTRIES = Number(process.env.BENCH_WAITLIST_ENTRIES) || 500;
const SLOTS = Number(process.env.BENCH_WAITLIST_SLOTS) || 100;
const section = '## Waitlist: a burst of freed slots (bench:waitlist)';
const school = { name: 'Seri Ilmu Private Secondary', year: 'Form 1' };

const post = (url: string, body: unknown, headers: Record<string, string> = {}, localAddress?: string, method = 'POST') =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      url,
      { method, localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });

const must = (what: string, r: { status: number; body: string }, ok = [200, 201, 202]) => {
  if (!ok.includes(r.status)) throw new Error(`${what}: ${r.status} ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body) as { data: Record<string, unknown> };
};

async function main() {
  const database = await createDatabase('PostgreSQL');
  const servers: Server[] = [];
  const client = new pg.Client({ connectionString: database.url });
  try {
    servers.push(await startServer(database), await startServer(database));
    const [a, b] = servers.map((s) => s.url);
    await client.connect();
    const token = await staffToken(a);
    const auth = { authorization: `Bearer ${token}` };

    // A full timetable: SLOTS slots from the day after tomorrow, each booked by staff before anyone joins the list.
    const wanted: { date: string; startTime: string; endTime: string }[] = [];
    for (let day = addDays(todayInMY(), 2); wanted.length < SLOTS; day = addDays(day, 1)) {
      if (isWeekend(day)) continue;
      for (let m = 8 * 60; m < 18 * 60 && wanted.length < SLOTS; m += 30) wanted.push({ date: day, startTime: formatMinutes24(m), endTime: formatMinutes24(m + 30) });
    }
    const references: string[] = [];
    for (let i = 0; i < wanted.length; i += 10) {
      await Promise.all(
        wanted.slice(i, i + 10).map(async (slot, k) => {
          const created = must('add slot', await post(`${a}/slot/add`, slot, auth)).data.slot as { id: number };
          const booked = must(
            'book',
            await post(
              `${b}/slot/${created.id}`,
              { visitorName: `Booked ${i + k}`, visitorEmail: `booked${i + k}@example.com`, visitorContactNo: `01${50_000_000 + i + k}`, selectedSchool: school.name, childName: 'Child Booked', childYear: school.year },
              auth,
              undefined,
              'PUT',
            ),
          ).data.slot as { bookingReference: string };
          references.push(booked.bookingReference);
        }),
      );
    }
    const lastDay = wanted[wanted.length - 1].date;
    console.log(`${references.length} slots booked, up to ${lastDay}`);

    // ENTRIES parents join, each from a network of their own, through both processes.
    const joinStarted = performance.now();
    for (let i = 0; i < ENTRIES; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, ENTRIES - i) }, (_, k) => {
          const n = i + k;
          return post(
            `${n % 2 ? b : a}/api/waitlist`,
            {
              name: `Parent ${n}`,
              email: `parent${n}@example.com`,
              phone: `01${60_000_000 + n}`,
              school: school.name,
              childName: `Child ${n}`,
              childYear: school.year,
              fromDate: todayInMY(),
              toDate: addDays(lastDay, 1),
              partOfDay: 'any',
              locale: 'en',
              privacyConsent: { noticeVersion: currentNoticeVersion(), language: 'en' },
            },
            {},
            `127.${1 + Math.floor(n / 250)}.${n % 250}.2`,
          ).then((r) => must(`join ${n}`, r));
        }),
      );
    }
    // Each confirmed from its mail, in order (issue 35: a join is a request until then; the place counts from confirming).
    const confirmMails = await client.query<{ recipient: string; text_body: string }>(`SELECT recipient, text_body FROM mail_outbox WHERE kind = 'waitlist_confirm'`);
    const tokenOf = new Map(confirmMails.rows.map((m) => [m.recipient, /\/waitlist\/([A-Za-z0-9_-]{43})\n/.exec(m.text_body)?.[1]]));
    for (let i = 0; i < ENTRIES; i += 25)
      await Promise.all(
        Array.from({ length: Math.min(25, ENTRIES - i) }, (_, k) => {
          const n = i + k;
          const token = tokenOf.get(`parent${n}@example.com`);
          return post(`${n % 2 ? b : a}/api/waitlist/entry/${token}/confirm`, {}, {}, `127.${1 + Math.floor(n / 250)}.${n % 250}.2`).then((r) => must(`confirm ${n}`, r));
        }),
      );
    const joinSeconds = (performance.now() - joinStarted) / 1000;
    console.log(`${ENTRIES} entries joined and confirmed in ${joinSeconds.toFixed(1)} s`);

    // The burst: every booking cancelled by staff at once, half through each process.
    const sentAt = new Map<string, number>();
    const burstStarted = Date.now();
    await Promise.all(
      references.map((reference, i) => {
        sentAt.set(reference, Date.now());
        return post(`${i % 2 ? b : a}/staff/bookings/${reference}/cancel`, { refund: false }, auth).then((r) => must(`cancel ${reference}`, r));
      }),
    );
    const burstSeconds = (Date.now() - burstStarted) / 1000;

    // Until every freed slot has its offer mail queued (or 120 s).
    const deadline = Date.now() + 120_000;
    let queued = 0;
    while (Date.now() < deadline) {
      queued = Number((await client.query(`SELECT count(*) AS n FROM waitlist_offers WHERE mail_queued_at IS NOT NULL`)).rows[0].n);
      if (queued >= SLOTS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const offers = (
      await client.query<{ slot_id: number; reference: string; position: string; mail_queued_at: Date; created_at: Date; freed_at: Date }>(`
        SELECT o.slot_id, a.target AS reference, e.position, o.mail_queued_at, o.created_at, c.at AS freed_at
        FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id
        JOIN audit_log a ON a.action = 'booking_direct' AND (a.detail->>'slotId')::int = o.slot_id
        JOIN audit_log c ON c.action = 'booking_cancelled_by_staff' AND c.target = a.target
        ORDER BY o.id`)
    ).rows;
    const firstPositions = (await client.query<{ position: string }>(`SELECT position FROM waitlist_entries ORDER BY position LIMIT ${SLOTS}`)).rows.map((r) => r.position);
    const offeredSlots = new Set(offers.map((o) => o.slot_id));
    const offeredPositions = new Set(offers.map((o) => o.position));
    const onceEach = offers.length === SLOTS && offeredSlots.size === SLOTS;
    const inOrder = firstPositions.every((p) => offeredPositions.has(p)) && offeredPositions.size === SLOTS;
    const mailed = offers.filter((o) => o.mail_queued_at);
    // From the cancel's transaction (the slot freed; its audit record's time) and from the cancel request being sent.
    const toQueued = mailed.map((o) => (new Date(o.mail_queued_at).getTime() - new Date(o.freed_at).getTime()) / 1000);
    const fromSent = mailed.map((o) => (new Date(o.mail_queued_at).getTime() - sentAt.get(o.reference)!) / 1000);
    const passes = Number((await client.query(`SELECT count(DISTINCT created_at) AS n FROM waitlist_offers`)).rows[0].n);
    const load = loadAverage();
    const figures = {
      entries: ENTRIES,
      slots: SLOTS,
      offers: offers.length,
      onceEach,
      inOrder,
      queued,
      passes,
      p50: percentile(toQueued, 50),
      p99: percentile(toQueued, 99),
      max: Math.max(...toQueued),
      sentP50: percentile(fromSent, 50),
      sentP99: percentile(fromSent, 99),
      burstSeconds,
      joinSeconds,
      load,
    };
    console.log(JSON.stringify(figures));
    if (!onceEach || !inOrder) throw new Error(`offers wrong: ${JSON.stringify(figures)}`);
    const file = writeDocSection(
      section,
      `${section}

Measured by \`npm run bench:waitlist\` on ${today()} (load average ${load}): two API processes (\`server/src/main.ts\`) on one
throwaway PostgreSQL database. ${SLOTS} slots, all booked by staff; ${ENTRIES} parents join the waitlist (each from a network
of its own, through both processes, ${joinSeconds.toFixed(1)} s); then staff cancel all ${SLOTS} bookings at once, half
through each process (${burstSeconds.toFixed(1)} s for the burst). Each cancel asks for an offer pass on the \`waitlist\`
queue; passes run one at a time across the processes (an advisory lock), each offering every freed slot it finds.

| figure | value |
| --- | --- |
| offers made | ${offers.length} (each slot once: ${onceEach ? 'yes' : 'NO'}) |
| offered to the first ${SLOTS} in line, one each | ${inOrder ? 'yes' : 'NO'} |
| offer passes that made offers | ${passes} |
| slot freed (the cancel's transaction) → offer mail queued, p50 / p99 / max | ${figures.p50.toFixed(2)} s / ${figures.p99.toFixed(2)} s / ${figures.max.toFixed(2)} s |
| cancel request sent → offer mail queued, p50 / p99 | ${figures.sentP50.toFixed(2)} s / ${figures.sentP99.toFixed(2)} s |

The second row adds the cancel's own request under the burst (100 at once on a shared machine). Passes coalesce: a
pass already queued takes every slot freed before it runs, so a burst ends in few passes. Run between 07:00 and 22:00 GMT+8: in quiet hours offers are held until 07:00 by design.
`,
    );
    console.log(`Written to ${file}`);
  } finally {
    await client.end().catch(() => {});
    for (const server of servers) await stopChild(server.child);
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
