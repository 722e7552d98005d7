/**
 * Fixed-window attempt counter per key (here: per account email). @fastify/rate-limit covers the per-IP limit, but it
 * runs at most one of its limiters per request, so the per-account one is this small in-memory counter.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts an attempt; false when the key has used up its attempts in the current window. */
  hit(key: string, now = Date.now()): boolean {
    if (this.windows.size > 10_000) this.sweep(now);
    const current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return this.max >= 1;
    }
    current.count += 1;
    return current.count <= this.max;
  }

  /** Seconds until the key's window ends. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const current = this.windows.get(key);
    return current ? Math.max(1, Math.ceil((current.resetAt - now) / 1000)) : 1;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
