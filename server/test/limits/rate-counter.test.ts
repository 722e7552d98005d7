import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { hitCounter, peekCounter, resetCounter, sweepCounters } from '../../src/limits/rate-counter';
import { sharedSecret } from '../../src/base/secrets';
import { createThrowawayPostgres, freshPglite } from '../helpers';

jest.setTimeout(60_000);

describe.each(['pglite', 'postgres'] as const)('rate counters and shared secrets on %s', (driver) => {
  let database: DatabaseHandle;
  let other: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (driver === 'pglite') {
      database = await freshPglite();
      return;
    }
    const pgDb = await createThrowawayPostgres('rate_counters');
    drop = pgDb.drop;
    database = await openDatabase({ driver: 'postgres', url: pgDb.url, poolSize: 20 });
    // A second pool stands for a second API process on the same PostgreSQL.
    other = await openDatabase({ driver: 'postgres', url: pgDb.url, poolSize: 20 });
    await migrate(database);
  });
  afterAll(async () => {
    await other?.close();
    await database?.close();
    await drop?.();
  });

  it('counts hits in a window and starts a new window once it has ended', async () => {
    expect((await hitCounter(database.db, 'k1', 60)).hits).toBe(1);
    const second = await hitCounter(database.db, 'k1', 60);
    expect(second.hits).toBe(2);
    expect(second.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(second.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await peekCounter(database.db, 'k1', 60)).toBe(2);
    // Age the window past its end: the next hit starts again at 1.
    await database.db.execute(sql`UPDATE rate_counters SET window_start = now() - interval '61 seconds' WHERE key = 'k1'`);
    expect(await peekCounter(database.db, 'k1', 60)).toBe(0);
    expect((await hitCounter(database.db, 'k1', 60)).hits).toBe(1);
    await resetCounter(database.db, 'k1');
    expect(await peekCounter(database.db, 'k1', 60)).toBe(0);
  });

  it('sweeps only windows that ended long ago', async () => {
    await hitCounter(database.db, 'old', 60);
    await hitCounter(database.db, 'live', 60);
    await database.db.execute(sql`UPDATE rate_counters SET window_start = now() - interval '2 days' WHERE key = 'old'`);
    expect(await sweepCounters(database.db)).toBe(1);
    expect(await peekCounter(database.db, 'live', 60)).toBe(1);
  });

  it('loses no hit when many requests from two processes count at once', async () => {
    const dbs = [database, other ?? database];
    const hits = await Promise.all(Array.from({ length: 100 }, (_, i) => hitCounter(dbs[i % 2].db, 'burst', 60)));
    expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('gives every process the same secret, created once', async () => {
    const dbs = [database, other ?? database];
    const secrets = await Promise.all(Array.from({ length: 20 }, (_, i) => sharedSecret(dbs[i % 2].db, 'race-secret')));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await sharedSecret(database.db, 'race-secret', 'configured')).toBe('configured');
  });
});
