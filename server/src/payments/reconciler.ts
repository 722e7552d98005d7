import type { JobEngine } from '../base/jobs/engine';
import type { PaymentRow } from './tables';
import type { PaymentService } from './service';

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

export type ReconcilerOptions = {
  /** Payments claimed per statement. */
  batchSize?: number;
  /** Gateway calls in flight at once. */
  concurrency?: number;
};

/**
 * Asks the gateway about every open payment (a lost callback still finishes) and queues owed refunds that have no job, as the
 * `reconcile` queue's job: pg-boss runs a pass at start and every RECONCILE_INTERVAL_MS on one process or another.
 * A pass claims payments in batches, least recently checked first, until each has been looked at since the pass
 * began, so a backlog or a refund that keeps failing never keeps the others waiting; passes running at once on other
 * processes skip what this one claimed.
 */
export class Reconciler {
  private running: Promise<number> | null = null;
  private stopped = false;
  private jobs: JobEngine | undefined;
  private passed: (changed: number) => void = () => {};
  /** This process's first finished pass: how many payments it changed. */
  readonly firstPass = new Promise<number>((resolve) => (this.passed = resolve));

  constructor(
    private readonly service: PaymentService,
    private readonly intervalMs: number,
    private readonly log: Log,
    private readonly options: ReconcilerOptions = {},
  ) {}

  /** Makes this the handler of the `reconcile` queue. */
  attach(jobs: JobEngine): this {
    this.jobs = jobs;
    jobs.handle('reconcile', () => this.runOnce());
    return this;
  }

  /** Works the `reconcile` queue here and schedules its passes: one now, then every intervalMs (0: none after). */
  async start(): Promise<void> {
    if (!this.jobs) throw new Error('Reconciler.start needs attach(jobs) first');
    await this.jobs.work(['reconcile']);
    await this.jobs.every('reconcile', this.intervalMs);
  }

  /** One pass (or the one already running in this process); resolves with how many payments changed status. */
  runOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.pass()
      .then((changed) => {
        if (changed) this.log.info({ changed }, 'reconciliation: payments finished');
        this.passed(changed);
        return changed;
      })
      .catch((err) => {
        this.log.error({ err: (err as Error).message }, 'reconciliation pass failed');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async pass(): Promise<number> {
    const { batchSize = 50, concurrency = 4 } = this.options;
    let passStart: Date | undefined;
    let changed = 0;
    await this.service.refunds.requestMissing();
    const check = async (p: PaymentRow) => {
      const after = await this.service.reconcile(p).catch((err) => {
        this.log.error({ paymentId: p.id, err: (err as Error).message }, 'payment: reconcile failed');
        return p;
      });
      if (after.status !== p.status) changed++;
    };
    for (;;) {
      if (this.stopped) return changed;
      const claimed = await this.service.claimDue(batchSize, passStart);
      if (claimed.length === 0) return changed;
      // The first claim's time (the database's clock) marks the pass: later claims skip what was looked at since.
      passStart ??= claimed[0].lastCheckedAt!;
      const queue = [...claimed];
      // Stopping: checks under way finish, the rest are due again for any process after the status window.
      const worker = async () => {
        for (let p = queue.shift(); p && !this.stopped; p = queue.shift()) await check(p);
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    }
  }

  /** Ends the pass under way after its gateway calls in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
