import { sql } from 'drizzle-orm';
import type { Db } from '../base/db/connection';

/**
 * The public list's serialized answers, kept for at most `ttlMs` and only while `slot_changes_seq` (moved by a
 * trigger on every change to a slot row, migration 0003) has not moved. A booking, hold, release, new or deleted slot
 * therefore shows on the next request; what changes with time alone (a hold running out, the lead-time cutoff)
 * shows within `ttlMs`.
 */
export type PublicListCache = {
  /** The answer for `key`, from the cache or from `build` (which returns the serialized body). */
  get: (key: string, build: () => Promise<string>) => Promise<string>;
};

export function createPublicListCache(db: Db, ttlMs = 1000): PublicListCache {
  const entries = new Map<string, { body: string; version: string; at: number }>();
  const readVersion = async (): Promise<string> => {
    const result = (await db.execute(sql`SELECT last_value, is_called FROM slot_changes_seq`)) as unknown as {
      rows: { last_value: string | number; is_called: boolean }[];
    };
    const row = result.rows[0];
    return `${row.last_value}:${row.is_called}`;
  };
  // At most one read of the sequence at a time: requests arriving while one runs share the next one, which starts
  // after they arrived (so none of them can miss a change committed before it asked).
  let running: Promise<string> | undefined;
  let queued: Promise<string> | undefined;
  const start = () => (running = readVersion().finally(() => (running = undefined)));
  const currentVersion = (): Promise<string> => {
    if (queued) return queued;
    if (!running) return start();
    const after = running.then(
      () => undefined,
      () => undefined,
    );
    queued = after.then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
  return {
    async get(key, build) {
      const version = await currentVersion();
      const entry = entries.get(key);
      if (entry && entry.version === version && Date.now() - entry.at < ttlMs) return entry.body;
      const at = Date.now();
      const body = await build();
      // Keyed by limit/page/format: a handful of entries; drop them all rather than grow without bound.
      if (entries.size > 100) entries.clear();
      entries.set(key, { body, version, at });
      return body;
    },
  };
}
