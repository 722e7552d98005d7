import { and, eq, inArray, sql } from 'drizzle-orm';
import { HTML_LANG } from 'shared-api/contract';
import type { Db } from '../base/db/connection';
import { JOB_SCHEMA, type JobEngine, type RunningJob } from '../base/jobs/engine';
import { threadRootOf } from './outbox';
import { mailOutbox, type MailRow } from './tables';
import { mayHaveBeenDelivered, type MailSender } from './transport';

type LogFn = (obj: object, msg: string) => void;

export type MailQueueOptions = {
  db: Db;
  jobs: JobEngine;
  sender: MailSender;
  from: string;
  /** Between two attempts of a message while the mail server refuses it (MAIL_RETRY_SECONDS). */
  retrySeconds: number;
  /** A message still unsent this long after it was written is marked failed (MAIL_GIVE_UP_HOURS); until then it is retried. */
  giveUpHours: number;
  /** How often an idle worker looks for jobs (pg-boss's polling; at least 0.5). */
  pollSeconds?: number;
  /** The least wait before sending again a message the server may have stored (see MAYBE_DELIVERED_PAUSE_SECONDS). */
  maybeDeliveredPauseSeconds?: number;
  log?: { info: LogFn; warn: LogFn; error: LogFn };
};

export type MailJob = { mailId: number };

/**
 * 30 minutes: the connection was lost after the whole message was sent, before the server's reply, so the server may
 * have stored it; sending it again at once would likely deliver it twice.
 */
export const MAYBE_DELIVERED_PAUSE_SECONDS = 30 * 60;
/** Put before the error in last_error (shown to staff on the dashboard's stuck-mail list). */
export const MAYBE_DELIVERED_NOTE = 'The mail server may have accepted this message (no reply after it was sent): ';
/** A job whose sender died is retried after this long (pg-boss's expiry): above the SMTP timeouts (5 + 5 + 10 s). */
const SEND_EXPIRY_SECONDS = 120;
/**
 * A message the server accepted is marked sent, tried again this long while the database is away (a restart, a
 * failover): left `sending`, it would go out a second time when its job expires. Below SEND_EXPIRY_SECONDS.
 */
export const MARK_SENT_WITHIN_MS = 60_000;

const isTimeout = (err: unknown): boolean => {
  const e = err as { code?: string; message?: string };
  return e?.code === 'ETIMEDOUT' || /timeout|timed out/i.test(e?.message ?? '');
};

/**
 * A message's dedupe key, the job's singleton key: `booking:<payment id>:<tag>` from its Message-ID
 * (`<REF.TAG@domain>`: `visitor`, `admin`, `visitor-reminder-<start>`…), or `mail:<id>` for one without a payment.
 */
export function dedupeKey(row: Pick<MailRow, 'id' | 'paymentId' | 'messageId'>): string {
  const tag = /^<[^.]+\.([^@]+)@/.exec(row.messageId)?.[1];
  return row.paymentId && tag ? `booking:${row.paymentId}:${tag}` : `mail:${row.id}`;
}

/**
 * The outbox's sender on pg-boss: each unsent row gets one `mail` job (singleton key: its dedupe key), queued after
 * the transaction that wrote the row commits, and at start and each minute for any row still without one (the row is
 * the promise; the job only sends it). The job marks the row sending, sends, marks it sent; a row no longer pending
 * is never sent again. Retries (every MAIL_RETRY_SECONDS until MAIL_GIVE_UP_HOURS) and the expiry of a job whose
 * process died are pg-boss's; the last failed attempt marks the row failed (/health, /staff/alerts) and fails the job.
 */
export class MailQueue {
  /** Retries planned for messages the server may have stored, since this process started (on /metrics). */
  maybeDeliveredRetries = 0;

  constructor(private readonly options: MailQueueOptions) {
    options.jobs.handle<MailJob>('mail', (job) => this.deliver(job), { pollingIntervalSeconds: options.pollSeconds });
    options.jobs.handle('mail-relay', () => this.enqueuePending().then((queued) => (queued && options.jobs.notify('mail'), queued)));
  }

  /** Retries left for a message `ageSeconds` old, so its last attempt falls at the give-up age. */
  private retriesFor(ageSeconds: number): number {
    const { giveUpHours, retrySeconds } = this.options;
    return Math.max(0, Math.ceil((giveUpHours * 3600 - ageSeconds) / retrySeconds));
  }

  /** Queues a job for every unsent message that has none waiting or running; resolves with how many were queued. */
  async enqueuePending(): Promise<number> {
    const { db, jobs, retrySeconds } = this.options;
    const rows = await db
      .select({
        id: mailOutbox.id,
        paymentId: mailOutbox.paymentId,
        messageId: mailOutbox.messageId,
        ageSeconds: sql<number>`extract(epoch from now() - ${mailOutbox.createdAt})::float8`,
      })
      .from(mailOutbox)
      .where(
        and(
          inArray(mailOutbox.status, ['pending', 'sending']),
          sql`NOT EXISTS (SELECT 1 FROM ${sql.raw(JOB_SCHEMA)}.job j WHERE j.name = 'mail' AND j.state < 'completed' AND (j.data->>'mailId')::bigint = ${mailOutbox.id})`,
        ),
      );
    let queued = 0;
    for (const row of rows) {
      const id = await jobs.send<MailJob>(
        'mail',
        { mailId: row.id },
        { singletonKey: dedupeKey(row), retryLimit: this.retriesFor(row.ageSeconds), retryDelay: retrySeconds, expireInSeconds: SEND_EXPIRY_SECONDS },
      );
      if (id) queued++;
    }
    return queued;
  }

  /** Queues what is unsent and works the due mail jobs here and now (tests, an operator's pass); resolves with how many were sent. */
  async runOnce(): Promise<number> {
    await this.enqueuePending();
    return this.options.jobs.runDue('mail');
  }

  /** After a commit that wrote mail: queue its jobs and wake this process's worker. */
  wake(): void {
    void this.enqueuePending()
      .then((queued) => queued && this.options.jobs.notify('mail'))
      .catch((err) => this.options.log?.warn({ err: (err as Error).message }, 'mail: could not queue'));
  }

  /** One job: sends its message unless it already left (or was given up); throws for pg-boss to retry. */
  async deliver(job: RunningJob<MailJob>): Promise<number> {
    const { db, sender, from, log } = this.options;
    const [row] = await db
      .update(mailOutbox)
      .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1` })
      .where(and(eq(mailOutbox.id, job.data.mailId), inArray(mailOutbox.status, ['pending', 'sending'])))
      .returning();
    if (!row) return 0;
    try {
      await sender.send({
        from,
        to: row.recipient,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        messageId: row.messageId,
        inReplyTo: threadRootOf(row.kind, row.messageId),
        ics: row.ics,
        ...(row.locale ? { language: HTML_LANG[row.locale] } : {}),
      });
    } catch (err) {
      return this.failed(job, row, err);
    }
    await this.markSent(row.id);
    log?.info({ mailId: row.id, kind: row.kind }, 'mail: sent');
    return 1;
  }

  /** The mark of a message the server accepted, tried again (250 ms, doubling to 5 s) while the database is away. */
  private async markSent(mailId: number): Promise<void> {
    const { db, log } = this.options;
    const until = Date.now() + MARK_SENT_WITHIN_MS;
    for (let pause = 250; ; pause = Math.min(pause * 2, 5_000)) {
      try {
        await db.update(mailOutbox).set({ status: 'sent', sentAt: sql`now()`, lastError: null }).where(eq(mailOutbox.id, mailId));
        return;
      } catch (err) {
        if (Date.now() + pause > until) throw err;
        log?.warn({ mailId, err, retryInMs: pause }, 'mail: sent, not yet marked sent (database away): trying again');
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  private async failed(job: RunningJob<MailJob>, row: MailRow, err: unknown): Promise<number> {
    const { db, jobs, retrySeconds, maybeDeliveredPauseSeconds = MAYBE_DELIVERED_PAUSE_SECONDS, log } = this.options;
    const timedOut = isTimeout(err);
    const maybeDelivered = mayHaveBeenDelivered(err);
    const givingUp = job.retryCount >= job.retryLimit;
    const delaySeconds = maybeDelivered ? Math.max(retrySeconds, maybeDeliveredPauseSeconds) : retrySeconds;
    const [after] = await db
      .update(mailOutbox)
      .set({
        status: givingUp ? 'failed' : 'pending',
        lastError: `${maybeDelivered ? MAYBE_DELIVERED_NOTE : ''}${String((err as Error).message ?? err)}`.slice(0, 500),
        timedOut: sql`${mailOutbox.timedOut} OR ${timedOut}`,
      })
      .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'sending')))
      .returning({ ageMinutes: sql<number>`floor(extract(epoch from now() - ${mailOutbox.createdAt}) / 60)::int` });
    // Never the recipient or the body in a log line; the error goes under `err`, whose serializer strips addresses.
    const facts = { mailId: row.id, kind: row.kind, attempts: row.attempts, ageMinutes: after?.ageMinutes };
    if (givingUp) {
      log?.error(facts, 'mail: GIVEN UP, still unsent after MAIL_GIVE_UP_HOURS; staff see it on /staff/alerts and /health');
      throw err;
    }
    log?.warn({ ...facts, timedOut, maybeDelivered, retryInSeconds: delaySeconds, err }, 'mail: send failed, will retry');
    if (!maybeDelivered) throw err;
    // The longer pause: this job ends and the message's next one waits (same key; its retries cover the time left).
    this.maybeDeliveredRetries++;
    await jobs.send<MailJob>(
      'mail',
      { mailId: row.id },
      {
        singletonKey: job.singletonKey ?? dedupeKey(row),
        startAfter: new Date(Date.now() + delaySeconds * 1000),
        retryLimit: this.retriesFor((after?.ageMinutes ?? 0) * 60 + delaySeconds),
        retryDelay: retrySeconds,
        expireInSeconds: SEND_EXPIRY_SECONDS,
      },
    );
    return 0;
  }
}
