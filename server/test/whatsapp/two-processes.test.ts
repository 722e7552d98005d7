jest.setTimeout(180_000);
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { JobEngine } from '../../src/base/jobs/engine';
import { enqueueWhatsApp, signWebhookBody } from '../../src/whatsapp';
import { WhatsAppQueue } from '../../src/whatsapp/send-job';
import { queryRows } from '../helpers';
import { removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from '../payments/support';
import { startStandIn, statusesBody } from './support';

// Two real API processes on one PostgreSQL work the `whatsapp` queue of 200 messages written at once; the stand-in
// Cloud API counts what it receives and, for each message, posts signed statuses to both processes out of order and
// twice (read before delivered before sent). Each message is sent exactly once, each status recorded once, and every
// message ends read at its read time.

const APP_SECRET = 'two-process-whatsapp-secret';
const silent = { info: () => {}, warn: () => {}, error: () => {} };
// 10:00 GMT+8: inside sending hours, so every message is due at once.
const DAYTIME = new Date('2026-03-02T02:00:00Z');
const T0 = Math.floor(DAYTIME.getTime() / 1000);

describe('WhatsApp sending with two API processes on PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void>;
  let url: string;
  let db: DatabaseHandle;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  const servers: string[] = [];
  const posts: Promise<unknown>[] = [];

  beforeAll(async () => {
    ({ url, drop } = await throwawayPostgres('whatsapp_two'));
  });
  afterAll(async () => {
    await Promise.allSettled(posts);
    await stopAll(children);
    await db?.close();
    await drop?.();
    await standIn?.close();
    removeProcessDirs();
  });

  it('200 messages, two processes: each sent once, its statuses (duplicated, out of order) recorded once, each ends read', async () => {
    const signedPost = (base: string, body: unknown) => {
      const payload = JSON.stringify(body);
      return fetch(`${base}/api/whatsapp/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(APP_SECRET, payload) }, body: payload });
    };
    standIn = await startStandIn();
    const env = {
      DATABASE_URL: url,
      SANDBOX_SECRET,
      SEED_DEMO: 'false',
      RECONCILE_INTERVAL_MS: '600000',
      MAIL_POLL_MS: '600000',
      WAITLIST_QUIET_HOURS: 'off',
      WHATSAPP_API: standIn.url,
      WHATSAPP_PHONE_NUMBER_ID: '123456',
      WHATSAPP_ACCESS_TOKEN: 'token-2',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-2',
    };
    const a = await startApiProcess('whatsapp-two', env);
    const b = await startApiProcess('whatsapp-two', env);
    children.push(a.child, b.child);
    servers.push(a.base, b.base);
    db = await openDatabase({ driver: 'postgres', url, poolSize: 6 });

    // 200 messages written in one transaction, as 200 bookings' reminders due at once would be.
    await db.db.transaction(async (tx) => {
      for (let i = 1; i <= 200; i++)
        await enqueueWhatsApp(tx, { dedupeKey: `booking:pay-${i}:reminder`, kind: 'visit_reminder', locale: (['en', 'ms', 'zh'] as const)[i % 3], to: `+6012${String(1000000 + i)}`, input: { parentName: `Parent ${i}`, children: `Child ${i}`, school: 'Seri Ilmu', date: '2 March 2026', time: '10:00 AM', manageUrl: `http://site.test/booking/manage/${i}` }, paymentId: `pay-${i}`, now: DAYTIME, optIn: { at: new Date(0), withdrawnAt: null } });
    });
    // The commit's wake-up, from here (each process's relay would queue them within a minute too).
    const jobs = new JobEngine(db, silent);
    await new WhatsAppQueue({ db: db.db, jobs, api: { send: () => Promise.reject(new Error('not this one')) }, retrySeconds: 30, giveUpHours: 24 }).enqueuePending();
    await jobs.stop();

    // Each accepted message: its statuses to both processes, read first, each twice.
    const seen = new Set<string>();
    await waitFor(async () => {
      for (const r of standIn.received)
        if (r.wamid && !seen.has(r.wamid)) {
          seen.add(r.wamid);
          const w = r.wamid;
          for (const base of [...servers, ...servers.slice().reverse()])
            posts.push(
              signedPost(base, statusesBody([{ id: w, status: 'read', timestamp: T0 + 30 }]))
                .then(() => signedPost(base, statusesBody([{ id: w, status: 'delivered', timestamp: T0 + 20 }])))
                .then(() => signedPost(base, statusesBody([{ id: w, status: 'sent', timestamp: T0 + 10 }]))),
            );
        }
      return standIn.received.length >= 200;
    }, 120_000, 100);
    await waitFor(async () => {
      for (const r of standIn.received)
        if (r.wamid && !seen.has(r.wamid)) return false;
      await Promise.all(posts);
      return true;
    }, 30_000, 100);
    // Anything left to send would have gone by now.
    await new Promise((r) => setTimeout(r, 3_000));

    expect(standIn.received).toHaveLength(200);
    const to = standIn.received.map((r) => r.body.to as string);
    expect(new Set(to).size).toBe(200);
    const states = await queryRows<{ state: string; n: number; at: number }>(
      db,
      sql`SELECT state, count(*)::int AS n, max(extract(epoch FROM state_at))::int AS at FROM whatsapp_messages GROUP BY state`,
    );
    expect(states).toEqual([{ state: 'read', n: 200, at: T0 + 30 }]);
    const events = await queryRows<{ n: number; distinct_pairs: number }>(db, sql`SELECT count(*)::int AS n, count(DISTINCT (wamid, status))::int AS distinct_pairs FROM whatsapp_events`);
    expect(events).toEqual([{ n: 600, distinct_pairs: 600 }]);
    const attempts = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM whatsapp_messages WHERE attempts <> 1`);
    expect(attempts).toEqual([{ n: 0 }]);
  });
});
