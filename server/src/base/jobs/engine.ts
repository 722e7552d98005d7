import PgBoss from 'pg-boss';

/** The database as pg-boss needs it: raw SQL outside a transaction (db/connection.ts's handle is one). */
export type SqlExecutor = { exec(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };

/** pg-boss keeps its tables in a schema of its own. */
export const JOB_SCHEMA = 'pgboss';

export const QUEUES = ['mail', 'mail-relay', 'refund', 'child-refund', 'reconcile', 'reminders', 'sweep-counters', 'retention', 'waitlist', 'whatsapp', 'whatsapp-relay'] as const;
export type QueueName = (typeof QUEUES)[number];
/**
 * Each queue's pg-boss policy. `stately` (a message, a refund): at most one waiting and one running job per singleton
 * key, so a repeated send is ignored and no key is worked twice at once (a job whose process died holds its key until
 * it expires). `short` (periodic passes, safe to overlap): at most one waiting per key, none held by a dead process.
 */
export const QUEUE_POLICY: Record<QueueName, 'stately' | 'short'> = {
  mail: 'stately',
  refund: 'stately',
  // One child's share of a payment (issue 37), keyed by payment and child.
  'child-refund': 'stately',
  'mail-relay': 'short',
  reconcile: 'short',
  reminders: 'short',
  'sweep-counters': 'short',
  retention: 'short',
  // One offer pass at a time across processes is kept by the pass's own advisory lock (waitlist/pass.ts).
  waitlist: 'short',
  // One WhatsApp message (issue 38), keyed by its dedupe key; its relay queues rows still without a job.
  whatsapp: 'stately',
  'whatsapp-relay': 'short',
};
/** pg-boss's own queue for cron schedules (created by the owner with the others; see install.ts). */
export const CRON_QUEUE = '__pgboss__send-it';

export type JobOptions = Pick<PgBoss.SendOptions, 'singletonKey' | 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds' | 'startAfter'>;

/** A job as its handler sees it: retryCount counts the attempts before this one, retryLimit the retries it may have. */
export type RunningJob<T> = { id: string; data: T; retryCount: number; retryLimit: number; singletonKey: string | null };
/** Resolves with what it did (a count, summed by runDue), throws to have pg-boss retry the job (or fail it when spent). */
export type JobHandler<T> = (job: RunningJob<T>) => Promise<number>;

type Log = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** pg-boss's `db` over our database handle: the same PGlite instance (one connection) or the same pg pool. */
export const bossDb = (database: SqlExecutor): PgBoss.Db => ({
  executeSql: (text, values) => database.exec(text, values && values.length ? values : undefined),
});

/** The pg-boss instance's options: maintenance and cron on, schema installed by the migration step (install.ts). */
export const bossOptions = (database: SqlExecutor, extra: Partial<PgBoss.ConstructorOptions> = {}): PgBoss.ConstructorOptions => ({
  db: bossDb(database),
  schema: JOB_SCHEMA,
  migrate: false,
  ...extra,
});

type Registered = { handler: JobHandler<unknown>; pollingIntervalSeconds: number; workerId?: string; off?: boolean };

/**
 * The process's job engine: pg-boss over the app's database, the handlers of each queue, and the periodic passes.
 * Claiming, leasing (expiry), retries with their delays, and schedules are pg-boss's; handlers only do the work.
 */
export class JobEngine {
  readonly boss: PgBoss;
  private readonly handlers = new Map<QueueName, Registered>();
  private readonly intervals = new Map<QueueName, number>();
  private started: Promise<void> | null = null;
  private stopped = false;
  /** pg-boss's statements and our handlers under way: stop() waits for both to end before the database may close. */
  private statementsUnderWay = 0;
  private handlersUnderWay = 0;

  constructor(
    readonly database: SqlExecutor,
    private readonly log: Log,
    options: Partial<PgBoss.ConstructorOptions> = {},
  ) {
    const counted: SqlExecutor = {
      exec: async (text, params) => {
        this.statementsUnderWay += 1;
        try {
          return await database.exec(text, params);
        } finally {
          this.statementsUnderWay -= 1;
        }
      },
    };
    this.boss = new PgBoss(bossOptions(counted, options));
    this.boss.on('error', (err: Error) => this.log.warn({ err: err.message }, 'jobs: pg-boss reported an error'));
  }

  /** Starts pg-boss once (maintenance: expiry of stalled jobs, archiving; cron). */
  start(): Promise<void> {
    this.started ??= this.boss.start().then(() => undefined);
    return this.started;
  }

  /** The queue's handler; `work` starts polling it. */
  handle<T>(queue: QueueName, handler: JobHandler<T>, { pollingIntervalSeconds = 2 }: { pollingIntervalSeconds?: number } = {}): void {
    this.handlers.set(queue, { handler: handler as JobHandler<unknown>, pollingIntervalSeconds });
  }

  /** Starts this process's workers for the given queues (all handled ones by default). */
  async work(queues: QueueName[] = [...this.handlers.keys()]): Promise<void> {
    await this.start();
    for (const queue of queues) {
      const registered = this.handlers.get(queue);
      if (!registered || registered.workerId || registered.off || this.stopped) continue;
      registered.workerId = await this.boss.work<unknown>(
        queue,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: registered.pollingIntervalSeconds },
        async ([job]) => {
          this.handlersUnderWay += 1;
          try {
            // Fetched while stopping: given back for a retry, not worked on a database about to close.
            if (this.stopped) throw new Error('The job engine is stopping');
            return await this.run(queue, registered.handler, job);
          } finally {
            this.handlersUnderWay -= 1;
            // A job was there: look for the next at once (pg-boss would otherwise wait a polling interval).
            if (registered.workerId && !this.stopped) this.boss.notifyWorker(registered.workerId);
          }
        },
      );
    }
  }

  /** Starts this process's worker for a queue again after stopWorking. */
  async startWorking(queue: QueueName): Promise<void> {
    const registered = this.handlers.get(queue);
    if (registered) registered.off = false;
    await this.work([queue]);
  }

  /** Stops this process's worker for a queue (its job under way finishes), for good: `work` leaves it off. */
  async stopWorking(queue: QueueName): Promise<void> {
    const registered = this.handlers.get(queue);
    if (!registered) return;
    registered.off = true;
    if (!registered.workerId) return;
    await this.boss.offWork({ id: registered.workerId });
    registered.workerId = undefined;
  }

  /** Wakes this process's worker of a queue now instead of at its next poll. */
  notify(queue: QueueName): void {
    const workerId = this.handlers.get(queue)?.workerId;
    if (workerId) this.boss.notifyWorker(workerId);
  }

  /** Queues a job; resolves with its id, or null when one with its singleton key is already waiting. */
  async send<T extends object>(queue: QueueName, data: T, options: JobOptions = {}): Promise<string | null> {
    await this.start();
    return this.boss.send(queue, data, options);
  }

  /** Asks for one more run of a periodic pass soon (coalesced: at most one such job waits); never throws. */
  poke(queue: QueueName): void {
    if (this.stopped) return;
    void this.send(queue, {}, { singletonKey: 'poke' })
      .then(() => this.notify(queue))
      .catch((err) => this.log.warn({ err: (err as Error).message, queue }, 'jobs: could not queue a pass'));
  }

  /**
   * Which of the singleton keys have no job of the queue waiting or running, nor one that failed within `failedHours`
   * (a key whose job failed longer ago is due again). Read from pg-boss's tables, archive included.
   */
  async keysWithoutJob(queue: QueueName, keys: string[], failedHours: number): Promise<string[]> {
    if (keys.length === 0) return [];
    await this.start();
    const { rows } = await this.database.exec(
      `SELECT k FROM unnest($2::text[]) AS keys(k)
        WHERE NOT EXISTS (
          SELECT 1 FROM ${JOB_SCHEMA}.job j WHERE j.name = $1 AND j.singleton_key = k
             AND (j.state < 'completed' OR (j.state = 'failed' AND j.completed_on > now() - make_interval(hours => $3)))
          UNION ALL
          SELECT 1 FROM ${JOB_SCHEMA}.archive a WHERE a.name = $1 AND a.singleton_key = k AND a.state = 'failed'
             AND a.completed_on > now() - make_interval(hours => $3))`,
      [queue, keys, failedHours],
    );
    return rows.map((r) => String(r.k));
  }

  /**
   * Runs the queue's handler every `intervalMs` across all processes: a whole number of minutes is a pg-boss cron
   * schedule, a shorter one a chain (each pass queues the next, delayed). Either way a pass runs now too; 0: only now.
   */
  async every(queue: QueueName, intervalMs: number): Promise<void> {
    await this.start();
    if (intervalMs > 0) this.intervals.set(queue, intervalMs);
    if (intervalMs > 0 && intervalMs % 60_000 === 0) {
      const minutes = intervalMs / 60_000;
      await this.boss.schedule(queue, minutes === 1 ? '* * * * *' : minutes < 60 ? `*/${minutes} * * * *` : '0 * * * *', {}, { singletonKey: 'cron' });
    }
    await this.boss.send(queue, {}, { singletonKey: 'now' });
  }

  /** Runs the queue's handler at the times of a cron expression, in Malaysia's time zone, on one process or another. */
  async cron(queue: QueueName, expression: string): Promise<void> {
    await this.start();
    await this.boss.schedule(queue, expression, {}, { tz: 'Asia/Kuala_Lumpur', singletonKey: 'cron' });
  }

  private async run(queue: QueueName, handler: JobHandler<unknown>, job: PgBoss.JobWithMetadata<unknown>): Promise<number> {
    const interval = this.intervals.get(queue);
    // The chain's next pass is queued before this one works, so a pass that fails never ends the chain.
    if (interval && interval % 60_000 !== 0 && !this.stopped)
      await this.boss.send(queue, {}, { singletonKey: 'next', startAfter: new Date(Date.now() + interval) }).catch(() => null);
    return handler({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit, singletonKey: job.singletonKey });
  }

  /**
   * Works the queue's due jobs here and now, one by one (tests, and a pass an operator asks for): each is completed, or
   * failed for pg-boss to retry as its settings say. Resolves with the sum of what the handler reported.
   */
  async runDue(queue: QueueName, limit = 100): Promise<number> {
    await this.start();
    const registered = this.handlers.get(queue);
    if (!registered) throw new Error(`No handler for the ${queue} queue`);
    let total = 0;
    for (let n = 0; n < limit; n++) {
      const [job] = await this.boss.fetch<unknown>(queue, { includeMetadata: true, batchSize: 1 });
      if (!job) break;
      try {
        total += await this.run(queue, registered.handler, job);
        await this.boss.complete(queue, job.id);
      } catch (err) {
        await this.boss.fail(queue, job.id, { message: String((err as Error).message ?? err) });
      }
    }
    return total;
  }

  /** Stops the workers (jobs under way finish, or are failed back for a retry after `timeoutMs`) and pg-boss. */
  async stop(timeoutMs = 8_000): Promise<void> {
    this.stopped = true;
    if (!this.started) return;
    await this.started.catch(() => {});
    const until = Date.now() + timeoutMs;
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: false, wait: true }).catch(() => {});
    // pg-boss resolves while a worker's fetch may still be under way, and records a job's end without waiting for it:
    // wait until neither a statement nor a handler has been under way for a moment, so none meets a closed database.
    for (let quiet = 0; quiet < 3 && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      quiet = this.statementsUnderWay === 0 && this.handlersUnderWay === 0 ? quiet + 1 : 0;
    }
  }
}
