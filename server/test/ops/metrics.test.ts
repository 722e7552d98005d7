jest.setTimeout(60_000);
import { sql } from 'drizzle-orm';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveMetrics } from '../../src/ops/metrics-server';
import { insertSlot, startTestApp, stopTestApp, visitor, type TestContext } from '../helpers';
import { paymentWithMail } from '../mail/support';

let ctx: TestContext;
let metricsServer: Server;
let metricsUrl: string;

beforeAll(async () => {
  ctx = await startTestApp();
  metricsServer = await serveMetrics(ctx.app.metrics, '127.0.0.1', 0);
  metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
});
afterAll(async () => {
  metricsServer?.close();
  await stopTestApp(ctx);
});

const scrape = async () => {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};
/** The value of one sample line, e.g. value(text, 'booking_payments{status="completed"}'). */
const value = (text: string, sample: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
};

it('counts bookings, live holds, payments by status, refund failures, the outbox and its oldest message, the reconciliation lag and stuck mail', async () => {
  await insertSlot(ctx.database, 30, { status: 'booked', ...visitor, bookingReference: 'BK-METRICS-1', bookedAt: new Date() });
  await insertSlot(ctx.database, 31, { holdTokenHash: 'h', holdExpiresAt: new Date(Date.now() + 600_000) });
  await insertSlot(ctx.database, 32, { holdTokenHash: 'h2', holdExpiresAt: new Date(Date.now() - 60_000) }); // expired: not live
  await paymentWithMail(ctx.database, 40, { visitorEmail: 'a@example.com', status: 'completed' }, [
    { kind: 'visitor_confirmation', minutesAgo: 90 },
    { kind: 'admin_notification', status: 'sent', minutesAgo: 200 },
  ]);
  const open = await paymentWithMail(ctx.database, 41, { visitorEmail: 'b@example.com', status: 'pending' });
  await ctx.database.db.execute(sql`UPDATE payments SET created_at = now() - interval '10 minutes', last_checked_at = NULL WHERE id = ${open.id}`);
  await paymentWithMail(ctx.database, 42, { visitorEmail: 'c@example.com', status: 'refund_pending', refundAttempts: 2 });
  await paymentWithMail(ctx.database, 43, { visitorEmail: 'd@example.com', status: 'refund_pending', refundAttempts: 0 });

  const text = await scrape();
  expect(value(text, 'booking_slots_booked')).toBe(1);
  expect(value(text, 'booking_holds_live')).toBe(1);
  expect(value(text, 'booking_payments{status="completed"}')).toBe(1);
  expect(value(text, 'booking_payments{status="pending"}')).toBe(1);
  expect(value(text, 'booking_payments{status="refund_pending"}')).toBe(2);
  expect(value(text, 'booking_payments{status="refunded"}')).toBe(0);
  expect(value(text, 'booking_refund_failures')).toBe(1);
  expect(value(text, 'booking_outbox_depth')).toBe(1);
  expect(value(text, 'booking_outbox_oldest_seconds')).toBeGreaterThanOrEqual(90 * 60);
  expect(value(text, 'booking_outbox_oldest_seconds')).toBeLessThan(91 * 60);
  expect(value(text, 'booking_reconciliation_lag_seconds')).toBeGreaterThanOrEqual(10 * 60);
  expect(value(text, 'booking_reconciliation_lag_seconds')).toBeLessThan(11 * 60);
  expect(value(text, 'booking_mail_stuck')).toBe(1);
});

it('times requests by route pattern and status class, never by the raw URL', async () => {
  await ctx.app.inject({ method: 'GET', url: '/api/payment/status/pay_secret_id_123' });
  await ctx.app.inject({ method: 'GET', url: '/health' });
  const text = await scrape();
  expect(text).not.toContain('pay_secret_id_123');
  expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/health",status_class="2xx"}')).toBe(1);
  expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/payment/status/:id",status_class="4xx"}')).toBe(1);
});

it('serves nothing else on the metrics port, and no /metrics on the public one', async () => {
  expect((await fetch(metricsUrl.replace('/metrics', '/health'))).status).toBe(404);
  expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
});

it('two apps in one process keep their own counts', async () => {
  const other = await startTestApp();
  try {
    await other.app.inject({ method: 'GET', url: '/health' });
    await other.app.inject({ method: 'GET', url: '/health' });
    const mine = await ctx.app.metrics.metrics();
    const theirs = await other.app.metrics.metrics();
    expect(value(theirs, 'http_request_duration_seconds_count{method="GET",route="/health",status_class="2xx"}')).toBe(2);
    expect(value(mine, 'http_request_duration_seconds_count{method="GET",route="/health",status_class="2xx"}')).toBe(1);
  } finally {
    await stopTestApp(other);
  }
});

it("shows each queue's waiting, active and failed jobs and the oldest waiting one's age", async () => {
  const { jobs } = ctx.app;
  await jobs.stopWorking('mail');
  await jobs.send('refund', { paymentId: 'metrics-waiting' }, { singletonKey: 'metrics-waiting' });
  await jobs.send('refund', { paymentId: 'metrics-older' }, { singletonKey: 'metrics-older' });
  await ctx.database.exec(`UPDATE pgboss.job SET created_on = now() - interval '5 minutes' WHERE name = 'refund' AND singleton_key = 'metrics-older'`);
  await jobs.send('mail', { mailId: -1 }, { singletonKey: 'metrics-running' });
  await jobs.send('mail', { mailId: -2 }, { singletonKey: 'metrics-failed', retryLimit: 0 });
  const fetched = await jobs.boss.fetch<{ mailId: number }>('mail', { batchSize: 2 });
  expect(fetched.map((j) => j.data.mailId).sort((a, b) => a - b)).toEqual([-2, -1]);
  await jobs.boss.fail('mail', fetched.find((j) => j.data.mailId === -2)!.id, { message: 'always refused' });

  const text = await scrape();
  expect(value(text, 'booking_jobs{queue="refund",state="waiting"}')).toBe(2);
  expect(value(text, 'booking_jobs{queue="refund",state="active"}')).toBe(0);
  expect(value(text, 'booking_jobs{queue="mail",state="waiting"}')).toBe(0);
  expect(value(text, 'booking_jobs{queue="mail",state="active"}')).toBe(1);
  expect(value(text, 'booking_jobs{queue="mail",state="failed"}')).toBe(1);
  expect(value(text, 'booking_jobs_oldest_waiting_seconds{queue="refund"}')).toBeGreaterThanOrEqual(5 * 60);
  expect(value(text, 'booking_jobs_oldest_waiting_seconds{queue="refund"}')).toBeLessThan(6 * 60);
  expect(value(text, 'booking_jobs_oldest_waiting_seconds{queue="mail"}')).toBe(0);
  // The failed job shows on /health too.
  expect((await ctx.app.inject('/health')).json().data.jobs).toEqual({ failed: 1, failedByQueue: { mail: 1 } });
  await ctx.database.exec(`DELETE FROM pgboss.job WHERE singleton_key LIKE 'metrics-%'`);
});

it('counts what the retention policy anonymised, by kind, from its audit entries (any replica reports the same)', async () => {
  const before = await scrape();
  expect(value(before, 'booking_retention_anonymised{kind="payments"}')).toBe(0);
  const { recordAudit } = await import('../../src/audit/record');
  await recordAudit(ctx.database.db, { actor: 'system', action: 'retention_applied', detail: { payments: 3, slots: 2, mailBodies: 5, mailRecipients: 1, auditEntries: 4, asOf: '2034-01-15T02:00:00.000Z' } });
  await recordAudit(ctx.database.db, { actor: 'system', action: 'retention_applied', detail: { payments: 1, slots: 0, mailBodies: 2, mailRecipients: 0, auditEntries: 1, asOf: '2034-01-16T02:00:00.000Z' } });
  const text = await scrape();
  expect(['payments', 'slots', 'mailBodies', 'mailRecipients', 'auditEntries'].map((kind) => value(text, `booking_retention_anonymised{kind="${kind}"}`))).toEqual([4, 2, 7, 1, 5]);
  expect(value(text, 'booking_retention_last_anonymised_seconds')).toBeLessThan(60);
});
