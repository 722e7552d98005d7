jest.setTimeout(120_000);
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { addDays, dateInMY } from 'shared-api/contract';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { slots } from '../../src/slots/tables';
import { queryRows } from '../helpers';
import { exited, postJsonFrom, removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { SANDBOX_SECRET, throwawayPostgres, waitFor } from '../payments/support';
import { atMY, joinAndConfirm, joinBody, weekdayFrom } from './support';

// kill -9 of the API process that made an offer: the offer still ends when its time is up and the slot passes to the
// next in line, by another process (its periodic pass, or the offer's end job left in pg-boss). The test moves the
// offer's end into the past instead of waiting 30 minutes.
describe('a waitlist offer survives the death of the process that made it', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void>;
  let db: DatabaseHandle;

  afterAll(async () => {
    await stopAll(children);
    await db?.close();
    await drop?.();
    removeProcessDirs();
  });

  it('offer made, process killed, its time up: the next process expires it and offers the slot to the next parent', async () => {
    const throwaway = await throwawayPostgres('waitlist_kill9');
    drop = throwaway.drop;
    // Quiet hours off: the run must not depend on the time of day (no offer is made in quiet hours).
    const env = { DATABASE_URL: throwaway.url, SANDBOX_SECRET, SEED_DEMO: 'false', RECONCILE_INTERVAL_MS: '600000', MAIL_POLL_MS: '600000', WAITLIST_QUIET_HOURS: 'off' };
    const first = await startApiProcess('waitlist-kill9', env);
    children.push(first.child);
    db = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 2 });
    const today = dateInMY(new Date());
    for (const i of [1, 2]) expect(await joinAndConfirm(db, first.base, `127.0.${i}.2`, joinBody(i, { fromDate: today, toDate: addDays(today, 21) }))).toBe(200);
    const start = atMY(weekdayFrom(addDays(today, 4)), '09:00');
    const [slot] = await db.db.insert(slots).values({ startAt: start, endAt: new Date(start.getTime() + 30 * 60_000) }).returning();
    // A reserve asks for a pass (and is refused: the list gets the slot first).
    expect((await postJsonFrom('127.9.0.2', `${first.base}/slot/${slot.id}/reserve`, {})).status).toBe(409);
    const offeredTo = async () =>
      (await queryRows<{ email: string }>(db, sql`SELECT e.email FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id WHERE o.outcome IS NULL`)).map((r) => r.email);
    await waitFor(async () => (await offeredTo()).length === 1, 20_000, 100);
    expect(await offeredTo()).toEqual(['parent1@example.com']);

    first.child.kill('SIGKILL');
    await exited(first.child);
    // Its time is up (moved back rather than waited for).
    await db.db.execute(sql`UPDATE waitlist_offers SET starts_at = now() - interval '40 minutes', expires_at = now() - interval '5 minutes' WHERE outcome IS NULL`);
    await db.db.execute(sql`UPDATE slots SET hold_expires_at = now() - interval '5 minutes' WHERE id = ${slot.id}`);

    const second = await startApiProcess('waitlist-kill9', env);
    children.push(second.child);
    await waitFor(async () => (await offeredTo())[0] === 'parent2@example.com', 30_000, 200);
    const outcomes = await queryRows<{ outcome: string | null }>(db, sql`SELECT outcome FROM waitlist_offers ORDER BY id`);
    expect(outcomes.map((o) => o.outcome)).toEqual(['expired', null]);
  });
});
