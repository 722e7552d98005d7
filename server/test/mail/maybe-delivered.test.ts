import net, { type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { serveMetrics } from '../../src/ops/metrics-server';
import { smtpSender } from '../../src/mail/transport';
import { MAYBE_DELIVERED_NOTE } from '../../src/mail/send-job';
import { mailOutbox } from '../../src/mail/tables';
import { queryRows } from '../helpers';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { mailJobsSooner, mailQueueOf, paymentWithMail, startSmtp } from './support';

// A mail server that stores a message but loses the connection before its 250: the message may have been delivered.
// It is sent again (at least once), but only after a 30-minute pause, so a fault that lasts keeps repeating nothing;
// such retries are counted on /metrics. A connection lost before the message was sent keeps the regular backoff.
jest.setTimeout(120_000);

const FROM = 'Seri Ilmu <bookings@school.test>';
let ctx: PayCtx;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let metricsServer: Server;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await startPaymentsApp('pglite', { sandboxCallbackDrop: true, smtpUrl: smtp.url, mailFrom: FROM });
  metricsServer = await serveMetrics(ctx.app.metrics, '127.0.0.1', 0);
  // The test runs the app's queue itself (runOnce), as time passes.
  await ctx.app.jobs.stopWorking('mail');
});
afterAll(async () => {
  metricsServer?.close();
  await ctx?.close();
  await smtp?.close();
});
beforeEach(async () => {
  smtp.received.length = 0;
  smtp.dropAfterData(false);
  await ctx.database.db.execute(sql`DELETE FROM mail_outbox`);
  await ctx.database.exec(`DELETE FROM pgboss.job WHERE name = 'mail'`);
});

const maybeDeliveredRetries = async () => {
  const text = await (await fetch(`http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`)).text();
  return Number(/^booking_mail_maybe_delivered_retries_total (\d+)$/m.exec(text)?.[1]);
};
/** The outbox as the worker sees it: status, error, and seconds until its next attempt (its waiting job's start, database clock). */
const outbox = () =>
  queryRows<{ id: number; status: string; last_error: string | null; wait_seconds: number | null }>(
    ctx.database,
    sql`SELECT m.id, m.status, m.last_error,
               (SELECT extract(epoch from min(j.start_after) - now())::float8 FROM pgboss.job j
                 WHERE j.name = 'mail' AND j.state < 'active' AND (j.data->>'mailId')::int = m.id) AS wait_seconds
          FROM mail_outbox m ORDER BY m.id`,
  );
/** Time passes for the outbox: every planned attempt comes `seconds` sooner. */
const pass = (seconds: number) => mailJobsSooner(ctx.database, seconds);

it('stored, then the connection dropped before the 250: sent again once, after 30 minutes and not before, and counted on /metrics', async () => {
  await paymentWithMail(ctx.database, 40, { visitorEmail: 'stored@example.com' }, [{ kind: 'visitor_confirmation', minutesAgo: 0 }]);
  smtp.dropAfterData(true);
  expect(await ctx.app.mailQueue.runOnce()).toBe(0);
  expect(smtp.received).toHaveLength(1);
  const [row] = await outbox();
  expect(row).toMatchObject({ status: 'pending', last_error: expect.stringMatching(new RegExp(`^${MAYBE_DELIVERED_NOTE.replace(/[()]/g, '\\$&')}Connection closed`)) });
  expect(row.wait_seconds).toBeGreaterThan(29.5 * 60);
  expect(row.wait_seconds).toBeLessThanOrEqual(30 * 60);
  expect(await maybeDeliveredRetries()).toBe(1);

  smtp.dropAfterData(false);
  await pass(29 * 60);
  expect(await ctx.app.mailQueue.runOnce()).toBe(0);
  expect(smtp.received).toHaveLength(1);
  await pass(60);
  expect(await ctx.app.mailQueue.runOnce()).toBe(1);
  // At least once: the second copy carries the same Message-ID, so the recipient's mail system can drop it.
  expect(smtp.received).toHaveLength(2);
  expect(new Set(smtp.received.map((r) => r.mail.messageId)).size).toBe(1);
  expect((await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id)))[0].status).toBe('sent');
  expect(await maybeDeliveredRetries()).toBe(1);
});

it('a connection lost before the message was sent (the same error from nodemailer) keeps the regular 30 s retry and is not counted', async () => {
  // Greets, answers EHLO, and hangs up at MAIL FROM: nothing of the message reached it.
  const hangUp = net.createServer((socket) => {
    socket.write('220 hang-up.test ESMTP\r\n');
    socket.on('data', (data) => (/^EHLO/i.test(data.toString()) ? socket.write('250 hang-up.test\r\n') : socket.destroy()));
  });
  await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
  const sender = smtpSender(`smtp://127.0.0.1:${(hangUp.address() as AddressInfo).port}`);
  try {
    await paymentWithMail(ctx.database, 41, { visitorEmail: 'early@example.com' }, [{ kind: 'visitor_confirmation', minutesAgo: 0 }]);
    const worker = mailQueueOf(ctx.database, sender, { from: FROM });
    try {
      expect(await worker.runOnce()).toBe(0);
      const [row] = await outbox();
      expect(row.last_error).toMatch(/^Connection closed unexpectedly/);
      expect(row.wait_seconds).toBeGreaterThan(25);
      expect(row.wait_seconds).toBeLessThanOrEqual(30);
      expect(worker.queue.maybeDeliveredRetries).toBe(0);
    } finally {
      await worker.stop();
    }
  } finally {
    sender.close();
    hangUp.close();
  }
});

it('a 10-minute fault storing every message and dropping every 250: 8 messages arrive twice each, where the regular backoff sent each 6 times', async () => {
  /** Sends 8 messages through 40 minutes of simulated time (a pass every 30 s), the server faulty for the first 10. */
  const run = async (worker: { runOnce(): Promise<number> }, visitorEmail: string, firstHour: number) => {
    await ctx.database.db.execute(sql`DELETE FROM mail_outbox`);
    await ctx.database.exec(`DELETE FROM pgboss.job WHERE name = 'mail'`);
    smtp.received.length = 0;
    const kinds = ['visitor_confirmation', 'admin_notification'] as const;
    for (let i = 0; i < 4; i++)
      await paymentWithMail(ctx.database, firstHour + i, { visitorEmail: `${i}.${visitorEmail}` }, kinds.map((kind) => ({ kind, minutesAgo: 0 })));
    for (let seconds = 0; seconds <= 40 * 60; seconds += 30) {
      smtp.dropAfterData(seconds < 10 * 60);
      await worker.runOnce();
      await pass(30);
    }
    expect((await outbox()).map((r) => r.status)).toEqual(Array(8).fill('sent'));
    const copies = new Map<string, number>();
    for (const { mail } of smtp.received) copies.set(mail.messageId!, (copies.get(mail.messageId!) ?? 0) + 1);
    return [...copies.values()];
  };
  const sender = smtpSender(smtp.url);
  const stops: Array<() => Promise<void>> = [];
  try {
    const paused = mailQueueOf(ctx.database, sender, { from: FROM });
    stops.push(paused.stop);
    expect(await run(paused, 'paused@example.com', 50)).toEqual(Array(8).fill(2));
    expect(paused.queue.maybeDeliveredRetries).toBe(8);
    // The same fault with no longer pause (the regular retry every 30 s): attempts at 0, 0.5, … 9.5 minutes all
    // stored, the one at 10 answered.
    const regular = mailQueueOf(ctx.database, sender, { from: FROM, maybeDeliveredPauseSeconds: 0 });
    stops.push(regular.stop);
    expect(await run(regular, 'regular@example.com', 60)).toEqual(Array(8).fill(21));
  } finally {
    for (const stop of stops) await stop();
    sender.close();
  }
});
