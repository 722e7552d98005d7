jest.setTimeout(60_000);
import { eq, sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { openDatabase } from '../src/base/db/connection';
import { mailOutbox } from '../src/mail/tables';
import { paymentChildren, payments } from '../src/payments/tables';
import { auth, createThrowawayPostgres, staffToken, startTestApp, stopTestApp, type TestContext } from './helpers';
import { paymentWithMail } from './mail/support';

type Driver = 'pglite' | 'postgres';
const LONG_ERROR = `421 Service not available ${'x'.repeat(400)}`;

describe.each<Driver>(['pglite', 'postgres'])('mail and refunds that need staff, on %s', (driver) => {
  let ctx: TestContext;
  let drop: (() => Promise<void>) | undefined;
  let token: string;
  beforeAll(async () => {
    if (driver === 'postgres') {
      const pgdb = await createThrowawayPostgres('staff_alerts_test');
      drop = pgdb.drop;
      ctx = await startTestApp({ seedDemo: false }, await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 4 }));
    } else {
      ctx = await startTestApp({ seedDemo: false });
    }
    token = await staffToken(ctx);
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await drop?.();
  });
  beforeEach(async () => {
    await ctx.database.db.delete(mailOutbox);
    await ctx.database.db.delete(paymentChildren);
    await ctx.database.db.delete(payments);
  });

  const health = async () => (await ctx.app.inject('/health')).json().data;

  it('/health keeps its answer and adds mail and jobs: nothing stuck while every message is either sent or under an hour old', async () => {
    await paymentWithMail(ctx.database, 40, { visitorEmail: 'fresh@example.com' }, [
      { kind: 'visitor_confirmation', minutesAgo: 59 },
      { kind: 'admin_notification', status: 'sent', minutesAgo: 600 },
    ]);
    const data = await health();
    expect(Object.keys(data).sort()).toEqual(['database', 'databaseDetails', 'errorType', 'jobs', 'mail', 'message', 'status']);
    expect(data).toMatchObject({ status: 'healthy', errorType: null, database: 'database_healthy', message: 'Database connection successful', databaseDetails: { driver } });
    expect(data.mail).toEqual({ stuck: 0, oldestStuckMinutes: null });
    expect(data.jobs).toEqual({ failed: 0, failedByQueue: {} });
  });

  it('/health counts messages unsent for over an hour (retrying or given up) and the oldest one’s age', async () => {
    await paymentWithMail(ctx.database, 41, { visitorEmail: 'late@example.com' }, [
      { kind: 'visitor_confirmation', minutesAgo: 61, attempts: 5 },
      { kind: 'admin_notification', status: 'sending', minutesAgo: 90, attempts: 6 },
    ]);
    await paymentWithMail(ctx.database, 42, { visitorEmail: 'lost@example.com' }, [
      { kind: 'visitor_confirmation', status: 'failed', minutesAgo: 4801, attempts: 150 },
      { kind: 'admin_notification', status: 'sent', minutesAgo: 4801 },
    ]);
    expect((await health()).mail).toEqual({ stuck: 3, oldestStuckMinutes: 4801 });
  });

  it('/staff/alerts answers 401 without a staff token or with a forged one', async () => {
    for (const headers of [{}, auth('forged-token')]) {
      const res = await ctx.app.inject({ url: '/staff/alerts', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.UNAUTHORIZED });
    }
  });

  it('/staff/alerts lists stuck mail and failing refunds, oldest first, with the last error cut short', async () => {
    const late = await paymentWithMail(ctx.database, 43, { visitorEmail: 'late@example.com' }, [
      { kind: 'visitor_confirmation', minutesAgo: 61, attempts: 5, lastError: LONG_ERROR },
      { kind: 'admin_notification', status: 'sent', minutesAgo: 61 },
    ]);
    const lost = await paymentWithMail(ctx.database, 44, { visitorEmail: 'lost@example.com' }, [
      { kind: 'visitor_confirmation', status: 'failed', minutesAgo: 4801, attempts: 150, lastError: 'connect ECONNREFUSED' },
    ]);
    await paymentWithMail(ctx.database, 45, { visitorEmail: 'fresh@example.com' }, [{ kind: 'visitor_confirmation', minutesAgo: 5 }]);

    const failing = await paymentWithMail(ctx.database, 46, { visitorEmail: 'refund@example.com', visitorName: 'Siti Refund', status: 'refund_pending', paidAmountSen: 7000 });
    await ctx.database.db
      .update(payments)
      .set({ refundAttempts: 3, refundLastError: LONG_ERROR })
      .where(eq(payments.id, failing.id));
    // Its refund job's next try (pg-boss's `refund` queue).
    await ctx.app.jobs.send('refund', { paymentId: failing.id }, { singletonKey: failing.id, startAfter: new Date('2030-01-07T02:00:00Z') });
    // Owed but not tried yet, and refunded after failures: neither needs a person.
    await paymentWithMail(ctx.database, 47, { visitorEmail: 'new-refund@example.com', status: 'refund_pending' });
    const done = await paymentWithMail(ctx.database, 48, { visitorEmail: 'refunded@example.com', status: 'refunded' });
    await ctx.database.db.update(payments).set({ refundAttempts: 2 }).where(eq(payments.id, done.id));

    const res = await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json();
    const [lostMail] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, lost.id));
    const [lateMail] = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.paymentId} = ${late.id} AND ${mailOutbox.status} = 'pending'`);
    expect(data.stuckMail).toEqual({
      total: 2,
      items: [
        {
          id: lostMail.id,
          kind: 'visitor_confirmation',
          status: 'failed',
          paymentReference: lost.reference,
          recipient: 'lost@example.com',
          attempts: 150,
          lastError: 'connect ECONNREFUSED',
          ageMinutes: 4801,
        },
        {
          id: lateMail.id,
          kind: 'visitor_confirmation',
          status: 'pending',
          paymentReference: late.reference,
          recipient: 'late@example.com',
          attempts: 5,
          lastError: LONG_ERROR.slice(0, 200),
          ageMinutes: 61,
        },
      ],
    });
    expect(data.failingRefunds).toEqual({
      total: 1,
      items: [
        {
          paymentId: failing.id,
          reference: failing.reference,
          visitorName: 'Siti Refund',
          amountSen: 7000,
          refundAttempts: 3,
          lastError: LONG_ERROR.slice(0, 200),
          nextRefundAt: '2030-01-07T10:00:00+08:00',
        },
      ],
    });
    // Never the message itself.
    expect(res.body).not.toMatch(/Dear|Subject for/);
  });

  it("/staff/alerts lists one child's share whose refund keeps failing (issue 37), named, with its own next try", async () => {
    const family = await paymentWithMail(ctx.database, 49, { visitorEmail: 'family@example.com', visitorName: 'Nur Family', amountSen: 12000 });
    const child = { paymentId: family.id, slotId: family.slotId, childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary', feeSen: 5000 };
    await ctx.database.db.insert(paymentChildren).values([
      { ...child, position: 1, childName: 'Adam', discountSen: 0, amountSen: 5000 },
      { ...child, position: 2, childName: 'Siti Hajar', discountSen: 500, amountSen: 4500, cancelledAt: new Date(), refundSen: 4500, refundState: 'pending', refundAttempts: 2, refundLastError: 'gateway down' },
    ]);
    await ctx.app.jobs.send('child-refund', { paymentId: family.id, position: 2 }, { singletonKey: `${family.id}/2`, startAfter: new Date('2030-01-07T02:00:00Z') });
    const { data } = (await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) })).json();
    expect(data.failingRefunds).toEqual({
      total: 1,
      items: [
        {
          paymentId: family.id,
          reference: family.reference,
          visitorName: 'Nur Family',
          amountSen: 4500,
          refundAttempts: 2,
          lastError: 'gateway down',
          nextRefundAt: '2030-01-07T10:00:00+08:00',
          child: { position: 2, name: 'Siti Hajar' },
        },
      ],
    });
  });

  it('/staff/alerts names each queue whose jobs spent their retries, with how many, when and the last error', async () => {
    const { boss } = ctx.app.jobs;
    for (const message of ['first failure', 'connection terminated']) {
      await boss.send('retention', {}, { retryLimit: 0 });
      const [job] = await boss.fetch('retention');
      await boss.fail('retention', job.id, { message });
    }
    const { data } = (await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) })).json();
    expect(data.failedJobs).toEqual([{ queue: 'retention', failed: 2, lastFailedAt: expect.stringMatching(/\+08:00$/), lastError: 'connection terminated' }]);
    await ctx.database.exec(`DELETE FROM pgboss.job WHERE name = 'retention'`);
  });

  it('/staff/alerts answers empty lists when nothing needs a person', async () => {
    const res = await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) });
    expect(res.json().data).toEqual({ stuckMail: { total: 0, items: [] }, failingRefunds: { total: 0, items: [] }, failedJobs: [], chargebacks: { total: 0, items: [] } });
  });
});
