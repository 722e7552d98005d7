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
 * Asks the gateway about every open payment at start and then every `intervalMs` (a lost callback still finishes), and
 * retries due refunds. A pass claims payments in batches, least recently checked first, until each has been looked at
 * since the pass began, so a backlog or a refund that keeps failing never keeps the others waiting; other processes
 * running passes on the same database skip what this one claimed.
 */
export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly service: PaymentService,
    private readonly intervalMs: number,
    private readonly log: Log,
    private readonly options: ReconcilerOptions = {},
  ) {}

  /** Runs one pass now, then keeps a timer. Resolves when the first pass is done. */
  async start(): Promise<number> {
    const first = await this.runOnce();
    if (this.intervalMs > 0 && !this.stopped) {
      this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
      this.timer.unref();
    }
    return first;
  }

  /** One pass (or the one already running); resolves with how many payments changed status. */
  runOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.pass()
      .then((changed) => {
        if (changed) this.log.info({ changed }, 'reconciliation: payments finished');
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
    const check = async (p: PaymentRow) => {
      const after = await this.service.reconcile(p).catch((err) => {
        this.log.error({ paymentId: p.id, err: (err as Error).message }, 'payment: reconcile failed');
        return p;
      });
      if (after.status !== p.status) changed++;
    };
    for (;;) {
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
      if (this.stopped) return changed;
    }
  }

  /** Stops the timer and the pass under way after its gateway calls in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
