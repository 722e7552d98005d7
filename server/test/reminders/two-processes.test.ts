jest.setTimeout(180_000);
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { paymentForToken } from '../../src/manage/service';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { bookingReminders } from '../../src/bookings/tables';
import { mailOutbox } from '../../src/mail/tables';
import { startApiProcess, stopAll, type Server } from '../payments/server-process';
import { queryRows } from '../helpers';
import { throwawayPostgres, waitFor } from '../payments/support';
import { bookedVisit, minutes } from './support';

// Two real API processes (server/src/main.ts) on one PostgreSQL database, each looking for due reminders every 100 ms
// and sending mail to .eml files in a folder of its own: every parent receives exactly one reminder.
let database: DatabaseHandle;
let drop: () => Promise<void>;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let a: Server;
let b: Server;

async function startApi(url: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reminders-two-'));
  dataDirs.push(dataDir);
  const server = await startApiProcess('reminders-two', {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    REMINDER_INTERVAL_MS: '100',
    MAIL_POLL_MS: '200',
  });
  children.push(server.child);
  return server;
}

beforeAll(async () => {
  const pgdb = await throwawayPostgres('reminders_two');
  drop = pgdb.drop;
  // One after the other: the first migrates.
  a = await startApi(pgdb.url);
  b = await startApi(pgdb.url);
  database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 });
});
afterAll(async () => {
  await stopAll(children);
  await database?.close();
  await drop?.();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The reminder messages both processes have written, as files. */
const reminderFiles = () =>
  dataDirs.flatMap((dir) => {
    const folder = path.join(dir, 'mail');
    return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.eml') && f.includes('.reminder-')).map((f) => path.join(folder, f)) : [];
  });

it('20 visits due at once, two processes racing for them: each parent is sent exactly one reminder, with a working manage link', async () => {
  expect(a.base).not.toBe(b.base);
  // Visits starting an hour or so from now were booked days ago: their reminder time (09:00 GMT+8 the day before the
  // visit's day) has passed, whatever the time of day now, and they have not started.
  const now = Date.now();
  const first = new Date(Math.ceil((now + 60 * 60_000) / 60_000) * 60_000);
  const bookedAt = new Date(now - 3 * 86_400_000);
  // The test holds the reminder claims table while the visits appear, until both processes are waiting to claim one:
  // then they race for the same bookings.
  const visits: Awaited<ReturnType<typeof bookedVisit>>[] = [];
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`LOCK TABLE booking_reminders IN EXCLUSIVE MODE`);
    for (let i = 0; i < 20; i++) visits.push(await bookedVisit(database.db, minutes(first, i), { bookedAt }));
    await waitFor(async () => {
      const [{ n }] = await queryRows<{ n: number }>(
        database,
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return n >= 2;
    }, 30_000, 20);
  });
  const ids = visits.map((v) => v.payment.id);

  const mails = await waitFor(async () => {
    const rows = await database.db.select().from(mailOutbox).where(inArray(mailOutbox.paymentId, ids));
    return rows.length === 20 && rows.every((r) => r.status === 'sent') ? rows : undefined;
  }, 60_000, 200);
  expect(mails.every((m) => m.kind === 'visitor_reminder')).toBe(true);
  expect(new Set(mails.map((m) => m.paymentId)).size).toBe(20);

  // Both processes keep looking: one more visit booked now is reminded too, and still nothing is sent twice.
  const marker = await bookedVisit(database.db, minutes(first, 30), { bookedAt });
  await waitFor(async () => {
    const rows = await database.db.select().from(mailOutbox).where(inArray(mailOutbox.paymentId, [marker.payment.id]));
    return rows.length === 1 && rows[0].status === 'sent';
  }, 60_000, 200);
  const all = await database.db.select().from(mailOutbox).where(inArray(mailOutbox.paymentId, [...ids, marker.payment.id]));
  expect(all).toHaveLength(21);
  const claims = await database.db.select().from(bookingReminders).where(inArray(bookingReminders.paymentId, [...ids, marker.payment.id]));
  expect(claims).toHaveLength(21);

  // What the parents received: 21 messages, one per parent.
  const files = reminderFiles();
  expect(files).toHaveLength(21);
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  const recipients = texts.map((t) => /^To: (.+)$/m.exec(t)?.[1]).sort();
  expect(recipients).toEqual([...visits.map((v) => v.payment.visitorEmail), marker.payment.visitorEmail].sort());
  const sample = texts.find((t) => t.includes(`To: ${visits[0].payment.visitorEmail}`))!;
  expect(sample).toMatch(/^Subject: Reminder: assessment visit /m);
  const token = /http:\/\/site\.test\/booking\/manage\/([A-Za-z0-9_-]{43})/.exec(sample.replace(/=\r?\n/g, ''))?.[1];
  expect(token).toBeDefined();
  expect((await paymentForToken(database.db, token!))?.id).toBe(visits[0].payment.id);
});
