import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { HTML_LANG } from 'shared-api/contract';
import type { Db } from '../db/connection';
import { DEFAULT_MAIL_GIVE_UP_HOURS } from '../payments/config';
import { mailOutbox, type MailRow } from '../payments/tables';
import type { MailSender } from './transport';

export type MailWorkerOptions = {
  db: Db;
  sender: MailSender;
  from: string;
  pollMs: number;
  /** First retry delay; doubles on each further attempt up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A message still unsent this long after it was written is marked failed (MAIL_GIVE_UP_HOURS); until then it is retried. */
  giveUpAfterMs?: number;
  /** A claimed row whose sender died is taken again after this long. */
  claimMs?: number;
  log?: { info: LogFn; warn: LogFn; error: LogFn };
};

type LogFn = (obj: object, msg: string) => void;

const isTimeout = (err: unknown): boolean => {
  const e = err as { code?: string; message?: string };
  return e?.code === 'ETIMEDOUT' || /timeout|timed out/i.test(e?.message ?? '');
};

/**
 * Sends the outbox. Each row is claimed by one status UPDATE over a FOR UPDATE SKIP LOCKED pick, so two workers
 * (or two processes) never send the same message; failures go back to pending with exponential backoff (capped), and
 * only a message older than giveUpAfterMs is marked failed, with an error log (it also shows on /health and /staff/alerts).
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;
  /** Set by stop() during a pass: the pass sends no further message of its batch. */
  private handingBack = false;

  constructor(private readonly options: MailWorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs a pass now (or right after the current one). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runOnce().catch((err) => this.options.log?.warn({ err: (err as Error).message }, 'mail: pass failed'));
  }

  /** One pass: claims due messages and sends them; resolves with how many were sent. */
  runOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = (async () => {
      let sent = 0;
      try {
        do {
          this.again = false;
          const claimed = await this.claim();
          for (const [i, row] of claimed.entries()) {
            // Stopping: the message being sent finishes; the rest are handed back for the next process at once.
            if (this.handingBack) {
              await this.release(claimed.slice(i));
              break;
            }
            if (await this.deliver(row)) sent++;
          }
          if (claimed.length === 10) this.again = true;
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
        this.handingBack = false;
      }
      return sent;
    })();
    return this.running;
  }

  private async claim(): Promise<MailRow[]> {
    const { db, claimMs = 120_000 } = this.options;
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)),
          and(eq(mailOutbox.status, 'sending'), lt(mailOutbox.claimedUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(10)
      .for('update', { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({
        status: 'sending',
        attempts: sql`${mailOutbox.attempts} + 1`,
        claimedUntil: sql`now() + make_interval(secs => ${claimMs / 1000})`,
      })
      .where(inArray(mailOutbox.id, due))
      .returning();
  }

  /** Claimed but not tried: back to pending, due now, the attempt not counted. */
  private async release(rows: MailRow[]): Promise<void> {
    await this.options.db
      .update(mailOutbox)
      .set({ status: 'pending', attempts: sql`${mailOutbox.attempts} - 1`, claimedUntil: null })
      .where(and(inArray(mailOutbox.id, rows.map((r) => r.id)), eq(mailOutbox.status, 'sending')));
  }

  private async deliver(row: MailRow): Promise<boolean> {
    const {
      db,
      sender,
      from,
      backoffMs = 30_000,
      maxBackoffMs = 30 * 60_000,
      giveUpAfterMs = DEFAULT_MAIL_GIVE_UP_HOURS * 3_600_000,
      log,
    } = this.options;
    try {
      await sender.send({
        from,
        to: row.recipient,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        messageId: row.messageId,
        ics: row.ics,
        ...(row.locale ? { language: HTML_LANG[row.locale] } : {}),
      });
    } catch (err) {
      const timedOut = isTimeout(err);
      const delayMs = Math.min(backoffMs * 2 ** (row.attempts - 1), maxBackoffMs);
      // Age is read on the database's clock, the one created_at was written with (and every replica shares).
      const [after] = await db
        .update(mailOutbox)
        .set({
          status: sql`CASE WHEN ${mailOutbox.createdAt} <= now() - make_interval(secs => ${giveUpAfterMs / 1000}) THEN 'failed' ELSE 'pending' END`,
          lastError: String((err as Error).message ?? err).slice(0, 500),
          timedOut: sql`${mailOutbox.timedOut} OR ${timedOut}`,
          nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
          claimedUntil: null,
        })
        .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'sending')))
        .returning({ status: mailOutbox.status, ageMinutes: sql<number>`floor(extract(epoch from now() - ${mailOutbox.createdAt}) / 60)::int` });
      // Never the recipient or the body in a log line; the error goes under `err`, whose serializer strips addresses.
      const facts = { mailId: row.id, kind: row.kind, attempts: row.attempts, ageMinutes: after?.ageMinutes };
      if (after?.status === 'failed') log?.error(facts, 'mail: GIVEN UP, still unsent after MAIL_GIVE_UP_HOURS; staff see it on /staff/alerts and /health');
      else log?.warn({ ...facts, timedOut, retryInSeconds: delayMs / 1000, err }, 'mail: send failed, will retry');
      return false;
    }
    await db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: sql`now()`, claimedUntil: null, lastError: null })
      .where(eq(mailOutbox.id, row.id));
    log?.info({ mailId: row.id, kind: row.kind }, 'mail: sent');
    return true;
  }

  /** Stops polling; the message being sent finishes and the rest of the claimed batch is released. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.handingBack = this.running !== null;
    clearInterval(this.timer);
    await this.running?.catch(() => {});
  }
}
