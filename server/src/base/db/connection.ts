import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { lockDataFolder } from './lock';

export type Db = PgDatabase<PgQueryResultHKT>;
/** A database or an open transaction: service functions take either, so callers can compose them in one transaction. */
export type DbOrTx = Db;
export type Driver = 'pglite' | 'postgres';

export type RawExec = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export type DatabaseHandle = {
  db: Db;
  driver: Driver;
  /** PGlite only: a tar dump of the whole database (tests start new databases from it). */
  dump?: () => Promise<Blob>;
  /** One statement (or, without params, several: the last one's result) outside any transaction, on the raw client. */
  exec: RawExec;
  /** Runs `fn` in one transaction on the raw client (multi-statement SQL allowed when no params are given). */
  rawTransaction<T>(fn: (exec: RawExec) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` while this process alone holds `lockKey` among all processes on the database (a PostgreSQL session
   * advisory lock on a connection of its own, so `fn` may use the pool; PGlite has one process, its folder's lock).
   */
  exclusively<T>(lockKey: number, fn: () => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel` (PostgreSQL: on a connection of its own) and calls `onPayload` with each NOTIFY's payload;
   * `onLost` when that connection ends (notifications may have been missed). Resolves with a function that stops.
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export type OpenOptions =
  | { driver: 'pglite'; dataDir?: string; inMemory?: boolean; /** A dump (tar) to start an in-memory database from. */ loadDataDir?: Blob }
  | { driver: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  return options.driver === 'postgres' ? openPostgres(options.url, options.poolSize) : openPglite(options);
}

async function openPglite(options: { dataDir?: string; inMemory?: boolean; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  let release = () => {};
  let client: PGlite;
  if (options.inMemory || !options.dataDir) {
    client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  } else {
    const folder = path.join(options.dataDir, 'pglite');
    fs.mkdirSync(options.dataDir, { recursive: true });
    release = lockDataFolder(folder);
    try {
      client = await PGlite.create(folder);
    } catch (err) {
      release();
      throw err;
    }
  }
  const db = drizzlePglite({ client }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    dump: async () => (await client.dumpDataDir('none')) as Blob,
    exec: async (text, params) => {
      if (params) return (await client.query(text, params)) as { rows: Record<string, unknown>[] };
      const results = await client.exec(text);
      return (results[results.length - 1] ?? { rows: [] }) as { rows: Record<string, unknown>[] };
    },
    rawTransaction: (fn) =>
      client.transaction((tx) =>
        fn(async (text, params) => {
          if (params) return (await tx.query(text, params)) as { rows: Record<string, unknown>[] };
          const results = await tx.exec(text);
          return (results[results.length - 1] ?? { rows: [] }) as { rows: Record<string, unknown>[] };
        }),
      ),
    exclusively: (_lockKey, fn) => fn(),
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, (payload) => onPayload(payload));
      return () => stop();
    },
    close: async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(url: string, poolSize = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor one checked out (a transaction, a held advisory lock) when PostgreSQL restarts: its query in flight rejects.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg({ client: pool }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    exec: async (text, params) => (await pool.query(text, params)) as { rows: Record<string, unknown>[] },
    rawTransaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(async (text, params) => (await client.query(text, params)) as { rows: Record<string, unknown>[] });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    exclusively: async (lockKey, fn) => {
      const holder = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      holder.on('error', () => {});
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [lockKey]);
        return await fn();
      } finally {
        // Ending the session releases the lock, also when the unlock cannot be sent.
        await holder.end().catch(() => {});
      }
    },
    listen: async (channel, onPayload, onLost) => {
      const listener = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      let stopped = false;
      const lost = () => {
        if (!stopped) onLost();
        stopped = true;
      };
      listener.on('error', lost);
      listener.on('end', lost);
      listener.on('notification', (message) => {
        if (message.channel === channel) onPayload(message.payload ?? '');
      });
      await listener.connect();
      await listener.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      return async () => {
        stopped = true;
        await listener.end().catch(() => {});
      };
    },
    close: () => pool.end(),
  };
}

/** Round trip to the database; resolves with the latency in ms, rejects when down or slower than `timeoutMs`. */
export async function pingDatabase(db: Db, timeoutMs = 2000): Promise<number> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('Database did not answer in time'), { code: 'ETIMEDOUT' })), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
  return Math.round((performance.now() - started) * 10) / 10;
}
