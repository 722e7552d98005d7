jest.setTimeout(60_000);
import { sql } from 'drizzle-orm';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveMetrics } from '../../src/metrics/server';
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
