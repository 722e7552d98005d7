import { ErrorCode } from 'shared-api/contract';
import { openDatabase, type DatabaseHandle } from '../src/base/db/connection';
import { migrate } from '../src/base/db/migrate';
import { findSlot } from '../src/slots/slot-service';
import { bookSlotRow as bookSlot, takeHoldRow, type Hold } from '../src/checkout/hold-rows';
import { auth, createThrowawayPostgres, freshPglite, insertConsent, insertSlot, startTestApp, staffToken, visitor } from './helpers';
import { sql } from 'drizzle-orm';

// PGlite runs one statement at a time, so a race bug can pass there and fail on PostgreSQL: both run the same races.
jest.setTimeout(120_000);

const ROUNDS = 10;
const ATTEMPTS = 200;
const figures: string[] = [];

type Outcome = Awaited<ReturnType<typeof bookSlot>>;
const parent = (i: number) => ({ ...visitor, visitorName: `Parent ${i}`, visitorEmail: `parent${i}@example.com` });

async function race(database: DatabaseHandle, slotId: number, holdTokenFor?: { index: number; token: string }) {
  const consentId = await insertConsent(database.db);
  return Promise.all(
    Array.from({ length: ATTEMPTS }, (_, i) =>
      bookSlot(database.db, { consentId, slotId, visitor: parent(i), holdToken: holdTokenFor?.index === i ? holdTokenFor.token : undefined }),
    ),
  );
}

function expectOneWinner(outcomes: Outcome[], allowed: string[]): number {
  const winners = outcomes.flatMap((o, i) => (o.ok ? [i] : []));
  expect(winners).toHaveLength(1);
  const refusals = outcomes.filter((o) => !o.ok);
  expect(refusals).toHaveLength(ATTEMPTS - 1);
  for (const r of refusals) if (!r.ok) expect(allowed).toContain(r.code);
  return winners[0];
}

describe.each(['pglite', 'postgres'] as const)('booking races on %s', (driver) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (driver === 'pglite') {
      database = await freshPglite();
    } else {
      const throwaway = await createThrowawayPostgres('booking_race');
      drop = throwaway.drop;
      database = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 50 });
      await migrate(database);
    }
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const timed = async (label: string, body: () => Promise<void>) => {
    const started = performance.now();
    await body();
    figures.push(`${driver}\t${label}\t${ROUNDS} rounds x ${ATTEMPTS} attempts\t1 winner per round\t${Math.round(performance.now() - started)} ms`);
  };

  it(`${ATTEMPTS} concurrent bookings of one free slot: exactly 1 winner and ${ATTEMPTS - 1} clean refusals, ${ROUNDS} rounds`, async () => {
    await timed('free slot', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const slot = await insertSlot(database, 24 + round);
        const winner = expectOneWinner(await race(database, slot.id), [ErrorCode.SLOT_NOT_AVAILABLE]);
        const row = await findSlot(database.db, slot.id);
        expect(row).toMatchObject({ status: 'booked', visitorName: `Parent ${winner}`, visitorEmail: `parent${winner}@example.com` });
      }
    });
  });

  it('with a live hold, only its holder wins; everyone else is refused', async () => {
    await timed('live hold', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const slot = await insertSlot(database, 48 + round);
        const hold = (await takeHoldRow(database.db, slot.id, 15, { holder: { client: 'race-test' } })) as Hold;
        expect(hold.token).toBeDefined();
        const holder = (round * 37) % ATTEMPTS;
        const winner = expectOneWinner(await race(database, slot.id, { index: holder, token: hold.token }), [
          ErrorCode.SLOT_RESERVED,
          ErrorCode.SLOT_NOT_AVAILABLE,
        ]);
        expect(winner).toBe(holder);
        expect(await findSlot(database.db, slot.id)).toMatchObject({ status: 'booked', visitorName: `Parent ${holder}`, holdTokenHash: null });
      }
    });
  });

  it(`through the route: ${ATTEMPTS} concurrent PUT /slot/{id} with a staff token give one 200 and ${ATTEMPTS - 1} clean 409s`, async () => {
    // Shares this suite's database handle (afterAll closes it); the app itself is closed below.
    const ctx = await startTestApp({}, database);
    const token = await staffToken(ctx, { email: `race-${driver}@example.com`, password: 'race-password' });
    const slot = await insertSlot(database, 96);
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, payload: parent(i), headers: auth(token) })),
    );
    figures.push(`${driver}\tHTTP PUT /slot/{id}\t1 round x ${ATTEMPTS} requests\t1 winner\t${Math.round(performance.now() - started)} ms`);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(ATTEMPTS - 1);
    for (const r of responses.filter((r) => r.statusCode === 409)) expect(r.json()).toMatchObject({ success: false, error: ErrorCode.SLOT_NOT_AVAILABLE });
    const winner = responses.findIndex((r) => r.statusCode === 200);
    expect(await findSlot(database.db, slot.id)).toMatchObject({ status: 'booked', visitorName: `Parent ${winner}` });
    await ctx.app.close();
  });

  it('with an expired hold, exactly one of the others wins', async () => {
    await timed('expired hold', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const slot = await insertSlot(database, 72 + round);
        await takeHoldRow(database.db, slot.id, 15, { holder: { client: 'race-test' } });
        await database.db.execute(sql`UPDATE slots SET hold_expires_at = now() - interval '1 second' WHERE id = ${slot.id}`);
        const winner = expectOneWinner(await race(database, slot.id), [ErrorCode.SLOT_NOT_AVAILABLE]);
        expect(await findSlot(database.db, slot.id)).toMatchObject({ status: 'booked', visitorName: `Parent ${winner}` });
      }
    });
  });
});

afterAll(() => {
  // Figures for docs/PERFORMANCE.md.
  console.log(['Booking races', ...figures].join('\n'));
});
