import pg from 'pg';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { smtpSender, type MailSender } from '../../src/mail/transport';
import { mailOutbox } from '../../src/mail/tables';
import { createThrowawayPostgres, PG_ADMIN_URL } from '../helpers';
import { mailJobsDueNow, mailQueueOf, paymentWithMail, startSmtp } from './support';

// PostgreSQL goes away (every connection cut, new ones refused for 2 s) just after the mail server accepted a message:
// its `sent` mark waits for the database instead of failing, so the message is not sent a second time later.
jest.setTimeout(60_000);

let throwaway: Awaited<ReturnType<typeof createThrowawayPostgres>>;
let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const name = () => new URL(throwaway.url).pathname.slice(1);

beforeAll(async () => {
  smtp = await startSmtp();
  throwaway = await createThrowawayPostgres('mail_away');
  database = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 4 });
  await migrate(database);
});
afterAll(async () => {
  await database?.close();
  await throwaway?.drop();
  await smtp?.close();
});

/** The database stops taking connections and cuts those it has; `back` lets them in again. */
async function databaseAway(): Promise<{ back: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${name()} ALLOW_CONNECTIONS false`);
  await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name()]);
  return {
    back: async () => {
      await admin.query(`ALTER DATABASE ${name()} ALLOW_CONNECTIONS true`);
      await admin.end();
    },
  };
}

it('sent while the database went away: marked sent once it is back, and never sent a second time', async () => {
  await paymentWithMail(database, 30, { visitorEmail: 'away@example.com' }, [{ kind: 'visitor_confirmation', minutesAgo: 0 }]);
  const real = smtpSender(smtp.url);
  let away: Promise<{ back: () => Promise<void> }> | undefined;
  // The server has the message; then the database is away for 2 s, while the worker marks it sent.
  const sender: MailSender = {
    describe: real.describe,
    close: () => real.close(),
    send: async (message) => {
      await real.send(message);
      away = databaseAway();
      const { back } = await away;
      setTimeout(() => void back(), 2_000);
    },
  };
  const worker = mailQueueOf(database, sender);
  try {
    expect(await worker.runOnce()).toBe(1);
    expect(away).toBeDefined();
    const [row] = await database.db.select().from(mailOutbox);
    expect(row.status).toBe('sent');
    // Any job still about (a retry, an expired claim) finds the row sent and sends nothing.
    await mailJobsDueNow(database);
    await worker.runOnce();
    expect(smtp.received).toHaveLength(1);
    expect((await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id)))[0].status).toBe('sent');
  } finally {
    await worker.stop();
  }
});
