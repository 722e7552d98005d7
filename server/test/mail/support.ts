// What the mail tests share: a real SMTP server that can refuse, and outbox rows written straight into the database.
import type { AddressInfo, Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { JobEngine } from '../../src/base/jobs/engine';
import { MailQueue, type MailQueueOptions } from '../../src/mail/send-job';
import type { MailSender } from '../../src/mail/transport';
import { mailOutbox, type MailRow } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { insertConsent, insertSlot, visitor } from '../helpers';

type Received = { mail: ParsedMail; to: string[] };

/**
 * A real SMTP server on an ephemeral (or given) port that parses every message it accepts (after `delayMs`); `refuse`
 * makes it answer 421; `dropAfterData` makes it store each message and then drop the connection before its 250.
 */
export async function startSmtp(port = 0, delayMs = 0) {
  const received: Received[] = [];
  const state = { refusing: false, droppingAfterData: false };
  const sockets = new Map<number, Socket>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      callback(state.refusing ? Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }) : undefined);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => new Promise<ParsedMail>((resolve) => setTimeout(() => resolve(mail), delayMs)))
        .then((mail) => {
          received.push({ mail, to: session.envelope.rcptTo.map((r) => r.address) });
          if (state.droppingAfterData) sockets.get(session.remotePort)?.destroy();
          else callback();
        })
        .catch(callback);
    },
  });
  server.server.on('connection', (socket: Socket) => {
    const remotePort = socket.remotePort!;
    sockets.set(remotePort, socket);
    socket.once('close', () => sockets.delete(remotePort));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.server.address() as AddressInfo;
  return {
    received,
    url: `smtp://127.0.0.1:${address.port}`,
    port: address.port,
    refuse: (refusing: boolean) => void (state.refusing = refusing),
    dropAfterData: (dropping: boolean) => void (state.droppingAfterData = dropping),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}


type PaymentFixture = Partial<typeof payments.$inferInsert> & { visitorEmail: string };
type MailFixture = { kind: MailRow['kind']; status?: MailRow['status']; minutesAgo: number; attempts?: number; lastError?: string };

/** A payment (its slot `hoursAhead` from now) with the given outbox rows, written `minutesAgo` each; returns the payment. */
export async function paymentWithMail(database: DatabaseHandle, hoursAhead: number, payment: PaymentFixture, mails: MailFixture[] = []) {
  const slot = await insertSlot(database, hoursAhead);
  const id = `pay_test_${slot.id}`;
  const [row] = await database.db
    .insert(payments)
    .values({
      id,
      reference: `PAY-TEST-${slot.id}`,
      slotId: slot.id,
      status: 'completed',
      amountSen: 7500,
      ...visitor,
      holdToken: `hold-${slot.id}`,
      gateway: 'sandbox',
      sessionExpiresAt: new Date(),
      consentId: await insertConsent(database.db),
      ...payment,
    })
    .returning();
  for (const mail of mails) {
    await database.db.insert(mailOutbox).values({
      paymentId: id,
      kind: mail.kind,
      recipient: mail.kind.startsWith('visitor') ? payment.visitorEmail : 'office@school.test',
      subject: `Subject for ${payment.visitorEmail}`,
      textBody: `Dear ${visitor.visitorName}`,
      htmlBody: `<p>Dear ${visitor.visitorName}</p>`,
      messageId: `<${id}.${mail.kind}@school.test>`,
      status: mail.status ?? 'pending',
      attempts: mail.attempts ?? 0,
      lastError: mail.lastError ?? null,
      createdAt: sql`now() - make_interval(mins => ${mail.minutesAgo})`,
    });
  }
  return row;
}

type Log = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
const silent: Log = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A mail queue of its own on the test's database (as another process would have), with the retry settings given;
 * `runOnce` works what is due now. Stop it after use.
 */
export function mailQueueOf(
  database: DatabaseHandle,
  sender: MailSender,
  { from = 'x@y.z', retrySeconds = 30, giveUpHours = 72, maybeDeliveredPauseSeconds, log = silent }: Partial<Omit<MailQueueOptions, 'db' | 'jobs' | 'sender'>> = {},
) {
  const jobs = new JobEngine(database, silent, { supervise: false, schedule: false });
  const queue = new MailQueue({ db: database.db, jobs, sender, from, retrySeconds, giveUpHours, maybeDeliveredPauseSeconds, log });
  return { queue, jobs, runOnce: () => queue.runOnce(), stop: () => jobs.stop() };
}

/** As if every planned mail attempt's wait had passed: each waiting job is due now. */
// A second in the past: pg-boss takes jobs with start_after < now(), and the next statement may read the same now().
export const mailJobsDueNow = (database: DatabaseHandle) => database.exec(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE name = 'mail' AND state < 'active'`);

/** Time passes for the mail jobs: each waiting one comes `seconds` sooner. */
export const mailJobsSooner = (database: DatabaseHandle, seconds: number) =>
  database.exec(`UPDATE pgboss.job SET start_after = start_after - make_interval(secs => $1) WHERE name = 'mail' AND state < 'active'`, [seconds]);

/** The mail jobs of the given outbox rows: retries made and allowed, the delay, and seconds until the next attempt. */
export async function mailJobsOf(database: DatabaseHandle, mailIds: number[]) {
  const { rows } = await database.exec(
    `SELECT (data->>'mailId')::int AS "mailId", state, singleton_key AS "singletonKey", retry_count AS "retryCount", retry_limit AS "retryLimit", retry_delay AS "retryDelay",
            round(extract(epoch from start_after - now()))::int AS "waitSeconds"
       FROM pgboss.job WHERE name = 'mail' AND (data->>'mailId')::int = ANY($1::int[]) ORDER BY (data->>'mailId')::int, created_on`,
    [mailIds],
  );
  return rows as { mailId: number; state: string; singletonKey: string; retryCount: number; retryLimit: number; retryDelay: number; waitSeconds: number }[];
}
