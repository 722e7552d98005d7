jest.setTimeout(240_000);
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { listenFakeWhatsApp } from '../../src/whatsapp';
import { queryRows } from '../helpers';
import { removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from '../payments/support';
import { bookedVisit } from '../reminders/support';

// Issue 38: 200 booked visits whose WhatsApp reminders all come due at once, two real API processes on one PostgreSQL
// running the reminder pass and the `whatsapp` queue, and the local fake of the Cloud API (its own server) posting each
// status late, twice, newest first, to one process or the other. Each reminder is sent exactly once, each status
// recorded once, and every message ends read at its read time (the platform's order, not the posts').

const APP_SECRET = 'reminders-two-processes-secret';
const VISITS = 200;

describe('200 WhatsApp reminders due at once, two API processes, a fake that delays and duplicates', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void>;
  let db: DatabaseHandle;
  let fake: Awaited<ReturnType<typeof listenFakeWhatsApp>>;

  afterAll(async () => {
    await fake?.cloud.settled();
    await stopAll(children);
    await fake?.close();
    await db?.close();
    await drop?.();
    removeProcessDirs();
  });

  it('each reminder sent once, each status recorded once, each message ends read', async () => {
    const pg = await throwawayPostgres('whatsapp_reminders');
    drop = pg.drop;
    db = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 6 });
    await migrate(db);
    // 200 paid visits over the next days, booked a month ago, opted in, each parent their own number.
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    const first = Math.ceil((Date.now() + 26 * 3_600_000) / 1_800_000) * 1_800_000;
    for (let i = 0; i < VISITS; i++) await bookedVisit(db.db, new Date(first + i * 1_800_000), { bookedAt: monthAgo });
    await db.db.execute(sql`
      UPDATE payments SET whatsapp_opt_in_at = ${monthAgo.toISOString()}::timestamptz,
        visitor_contact_no = '012' || lpad((7000000 + n)::text, 7, '0')
      FROM (SELECT id AS pid, row_number() OVER (ORDER BY id) AS n FROM payments) numbered WHERE numbered.pid = payments.id`);

    const bases: string[] = [];
    let turn = 0;
    fake = await listenFakeWhatsApp({
      phoneNumberId: '123456',
      accessToken: 'token-r',
      appSecret: async () => APP_SECRET,
      // To one process or the other, as Meta's deliveries land on any replica behind the balancer.
      postWebhook: async (raw, signature) => {
        const base = bases[turn++ % bases.length];
        const res = await fetch(`${base}/api/whatsapp/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: raw });
        return res.status;
      },
      delayMs: 300,
      duplicateWebhooks: true,
      reorderWebhooks: true,
    });
    // Every visit's reminder is due now: ten days before at 00:00 GMT+8 has passed for each.
    const env = {
      DATABASE_URL: pg.url,
      SANDBOX_SECRET,
      SEED_DEMO: 'false',
      RECONCILE_INTERVAL_MS: '600000',
      MAIL_POLL_MS: '600000',
      REMINDER_INTERVAL_MS: '1000',
      REMINDER_DAYS_BEFORE: '10',
      REMINDER_TIME: '00:00',
      WHATSAPP_QUIET_HOURS: 'off',
      WHATSAPP_API: fake.url,
      WHATSAPP_PHONE_NUMBER_ID: '123456',
      WHATSAPP_ACCESS_TOKEN: 'token-r',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-r',
    };
    const [a, b] = await Promise.all([startApiProcess('wa-reminders', env), startApiProcess('wa-reminders', env)]);
    children.push(a.child, b.child);
    bases.push(a.base, b.base);

    const sent = () => fake.cloud.conversation().filter((m) => m.direction === 'out');
    await waitFor(async () => sent().length >= VISITS, 150_000, 250);
    await waitFor(async () => {
      const [{ n }] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM whatsapp_messages WHERE state = 'read'`);
      return n === VISITS;
    }, 60_000, 250);
    await fake.cloud.settled();
    // Anything a process would still send or record would have happened by now.
    await new Promise((r) => setTimeout(r, 3_000));

    const out = sent();
    expect(out).toHaveLength(VISITS);
    expect(new Set(out.map((m) => (m as { to: string }).to)).size).toBe(VISITS);
    expect(new Set(out.map((m) => (m as { template?: string }).template))).toEqual(new Set(['visit_reminder_v1']));
    const messages = await queryRows<{ kind: string; state: string; n: number; attempts: number }>(
      db,
      sql`SELECT kind, state, count(*)::int AS n, max(attempts)::int AS attempts FROM whatsapp_messages GROUP BY kind, state`,
    );
    expect(messages).toEqual([{ kind: 'visit_reminder', state: 'read', n: VISITS, attempts: 1 }]);
    // Each status once (the fake posted each twice); the state's time is the read status's own.
    const events = await queryRows<{ n: number; pairs: number }>(db, sql`SELECT count(*)::int AS n, count(DISTINCT (wamid, status))::int AS pairs FROM whatsapp_events`);
    expect(events).toEqual([{ n: 3 * VISITS, pairs: 3 * VISITS }]);
    const late = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM whatsapp_messages m WHERE m.state_at IS DISTINCT FROM (SELECT e.platform_at FROM whatsapp_events e WHERE e.wamid = m.wamid AND e.status = 'read')`,
    );
    expect(late).toEqual([{ n: 0 }]);
    // And each visit's mail reminder, once, beside it.
    const reminders = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM booking_reminders`);
    expect(reminders).toEqual([{ n: VISITS }]);
  });
});
