jest.setTimeout(120_000);
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { openDatabase } from '../../src/db/connection';
import { queryRows } from '../helpers';
import { json, removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { SANDBOX_SECRET, throwawayPostgres } from '../payments/support';

// Two real API processes on one PostgreSQL: one client's hold limit is counted in the database, so reserving through
// both at once still gives it only its free allowance in all.

describe('hold limits shared by two API processes on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    ({ url, drop } = await throwawayPostgres('hold_replicas'));
  });
  afterAll(async () => {
    await stopAll(children);
    await drop?.();
    removeProcessDirs();
  });

  const start = async () => {
    const server = await startApiProcess('hold-replicas', {
      DATABASE_URL: url,
      SANDBOX_SECRET,
      SEED_DEMO: 'true',
      RECONCILE_INTERVAL_MS: '600000',
      MAIL_POLL_MS: '600000',
    });
    children.push(server.child);
    return server;
  };

  it('12 reserves through each process at once, all from 127.0.0.1: 5 holds in all, 429 HOLD_LIMIT for the other 19', async () => {
    // The first seeds the demo slots; the second starts on the same database.
    const a = await start();
    const b = await start();
    const list = await json(await fetch(`${a.base}/public/list?limit=100&page=1`));
    const slotIds: number[] = list.data.slots.map((s: { id: number }) => s.id).slice(0, 24);
    expect(slotIds).toHaveLength(24);

    const answers = await Promise.all(
      slotIds.map(async (id, i) => {
        const res = await fetch(`${(i % 2 ? b : a).base}/slot/${id}/reserve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ minutes: 30 }),
        });
        return { status: res.status, body: (await res.json()) as { error?: string } };
      }),
    );
    const held = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    expect(held).toHaveLength(5);
    expect(limited).toHaveLength(19);
    for (const r of limited) expect(r.body.error).toBe(ErrorCode.HOLD_LIMIT);
    // Counted per process, each would have given 5 (10 in all): the count is the database's.

    const database = await openDatabase({ driver: 'postgres', url, poolSize: 1 });
    try {
      const [{ live }] = await queryRows<{ live: number }>(
        database,
        sql`SELECT count(*) AS live FROM slots WHERE status = 'available' AND hold_expires_at > now()`,
      );
      expect(Number(live)).toBe(5);
    } finally {
      await database.close();
    }
  });
});
