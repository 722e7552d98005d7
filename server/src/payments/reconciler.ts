import type { PaymentService } from './service';

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** Asks the gateway about every open payment at start and then every `intervalMs` (a lost callback still finishes). */
export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    private readonly service: PaymentService,
    private readonly intervalMs: number,
    private readonly log: Log,
  ) {}

  /** Runs one pass now, then keeps a timer. Resolves when the first pass is done. */
  async start(): Promise<number> {
    const first = await this.runOnce();
    if (this.intervalMs > 0) {
      this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
      this.timer.unref();
    }
    return first;
  }

  runOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.service
      .reconcileAll()
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

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
