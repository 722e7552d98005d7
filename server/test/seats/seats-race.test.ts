jest.setTimeout(180_000);
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { queryRows } from '../helpers';
import { currentNoticeVersion } from 'shared-api/privacy';
import { sandboxCallbackHeaders } from '../../src/payments/gateways/sandbox';
import { SANDBOX_SECRET } from '../payments/support';
import { postJsonFrom, twoApiProcesses, type Server } from '../payments/server-process';

// Issue 37: the last seats of a time, over two API processes on one PostgreSQL. 200 parents from 200 networks ask for
// the time at once (all by the seat the list shows, as the page does): exactly as many hold as there are free seats,
// each a different seat; nobody gets a seat that is taken.

let servers: Server[];
let db: DatabaseHandle;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ servers, db, stop } = await twoApiProcesses('seats-race'));
});
afterAll(() => stop?.());

test('200 reserves for the last 2 of 3 seats through two processes: 2 holds, on the 2 free seats; 198 refused', async () => {
  // Three seats two days ahead; seat 1 already held by another parent, so two are left.
  const [{ start }] = await queryRows<{ start: string }>(db, sql`SELECT date_trunc('hour', now() + interval '2 days')::text AS start`);
  await db.exec(
    `INSERT INTO slots (start_at, end_at, seat, hold_token_hash, hold_expires_at, hold_client)
     SELECT $1::timestamptz, $1::timestamptz + interval '30 minutes', seat,
            CASE WHEN seat = 1 THEN 'someone' END, CASE WHEN seat = 1 THEN now() + interval '1 hour' END, CASE WHEN seat = 1 THEN 'x' END
     FROM generate_series(1, 3) AS seat`,
    [start],
  );
  const list = (await (await fetch(`${servers[0].base}/public/list`)).json()) as { data: { slots: { id: number; placesLeft?: number }[] } };
  expect(list.data.slots).toHaveLength(1);
  const [shown] = list.data.slots;
  expect(shown.placesLeft).toBe(2);

  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => postJsonFrom<{ slotId: number }>(`127.0.${20 + i}.2`, `${servers[i % 2].base}/slot/${shown.id}/reserve`, {})),
  );
  const won = answers.filter((answer) => answer.status === 200);
  expect(won).toHaveLength(2);
  expect(new Set(won.map((answer) => answer.body.data.slotId)).size).toBe(2);
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    expect(refused.status).toBe(409);
    expect(['SLOT_RESERVED', 'SLOT_NOT_AVAILABLE']).toContain(refused.body.error);
  }
  // The database agrees: three live holds, one per seat, and the time is off the list.
  const held = await queryRows<{ seat: number }>(db, sql`SELECT seat FROM slots WHERE hold_expires_at > now() ORDER BY seat`);
  expect(held.map((row) => row.seat)).toEqual([1, 2, 3]);
  const after = (await (await fetch(`${servers[1].base}/public/list`)).json()) as { data: { slots: unknown[] } };
  expect(after.data.slots).toEqual([]);
});

test("200 checkouts of 1 or 2 children for a time's last 2 seats through two processes: exactly 2 seats held, never a hold of 2 beside a hold of 1", async () => {
  await db.exec(`DELETE FROM hold_grants`);
  await db.exec(`DELETE FROM slots`);
  // A timetable of 50 other times (each network may then hold 5 seats for free), and a time with 2 free seats.
  await db.exec(
    `INSERT INTO slots (start_at, end_at) SELECT date_trunc('hour', now()) + make_interval(days => 10, hours => n), date_trunc('hour', now()) + make_interval(days => 10, hours => n, mins => 30) FROM generate_series(1, 50) AS n`,
  );
  const [{ start }] = await queryRows<{ start: string }>(db, sql`SELECT date_trunc('hour', now() + interval '3 days')::text AS start`);
  await db.exec(`INSERT INTO slots (start_at, end_at, seat) SELECT $1::timestamptz, $1::timestamptz + interval '30 minutes', seat FROM generate_series(1, 2) AS seat`, [start]);
  const [seat] = await queryRows<{ id: number }>(db, sql`SELECT id FROM slots WHERE seat = 1 AND start_at = ${start}::timestamptz`);

  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      postJsonFrom<{ slotId: number; slotIds?: number[] }>(`127.0.${20 + i}.3`, `${servers[i % 2].base}/slot/${seat.id}/reserve`, i % 2 ? { children: 2 } : {}),
    ),
  );
  const won = answers.filter((answer) => answer.status === 200);
  const seatsWon = won.flatMap((answer) => answer.body.data.slotIds ?? [answer.body.data.slotId]);
  expect(seatsWon).toHaveLength(2);
  expect(new Set(seatsWon).size).toBe(2);
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    expect(refused.status).toBe(409);
    expect(['SLOT_RESERVED', 'SLOT_NOT_AVAILABLE']).toContain(refused.body.error);
  }
  // The database agrees: the time's two seats are held, each once, by one hold of 2 or by two holds of 1.
  const held = await queryRows<{ holds: number; seats: number }>(
    db,
    sql`SELECT count(DISTINCT hold_token_hash)::int AS holds, count(*)::int AS seats FROM slots WHERE start_at = ${start}::timestamptz AND hold_expires_at > now()`,
  );
  expect(held[0].seats).toBe(2);
  expect(held[0].holds).toBe(won.length);
});

test("200 payments for 1 or 2 children on a time's last 2 seats through two processes: the winners pay, exactly 2 seats are booked", async () => {
  await db.exec(`DELETE FROM hold_grants`);
  await db.exec(`DELETE FROM slots WHERE hold_token_hash IS NOT NULL OR start_at < now() + interval '5 days'`);
  const [{ start }] = await queryRows<{ start: string }>(db, sql`SELECT date_trunc('hour', now() + interval '4 days')::text AS start`);
  await db.exec(`INSERT INTO slots (start_at, end_at, seat) SELECT $1::timestamptz, $1::timestamptz + interval '30 minutes', seat FROM generate_series(1, 2) AS seat`, [start]);
  const [seat] = await queryRows<{ id: number }>(db, sql`SELECT id FROM slots WHERE seat = 1 AND start_at = ${start}::timestamptz`);
  const sister = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };

  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      postJsonFrom<{ paymentSession: { id: string; fee: number } }>(`127.0.${20 + i}.4`, `${servers[i % 2].base}/api/payment/initiate`, {
        visitorName: `Parent ${i}`,
        visitorEmail: `parent${i}@example.com`,
        visitorContactNo: `012${String(1_000_000 + i)}`,
        selectedSchool: 'Seri Ilmu Private Secondary',
        childName: `Child ${i}`,
        childYear: 'Form 1',
        slotId: seat.id,
        consent: { noticeVersion: currentNoticeVersion(), language: 'en' },
        ...(i % 2 ? { siblings: [sister] } : {}),
      }),
    ),
  );
  const won = answers.filter((answer) => answer.status === 200);
  expect(won.length).toBeGreaterThanOrEqual(1);
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    expect(refused.status).toBe(409);
    expect(['SLOT_RESERVED', 'SLOT_NOT_AVAILABLE']).toContain(refused.body.error);
  }
  // Every winner pays: the gateway's signed word reaches either process.
  for (const [i, answer] of won.entries()) {
    const session = answer.body.data.paymentSession;
    const [row] = await queryRows<{ gateway_session_id: string }>(db, sql`SELECT gateway_session_id FROM payments WHERE id = ${session.id}`);
    await db.exec(`UPDATE sandbox_sessions SET status = 'paid', paid_at = now() WHERE id = $1`, [row.gateway_session_id]);
    const body = JSON.stringify({ id: `evt_race_${i}`, type: 'checkout.paid', created: Math.floor(Date.now() / 1000), data: { session_id: row.gateway_session_id, status: 'paid', amount: session.fee, currency: 'MYR', method: 'fpx' } });
    const res = await fetch(`${servers[i % 2].base}/api/payment/callback`, { method: 'POST', headers: sandboxCallbackHeaders(SANDBOX_SECRET, body), body });
    expect(res.status).toBe(200);
  }
  const booked = await queryRows<{ seats: number; references: number }>(
    db,
    sql`SELECT count(*)::int AS seats, count(DISTINCT booking_reference)::int AS references FROM slots WHERE start_at = ${start}::timestamptz AND status = 'booked'`,
  );
  expect(booked[0]).toEqual({ seats: 2, references: won.length });
  const completed = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM payments WHERE status = 'completed'`);
  expect(completed[0].n).toBe(won.length);
});
