import { setTimeout as sleep } from 'node:timers/promises';
import { ClientGoneError, tooManyRequests } from '../base/errors';

/*
 * Password hashing (scrypt: ~0.4 s and 128 MiB each) is the one thing a stranger can make this process do at will.
 * Unbounded, 120 wrong logins at once filled libuv's pool for a minute and a colleague's right password got no answer.
 * So every hash of a process goes through one small queue:
 * - HASHES_AT_ONCE run at a time (libuv's pool has 4 threads; the others stay free for files, DNS and zlib);
 * - a request whose turn would come later than MAX_QUEUE_WAIT_MS is refused at once (429, Retry-After), and one still
 *   waiting then is refused too: nobody waits past their patience (the browser gives up at 15 s, the account
 *   hold-back takes up to 10 s of that);
 * - a request whose client hung up leaves the queue before its hash starts;
 * - accounts take turns (round robin): a flood on one account delays a colleague's login by a hash or two, not by the
 *   flood; a device that signed in to the account before (known-device cookie) goes ahead of every account's turn;
 * - logins naming no enabled account cost no hashing at all: they are answered after the time a real check would
 *   take now (`imitate`), and counted in their account's turn like real ones, so a flood of made-up emails burns no
 *   CPU and the answers still do not tell which emails have accounts (docs/SECURITY.md weighs what timing remains).
 */

/** Hashes one process runs at once. */
export const HASHES_AT_ONCE = 2;
/** The longest a request waits for its hash to start. */
export const MAX_QUEUE_WAIT_MS = 3_000;
/** Requests queued at most, whatever the estimate (a bound on memory). */
export const MAX_QUEUED = 1_000;
/** How much each measured hash moves the estimate of the next one. */
const ESTIMATE_WEIGHT = 0.2;
/** The assumed duration of a hash until one has been measured. */
const FIRST_ESTIMATE_MS = 500;

export const PasswordWorkMessage = {
  busy: 'Many sign-ins are being checked right now. Please try again in a few seconds.',
} as const;


export type PasswordWorkOptions = {
  hashesAtOnce: number;
  maxWaitMs: number;
  maxQueued: number;
  /** Told of each outcome (the metrics count them). */
  onCount?: (outcome: PasswordWorkOutcome) => void;
};
export type PasswordWorkOutcome = 'hashed' | 'imitated' | 'refused' | 'abandoned';
export type PasswordWorkCounts = Record<PasswordWorkOutcome, number>;
export type QueueOptions = {
  /** Aborted when the client hangs up: the request leaves the queue. */
  signal?: AbortSignal;
  /** A known device of this account: served before every account's turn. */
  priority?: boolean;
};

type Job = { lane: string; start: () => void; drop: (err: Error) => void };

/** The hashing of one API process (the CPU and memory bounded are the process's own, so the count is too). */
export class PasswordWork {
  readonly options: PasswordWorkOptions;
  readonly counts: PasswordWorkCounts = { hashed: 0, imitated: 0, refused: 0, abandoned: 0 };
  /** The expected duration of one hash, ms (a moving average of the measured ones). */
  hashMs = FIRST_ESTIMATE_MS;
  private running = 0;
  private queued = 0;
  private readonly priority: Job[] = [];
  /** Each account's waiting requests, in turn order (Map order: the next account to be served first). */
  private readonly lanes = new Map<string, Job[]>();
  /** Requests of each account being imitated (no hash): they count in their account's turn. */
  private readonly imitating = new Map<string, number>();

  constructor(options: Partial<PasswordWorkOptions> = {}) {
    this.options = { hashesAtOnce: HASHES_AT_ONCE, maxWaitMs: MAX_QUEUE_WAIT_MS, maxQueued: MAX_QUEUED, ...options };
  }

  private count(outcome: PasswordWorkOutcome): void {
    this.counts[outcome] += 1;
    this.options.onCount?.(outcome);
  }

  /** Requests waiting for a hash now. */
  get waiting(): number {
    return this.queued;
  }

  /** Hashes running now. */
  get hashing(): number {
    return this.running;
  }

  /** How long a new request of `lane` would wait for its hash to start. */
  estimateMs(lane: string, priority = false): number {
    let ahead = this.priority.length;
    if (!priority) {
      // Round robin: before this request's turn, every other account is served up to as many times.
      const turn = (this.lanes.get(lane)?.length ?? 0) + (this.imitating.get(lane) ?? 0) + 1;
      for (const [other, jobs] of this.lanes) if (other !== lane) ahead += Math.min(jobs.length, turn);
      ahead += turn - 1;
    }
    const { hashesAtOnce } = this.options;
    return (Math.max(0, ahead + this.running - hashesAtOnce + 1) / hashesAtOnce) * this.hashMs;
  }

  /** The estimate for a new request, or a 429 when it would wait too long (or the queue is full). */
  private admit(lane: string, priority: boolean): number {
    const wait = this.estimateMs(lane, priority);
    if (wait <= this.options.maxWaitMs && this.queued < this.options.maxQueued) return wait;
    this.count('refused');
    throw this.busy(wait);
  }

  private gone(): ClientGoneError {
    this.count('abandoned');
    return new ClientGoneError();
  }

  private busy(waitMs: number) {
    return tooManyRequests(PasswordWorkMessage.busy, Math.max(1, Math.ceil((waitMs - this.options.maxWaitMs) / 1000)));
  }

  /**
   * Runs `work` (one or two hashes) when its turn comes; refuses at once (429) when that would be too late, refuses a
   * request still waiting after maxWaitMs, and drops one whose client hung up (ClientGoneError) before it starts.
   */
  run<T>(lane: string, work: () => Promise<T>, { signal, priority = false }: QueueOptions = {}): Promise<T> {
    if (signal?.aborted) return Promise.reject(this.gone());
    try {
      this.admit(lane, priority);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (this.remove(job)) job.drop(this.gone());
      };
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const job: Job = {
        lane,
        drop: (err) => {
          settle();
          reject(err);
        },
        start: () => {
          settle();
          this.running += 1;
          const started = performance.now();
          void work()
            .then(resolve, reject)
            .finally(() => {
              this.running -= 1;
              this.count('hashed');
              this.hashMs += ESTIMATE_WEIGHT * (performance.now() - started - this.hashMs);
              this.dispatch();
            });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        if (!this.remove(job)) return;
        this.count('refused');
        job.drop(this.busy(this.estimateMs(lane, priority)));
      }, this.options.maxWaitMs);
      timer.unref();
      this.queued += 1;
      if (priority) this.priority.push(job);
      else {
        // An account already waiting keeps its place in the turn order.
        const jobs = this.lanes.get(lane);
        if (jobs) jobs.push(job);
        else this.lanes.set(lane, [job]);
      }
      this.dispatch();
    });
  }

  /**
   * A request that needs no hash (no such account) but must look like one: refused when a real one would be, else
   * answered after the wait and the hash a real one would have now. It takes no hashing slot.
   */
  async imitate(lane: string, { signal }: QueueOptions = {}): Promise<void> {
    if (signal?.aborted) throw this.gone();
    const wait = this.admit(lane, false);
    this.count('imitated');
    this.imitating.set(lane, (this.imitating.get(lane) ?? 0) + 1);
    try {
      // A real hash's duration varies by some tens of per cent from one to the next.
      await sleep(wait + this.hashMs * (0.85 + 0.3 * Math.random()), undefined, { signal });
    } catch {
      throw new ClientGoneError();
    } finally {
      const left = (this.imitating.get(lane) ?? 1) - 1;
      if (left > 0) this.imitating.set(lane, left);
      else this.imitating.delete(lane);
    }
  }

  /** Takes a waiting job out of the queue; false when it already started (or left). */
  private remove(job: Job): boolean {
    const from = this.priority.includes(job) ? this.priority : this.lanes.get(job.lane);
    const at = from ? from.indexOf(job) : -1;
    if (!from || at < 0) return false;
    from.splice(at, 1);
    if (from !== this.priority && from.length === 0) this.lanes.delete(job.lane);
    this.queued -= 1;
    return true;
  }

  /** Starts waiting jobs while a hashing slot is free: known devices first, then one job per account in turn. */
  private dispatch(): void {
    while (this.running < this.options.hashesAtOnce) {
      let job = this.priority.shift();
      if (!job) {
        const next = this.lanes.entries().next();
        if (next.done) return;
        const [lane, jobs] = next.value;
        job = jobs.shift()!;
        this.lanes.delete(lane);
        // The account goes to the back of the turn order.
        if (jobs.length) this.lanes.set(lane, jobs);
      }
      this.queued -= 1;
      job.start();
    }
  }
}
