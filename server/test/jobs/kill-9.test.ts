jest.setTimeout(180_000);
import type { ChildProcess } from 'node:child_process';
import { inArray } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { mailOutbox } from '../../src/mail/tables';
import { paymentWithMail, startSmtp } from '../mail/support';
import { exited, removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { throwawayPostgres, waitFor } from '../payments/support';

// kill -9 of an API process while its mail jobs run: after a restart nothing is left unfinished, and each message
// arrives once. The dead process's jobs hold their messages until pg-boss expires them (2 minutes: the test moves
// their start back instead of waiting), then the new process sends them.
let database: DatabaseHandle;
let drop: () => Promise<void>;
let dbUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const pgdb = await throwawayPostgres('jobs_kill9');
  drop = pgdb.drop;
  dbUrl = pgdb.url;
  database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 });
  await migrate(database);
});
afterAll(async () => {
  await stopAll(children);
  removeProcessDirs();
  await database?.close();
  await drop?.();
});

it('a process killed while sending: its jobs expire and the restarted process sends each message once', async () => {
  // The first mail server takes each message and never answers (the process is killed before it would give up).
  const hanging = await startSmtp(0, 600_000);
  const working = await startSmtp();
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const p = await paymentWithMail(database, 60 + i, { visitorEmail: `p${i}@example.com` }, [
      { kind: 'visitor_confirmation', minutesAgo: 0 },
      { kind: 'admin_notification', minutesAgo: 0 },
    ]);
    ids.push(...(await database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.paymentId, [p.id]))).map((r) => r.id));
  }
  const env = { DATABASE_URL: dbUrl, SEED_DEMO: 'false', RECONCILE_INTERVAL_MS: '600000', MAIL_RETRY_SECONDS: '1', JOB_MAINTENANCE_SECONDS: '1' };
  const rows = () => database.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
  const first = await startApiProcess('jobs-kill9', { ...env, SMTP_URL: hanging.url });
  children.push(first.child);
  await waitFor(async () => (await rows()).some((r) => r.status === 'sending'), 30_000, 100);
  first.child.kill('SIGKILL');
  expect(await exited(first.child)).toBe('SIGKILL');
  await hanging.close();

  const second = await startApiProcess('jobs-kill9', { ...env, SMTP_URL: working.url });
  children.push(second.child);
  // Two minutes pass for the dead process's running jobs: pg-boss's maintenance fails them back for a retry.
  await database.exec(`UPDATE pgboss.job SET started_on = now() - interval '121 seconds' WHERE name = 'mail' AND state = 'active'`);
  await waitFor(async () => (await rows()).every((r) => r.status === 'sent'), 60_000, 200);
  expect(working.received).toHaveLength(6);
  expect(new Set(working.received.map((r) => r.mail.messageId)).size).toBe(6);
  const { rows: left } = await database.exec(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail' AND state < 'completed'`);
  expect(left[0].n).toBe(0);
  await working.close();
});
