jest.setTimeout(120_000);
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { brand, ErrorCode, schoolYears } from 'shared-api/contract';
import { openDatabase } from '../../src/base/db/connection';
import { currentConsent, queryRows } from '../helpers';
import { MAX_PAYMENTS_PER_HOLD } from '../../src/payments/payments-per-hold';
import { json, postJsonFrom, removeProcessDirs, startApiProcess, stopAll } from '../payments/server-process';
import { ageHolds, SANDBOX_SECRET, throwawayPostgres, visitor } from '../payments/support';

// Two real API processes on one PostgreSQL: one client network's hold limit and hold time are counted in the database,
// so reserving through both at once from many addresses of one /24 still gives it only its free allowance in all, and
// renewing through both never takes a hold past its cap.

describe('hold limits shared by two API processes on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  const servers: { base: string }[] = [];
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

  const database = () => openDatabase({ driver: 'postgres', url, poolSize: 1 });

  it('16 addresses of one /24 reserve through both processes at once: 5 holds in all, 429 HOLD_LIMIT with a challenge for the other 19', async () => {
    // The first seeds the demo slots; the second starts on the same database.
    const a = await start();
    const b = await start();
    servers.push(a, b);
    const list = await json(await fetch(`${a.base}/public/list?limit=100&page=1`));
    const slotIds: number[] = list.data.slots.map((s: { id: number }) => s.id).slice(0, 25);
    expect(slotIds).toHaveLength(25);

    const answers = await Promise.all(
      slotIds.slice(0, 24).map((id, i) => postJsonFrom<{ challenge?: unknown }>(`127.0.0.${2 + (i % 16)}`, `${(i % 2 ? b : a).base}/slot/${id}/reserve`, {})),
    );
    const held = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    expect(held).toHaveLength(5);
    expect(limited).toHaveLength(19);
    for (const r of limited) {
      expect(r.body.error).toBe(ErrorCode.HOLD_LIMIT);
      expect(r.body.data.challenge).toBeTruthy();
      expect(r.headers['retry-after']).toBe('1');
    }
    // Counted per process or per address, it would have given 10 or 24: the count is the database's, per network.
    // Another /24 on loopback has its own allowance.
    expect((await postJsonFrom('127.0.1.2', `${b.base}/slot/${slotIds[24]}/reserve`, {})).status).toBe(200);

    const db = await database();
    try {
      const [{ live }] = await queryRows<{ live: number }>(db, sql`SELECT count(*) AS live FROM slots WHERE status = 'available' AND hold_expires_at > now()`);
      expect(Number(live)).toBe(6);
    } finally {
      await db.close();
    }
  });

  it('renewals through both processes, at once and one after another, never take a hold past its cap nor past 5 payments', async () => {
    const [a, b] = servers;
    const list = await json(await fetch(`${a.base}/public/list?limit=100&page=1&format=legacy`));
    const slot: { id: number; date: string; startTime: string } = list.data.slots[10];
    const address = '127.0.2.2';
    const reserved = await postJsonFrom<{ token: string; expiresAt: string }>(address, `${a.base}/slot/${slot.id}/reserve`, {});
    expect(reserved.status).toBe(200);
    const { token } = reserved.body.data;
    let start = Date.parse(reserved.body.data.expiresAt) - 15 * 60_000;
    const db = await database();
    const age = async (minutes: number) => {
      await ageHolds(db, minutes);
      start -= minutes * 60_000;
    };
    const pay = (server: { base: string }, n: number) =>
      postJsonFrom<{ paymentSession?: { expiresAt: string } }>(address, `${server.base}/api/payment/initiate`, {
        ...visitor,
        visitorName: `Nur Aina ${n}`,
        visitorContactNo: '0123456789',
        selectedSchool: brand.schools[0].name,
        childYear: schoolYears(brand.schools[0].name)[0].name,
        fee: brand.schools[0].feeSen,
        slotId: slot.id,
        slotDate: slot.date,
        slotStartTime: slot.startTime,
        consent: currentConsent(),
        holdToken: token,
      });
    try {
      // How long after the hold's start each granted session ends (measured before time moves on).
      const sinceStart: number[] = [];
      const granted = (r: Awaited<ReturnType<typeof pay>>) => {
        if (r.status === 200) sinceStart.push(Date.parse(r.body.data.paymentSession!.expiresAt) - start);
        return r;
      };
      // A minute before the hold ends, four renewals at once through both processes: one payment after another, each within the cap.
      await age(14);
      const together = (await Promise.all([1, 2, 3, 4].map((n) => pay(n % 2 ? a : b, n)))).map(granted);
      for (const r of together) expect([200, 409]).toContain(r.status);
      // Then one after another, alternating processes, until the cap and the payment bound refuse.
      const later = [];
      for (let n = 5; n <= 8; n++) {
        await age(7);
        later.push(granted(await pay(n % 2 ? a : b, n)));
      }
      expect(sinceStart.length).toBeGreaterThan(1);
      for (const ms of sinceStart) expect(ms).toBeLessThanOrEqual(30 * 60_000);
      expect(later.some((r) => r.status === 429)).toBe(true);
      for (const r of later.filter((x) => x.status === 429)) {
        expect([ErrorCode.HOLD_TIME_USED, ErrorCode.RATE_LIMITED]).toContain(r.body.error);
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
      const [hold] = await queryRows<{ ends: Date | string }>(db, sql`SELECT hold_expires_at AS ends FROM slots WHERE id = ${slot.id}`);
      expect(new Date(hold.ends).getTime() - start).toBeLessThanOrEqual(30 * 60_000);
      const [{ rows: paymentRows }] = await queryRows<{ rows: number }>(db, sql`SELECT count(*) AS rows FROM payments WHERE hold_token = ${token}`);
      expect(Number(paymentRows)).toBeLessThanOrEqual(MAX_PAYMENTS_PER_HOLD);
      const [{ sessions }] = await queryRows<{ sessions: number }>(db, sql`SELECT count(*) AS sessions FROM payments WHERE hold_token = ${token} AND gateway_session_id IS NOT NULL`);
      expect(Number(sessions)).toBeLessThanOrEqual(MAX_PAYMENTS_PER_HOLD);
    } finally {
      await db.close();
    }
  });
});
