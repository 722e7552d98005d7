jest.setTimeout(120_000);
import { inArray, sql } from 'drizzle-orm';
import { buildApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { mailOutbox } from '../../src/mail/tables';
import { createThrowawayPostgres } from '../helpers';
import { mailJobsDueNow, paymentWithMail, startSmtp } from './support';

const THREE_DAYS_MINUTES = 72 * 60;

describe('two API instances on one PostgreSQL through a three-day SMTP outage', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let drop: () => Promise<void>;
  let handles: DatabaseHandle[] = [];
  let apps: App[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    const pgdb = await createThrowawayPostgres('mail_outage_test');
    drop = pgdb.drop;
    // Two instances = two connection pools and two apps, each with its own mail worker, as two processes would have.
    handles = [await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 4 }), await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 4 })];
    await migrate(handles[0]);
    const base = loadConfig({});
    const config: Config = {
      ...base,
      seedDemo: false,
      payments: { ...base.payments, smtpUrl: smtp.url, sandboxSecret: 'test-sandbox-secret', reconcileIntervalMs: 0 },
    };
    expect(config.payments.mailGiveUpHours).toBe(72);
    apps = await Promise.all(handles.map((database) => buildApp({ database, config, logger: false })));
    // Passes are run by the test, both instances at once; nothing else wakes the workers.
    for (const app of apps) await app.jobs.stopWorking('mail');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    await drop?.();
    await smtp?.close();
  });

  const db = () => handles[0].db;
  /** Makes every unsent message due, then runs one pass on both instances at the same time; resolves with how many were sent. */
  const passOnBoth = async () => {
    await mailJobsDueNow(handles[0]);
    const sent = await Promise.all(apps.map((app) => app.mailQueue.runOnce()));
    return sent[0] + sent[1];
  };
  const outbox = (paymentIds: string[]) =>
    db().select().from(mailOutbox).where(inArray(mailOutbox.paymentId, paymentIds)).orderBy(mailOutbox.id);

  it('works each message once per attempt, keeps it pending for three days, and sends it exactly once when SMTP answers', async () => {
    smtp.refuse(true);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await paymentWithMail(handles[0], 60 + i, { visitorEmail: `p${i}@example.com` }, [
        { kind: 'visitor_confirmation', minutesAgo: 0 },
        { kind: 'admin_notification', minutesAgo: 0 },
      ]);
      ids.push(p.id);
    }
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await passOnBoth()).toBe(0);
      // Two workers raced for twelve due rows: each row was tried exactly once in this pass.
      expect((await outbox(ids)).map((r) => [r.status, r.attempts])).toEqual(Array(12).fill(['pending', attempt]));
    }

    // A minute short of three days: the retries of 71 h 59 min are spent, one is left.
    await db().update(mailOutbox).set({ createdAt: sql`now() - make_interval(mins => ${THREE_DAYS_MINUTES - 1})` });
    await handles[0].exec(`UPDATE pgboss.job SET retry_count = retry_limit - 2 WHERE name = 'mail' AND state = 'retry'`);
    expect(await passOnBoth()).toBe(0);
    expect((await outbox(ids)).every((r) => r.status === 'pending' && r.attempts === 9)).toBe(true);
    for (const app of apps) {
      expect((await app.inject('/health')).json().data.mail).toEqual({ stuck: 12, oldestStuckMinutes: THREE_DAYS_MINUTES - 1 });
    }

    smtp.refuse(false);
    expect(await passOnBoth()).toBe(12);
    expect(smtp.received).toHaveLength(12);
    expect(new Set(smtp.received.map((r) => r.mail.messageId)).size).toBe(12);
    expect((await outbox(ids)).every((r) => r.status === 'sent' && r.attempts === 10)).toBe(true);
    expect(await passOnBoth()).toBe(0);
    expect((await apps[1].inject('/health')).json().data.mail).toEqual({ stuck: 0, oldestStuckMinutes: null });
  });

  it('marks a message failed once it is past MAIL_GIVE_UP_HOURS (72 by default), and both instances report it', async () => {
    smtp.refuse(true);
    const p = await paymentWithMail(handles[0], 70, { visitorEmail: 'late@example.com' }, [
      { kind: 'visitor_confirmation', minutesAgo: THREE_DAYS_MINUTES + 1, attempts: 140 },
    ]);
    expect(await passOnBoth()).toBe(0);
    expect((await outbox([p.id])).map((r) => [r.status, r.attempts])).toEqual([['failed', 141]]);
    smtp.refuse(false);
    expect(await passOnBoth()).toBe(0);
    for (const app of apps) {
      expect((await app.inject('/health')).json().data.mail).toEqual({ stuck: 1, oldestStuckMinutes: THREE_DAYS_MINUTES + 1 });
    }
  });
});
