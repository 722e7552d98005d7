import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { mailOutbox, type MailRow } from '../payments/tables';
import type { MailSender } from './transport';

export type MailWorkerOptions = {
  db: Db;
  sender: MailSender;
  from: string;
  pollMs: number;
  maxAttempts?: number;
  /** First retry delay; doubles on each further attempt. */
  backoffMs?: number;
  /** A claimed row whose sender died is taken again after this long. */
  claimMs?: number;
  log?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
};

const isTimeout = (err: unknown): boolean => {
  const e = err as { code?: string; message?: string };
  return e?.code === 'ETIMEDOUT' || /timeout|timed out/i.test(e?.message ?? '');
};

/**
 * Sends the outbox. Each row is claimed by one status UPDATE over a FOR UPDATE SKIP LOCKED pick, so two workers
 * (or two processes) never send the same message; failures go back to pending with exponential backoff.
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;

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
          for (const row of claimed) if (await this.deliver(row)) sent++;
          if (claimed.length === 10) this.again = true;
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
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

  private async deliver(row: MailRow): Promise<boolean> {
    const { db, sender, from, maxAttempts = 6, backoffMs = 30_000, log } = this.options;
    try {
      await sender.send({
        from,
        to: row.recipient,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        messageId: row.messageId,
        ics: row.ics,
      });
    } catch (err) {
      const timedOut = isTimeout(err);
      const giveUp = row.attempts >= maxAttempts;
      const delayMs = backoffMs * 2 ** (row.attempts - 1);
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lastError: String((err as Error).message ?? err).slice(0, 500),
          timedOut: sql`${mailOutbox.timedOut} OR ${timedOut}`,
          nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
          claimedUntil: null,
        })
        .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'sending')));
      log?.warn({ mailId: row.id, kind: row.kind, attempt: row.attempts, timedOut, giveUp, err: (err as Error).message }, 'mail: send failed');
      return false;
    }
    await db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: sql`now()`, claimedUntil: null, lastError: null })
      .where(eq(mailOutbox.id, row.id));
    log?.info({ mailId: row.id, kind: row.kind }, 'mail: sent');
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => {});
  }
}
