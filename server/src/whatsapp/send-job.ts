import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../base/db/connection';
import { JOB_SCHEMA, type JobEngine, type RunningJob } from '../base/jobs/engine';
import { TOO_LATE, type WhatsAppApi } from './outbox';
import { applyStatus, lockWamid } from './statuses';
import { whatsappEvents, whatsappMessages } from './tables';

type LogFn = (obj: object, msg: string) => void;

export type WhatsAppQueueOptions = {
  db: Db;
  jobs: JobEngine;
  api: WhatsAppApi;
  /** The first wait after a 429 or 5xx; pg-boss doubles it each retry (WHATSAPP_RETRY_SECONDS). */
  retrySeconds: number;
  /** A message unsent this long after it was due is marked failed with its last error (WHATSAPP_GIVE_UP_HOURS). */
  giveUpHours: number;
  pollSeconds?: number;
  log?: { info: LogFn; warn: LogFn; error: LogFn };
};

export type WhatsAppJob = { messageId: number };

/** A job whose process died is tried again after this long (pg-boss's expiry): above the adapter's own timeout. */
const SEND_EXPIRY_SECONDS = 120;
/** Retries with doubling waits from retrySeconds: 30 s · 2^12 is well past a day; the give-up age ends it sooner. */
const RETRY_LIMIT = 14;

/**
 * The WhatsApp outbox's sender on pg-boss: each unsent row gets one `whatsapp` job (singleton key: its dedupe key,
 * startAfter: its send_after), queued after the transaction that wrote it commits, at start, and each minute
 * (`whatsapp-relay`) for a row still without one. The job marks the row sending and calls the adapter; accepted, the
 * row keeps its wamid and is never sent again; a 429/5xx throws for pg-boss to retry with backoff; a refusal (or the
 * give-up age) marks it failed with the platform's code and title. Email is sent apart and never waits for this.
 */
export class WhatsAppQueue {
  constructor(private readonly options: WhatsAppQueueOptions) {
    options.jobs.handle<WhatsAppJob>('whatsapp', (job) => this.deliver(job), { pollingIntervalSeconds: options.pollSeconds });
    options.jobs.handle('whatsapp-relay', () => this.enqueuePending().then((queued) => (queued && options.jobs.notify('whatsapp'), queued)));
  }

  /** Queues a job for every unsent message without one waiting or running; resolves with how many were queued. */
  async enqueuePending(): Promise<number> {
    const { db, jobs, retrySeconds } = this.options;
    const rows = await db
      .select({ id: whatsappMessages.id, dedupeKey: whatsappMessages.dedupeKey, sendAfter: whatsappMessages.sendAfter })
      .from(whatsappMessages)
      .where(
        and(
          inArray(whatsappMessages.state, ['queued', 'sending']),
          isNull(whatsappMessages.wamid),
          sql`NOT EXISTS (SELECT 1 FROM ${sql.raw(JOB_SCHEMA)}.job j WHERE j.name = 'whatsapp' AND j.state < 'completed' AND (j.data->>'messageId')::bigint = ${whatsappMessages.id})`,
        ),
      )
      .orderBy(asc(whatsappMessages.id));
    let queued = 0;
    for (const row of rows) {
      const id = await jobs.send<WhatsAppJob>(
        'whatsapp',
        { messageId: row.id },
        { singletonKey: row.dedupeKey, startAfter: row.sendAfter, retryLimit: RETRY_LIMIT, retryDelay: retrySeconds, retryBackoff: true, expireInSeconds: SEND_EXPIRY_SECONDS },
      );
      if (id) queued++;
    }
    return queued;
  }

  /** Queues what is unsent and works the due jobs here and now (tests, an operator's pass). */
  async runOnce(): Promise<number> {
    await this.enqueuePending();
    return this.options.jobs.runDue('whatsapp');
  }

  /** After a commit that wrote messages: queue their jobs and wake this process's worker. */
  wake(): void {
    void this.enqueuePending()
      .then((queued) => queued && this.options.jobs.notify('whatsapp'))
      .catch((err) => this.options.log?.warn({ err: (err as Error).message }, 'whatsapp: could not queue'));
  }

  /** One job: sends its message unless it was accepted already (it has a wamid) or ended; throws for pg-boss to retry. */
  async deliver(job: RunningJob<WhatsAppJob>): Promise<number> {
    const { db, api, log, giveUpHours } = this.options;
    const [row] = await db
      .update(whatsappMessages)
      .set({ state: 'sending', attempts: sql`${whatsappMessages.attempts} + 1` })
      .where(and(eq(whatsappMessages.id, job.data.messageId), inArray(whatsappMessages.state, ['queued', 'sending']), isNull(whatsappMessages.wamid)))
      .returning();
    if (!row) return 0;
    if (row.sendBefore && row.sendBefore.getTime() <= Date.now()) {
      await db.update(whatsappMessages).set({ state: 'failed', errorTitle: TOO_LATE, stateAt: sql`now()` }).where(eq(whatsappMessages.id, row.id));
      return 0;
    }
    let result: Awaited<ReturnType<WhatsAppApi['send']>>;
    try {
      result = await api.send(row.requestBody);
    } catch (err) {
      // The adapter answers rather than throws; a throw (a bug, a lost connection) is retried like a 5xx.
      result = { ok: false, retry: true, status: 0, title: (err as Error).message ?? String(err) };
    }
    if (result.ok) {
      await db.transaction(async (tx) => {
        await lockWamid(tx, result.messageId);
        await tx
          .update(whatsappMessages)
          .set({ state: 'sent', wamid: result.messageId, sentAt: sql`now()`, errorCode: null, errorTitle: null })
          .where(eq(whatsappMessages.id, row.id));
        // Statuses the webhook brought before the wamid was stored, applied now in the platform's order.
        const early = await tx.select().from(whatsappEvents).where(eq(whatsappEvents.wamid, result.messageId)).orderBy(asc(whatsappEvents.platformAt));
        for (const event of early) await applyStatus(tx, event.wamid, event.status, event.platformAt, (event.raw as { errors?: unknown }).errors);
      });
      log?.info({ whatsappId: row.id, kind: row.kind }, 'whatsapp: sent');
      return 1;
    }
    const code = result.code === undefined ? String(result.status) : String(result.code);
    const overAge = Date.now() - Math.max(row.sendAfter.getTime(), row.createdAt.getTime()) > giveUpHours * 3600_000;
    const lastTry = job.retryCount >= job.retryLimit;
    if (!result.retry || overAge || lastTry) {
      await db.update(whatsappMessages).set({ state: 'failed', errorCode: code, errorTitle: result.title, stateAt: sql`now()` }).where(eq(whatsappMessages.id, row.id));
      log?.warn({ whatsappId: row.id, kind: row.kind, code }, 'whatsapp: failed');
      return 0;
    }
    await db.update(whatsappMessages).set({ state: 'queued', errorCode: code, errorTitle: result.title }).where(eq(whatsappMessages.id, row.id));
    throw new Error(`WhatsApp refused for now (${code}: ${result.title}); retried later`);
  }
}
