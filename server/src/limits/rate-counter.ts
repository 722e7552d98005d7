import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';

export type CounterHit = {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
};

/**
 * Counts one hit on `key` in a fixed window of `windowSeconds`, in ONE upsert, so concurrent requests on any number of
 * API processes sharing the database count the same hits (a counter in process memory would allow N× with N replicas).
 * The wait is capped at the window: a racing transaction that started earlier sees a window_start later than its now().
 */
export async function hitCounter(db: DbOrTx, key: string, windowSeconds: number, by = 1): Promise<CounterHit> {
  const result = (await db.execute(sql`
    INSERT INTO rate_counters AS c (key, window_start, hits) VALUES (${key}, now(), ${by})
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN ${by} ELSE c.hits + ${by} END,
      window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE c.window_start END
    RETURNING hits, LEAST(${windowSeconds}, GREATEST(1, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${windowSeconds}) - now())))))::int AS retry_after`)) as unknown as {
    rows: { hits: number; retry_after: number }[];
  };
  const row = result.rows[0];
  return { hits: Number(row.hits), retryAfterSeconds: Number(row.retry_after) };
}

/** The hits on `key` in its current window without counting one (0 when the window has ended). */
export async function peekCounter(db: DbOrTx, key: string, windowSeconds: number): Promise<number> {
  const result = (await db.execute(sql`
    SELECT hits FROM rate_counters
    WHERE key = ${key} AND window_start > now() - make_interval(secs => ${windowSeconds})`)) as unknown as { rows: { hits: number }[] };
  return Number(result.rows[0]?.hits ?? 0);
}

/** Forgets a key (e.g. the failures of an account after a successful login). */
export async function resetCounter(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_counters WHERE key = ${key}`);
}

/** Drops windows that ended long ago (called now and then; the table only holds live keys). */
export async function sweepCounters(db: DbOrTx, olderThanSeconds = 86_400): Promise<number> {
  const result = (await db.execute(sql`
    DELETE FROM rate_counters WHERE window_start < now() - make_interval(secs => ${olderThanSeconds}) RETURNING key`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
