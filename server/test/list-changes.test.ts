jest.setTimeout(60_000);
import { openDatabase, type DatabaseHandle } from '../src/base/db/connection';
import { createListChanges, LIST_CHANGES_MAX_PER_NETWORK, LIST_CHANGES_MAX_WAITING, ListenerLost, TooManyFromNetwork } from '../src/slots/list-changes';
import { createThrowawayPostgres, freshPglite, insertSlot, startTestApp, stopTestApp, type TestContext } from './helpers';

// GET /public/list/changes (issue 27): the shell's server holds one waiting, so it reads the public list again only
// when a slot changed. It must answer the moment a change is committed, by this process or another one.
const changes = (ctx: TestContext, after?: number, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({ url: `/public/list/changes${after === undefined ? '' : `?after=${after}`}`, remoteAddress }).then((res) => {
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json().data.version as number;
  });

describe('on PGlite', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp({ listChangesWaitMs: 400 });
  });
  afterAll(() => stopTestApp(ctx));

  it('answers the version at once, and a wait past it the moment a slot is added, held or booked', async () => {
    const version = await changes(ctx);
    let answered: number | undefined;
    const waiting = changes(ctx, version).then((next) => (answered = next));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBeUndefined();
    const slot = await insertSlot(ctx.database, 48);
    expect(await waiting).toBeGreaterThan(version);

    const after = await changes(ctx);
    const held = changes(ctx, after);
    expect((await ctx.app.inject({ method: 'POST', url: `/slot/${slot.id}/reserve`, payload: {} })).statusCode).toBe(200);
    expect(await held).toBeGreaterThan(after);
  });

  it('with no change, answers the same version after its wait; a version from before answers at once', async () => {
    const version = await changes(ctx);
    const started = Date.now();
    expect(await changes(ctx, version)).toBe(version);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    if (version > 0) expect(await changes(ctx, version - 1)).toBe(version);
  });

  it(`keeps ${LIST_CHANGES_MAX_WAITING} waiting from many networks; one more is answered the version as it is (not an error), and the held ones are all answered`, async () => {
    const version = await changes(ctx);
    // 200 waits from 50 networks, 4 each.
    const held = Array.from({ length: LIST_CHANGES_MAX_WAITING }, (_, i) => changes(ctx, version, `10.${Math.floor(i / 4)}.7.${(i % 4) + 1}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const beyond = await ctx.app.inject({ url: `/public/list/changes?after=${version}`, remoteAddress: '10.250.0.1' });
    expect([beyond.statusCode, beyond.json().data.version]).toEqual([200, version]);
    expect(new Set(await Promise.all(held))).toEqual(new Set([version]));
  });

  it(`one network holds at most ${LIST_CHANGES_MAX_PER_NETWORK} waits: one more from any of its addresses gets 429 with Retry-After; other networks still wait`, async () => {
    const version = await changes(ctx);
    const held = Array.from({ length: LIST_CHANGES_MAX_PER_NETWORK }, (_, i) => changes(ctx, version, `10.251.3.${i + 1}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await ctx.app.inject({ url: `/public/list/changes?after=${version}`, remoteAddress: '10.251.3.200' });
    expect([refused.statusCode, refused.json().error, refused.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '5']);
    const other = changes(ctx, version, '10.252.3.1');
    await insertSlot(ctx.database, 49);
    expect((await Promise.all([...held, other])).every((v) => v > version)).toBe(true);
  });

  it.each([' 1', '1.0', '-1', '0x10', '1e3', 'x', ''])('refuses after=%j with a 400 naming the field', async (after) => {
    const res = await ctx.app.inject(`/public/list/changes?after=${encodeURIComponent(after)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/after/);
  });
});

describe('two API processes on one PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  const apps: TestContext[] = [];
  beforeAll(async () => {
    const throwaway = await createThrowawayPostgres('list_changes');
    drop = throwaway.drop;
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 3 });
      apps.push(await startTestApp({ listChangesWaitMs: 5000 }, database));
    }
  });
  afterAll(async () => {
    for (const app of apps) await stopTestApp(app);
    await drop?.();
  });

  it("a change committed through one process answers the other's waiting request", async () => {
    const [a, b] = apps;
    const version = await changes(a);
    expect(await changes(b)).toBe(version);
    const waiting = changes(a, version);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await insertSlot(b.database, 48);
    expect(await waiting).toBeGreaterThan(version);
    // The moment it moved, not at the end of the 5 s wait.
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe('waiting requests one process keeps', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(() => database.close());

  it('answers one more than it keeps after a pause, never holding it; refuses a network past its places; a caller that went away frees its place; closing answers everyone', async () => {
    const list = createListChanges(database, { waitMs: 60_000, maxWaiting: 2, maxPerNetwork: 1, overflowPauseMs: 50 });
    const signal = () => new AbortController().signal;
    const version = await list.next(undefined, signal());
    const leaving = new AbortController();
    const first = list.next(version, leaving.signal, 'a');
    await expect(list.next(version, signal(), 'a')).rejects.toBeInstanceOf(TooManyFromNetwork);
    const second = list.next(version, signal(), 'b');
    expect(await list.next(version, signal(), 'c')).toBe(version);
    leaving.abort();
    expect(await first).toBe(version);
    // Network a's place is free again.
    const third = list.next(version, signal(), 'a');
    await list.close();
    expect(await Promise.all([second, third])).toEqual([version, version]);
  });

  it('tells every waiter when the listening connection is lost (no version vouched for), and listens again at the next ask', async () => {
    // The handle's LISTEN as PostgreSQL's would end when its connection drops (e2e/faults/database cuts it for real).
    let lose = () => {};
    let listens = 0;
    const handle = {
      ...database,
      listen: async (_channel: string, _onPayload: (payload: string) => void, onLost: () => void) => {
        listens += 1;
        lose = onLost;
        return async () => {};
      },
    } as DatabaseHandle;
    const list = createListChanges(handle, { waitMs: 60_000 });
    const version = await list.next(undefined, new AbortController().signal);
    const waiting = list.next(version, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    lose();
    await expect(waiting).rejects.toBeInstanceOf(ListenerLost);
    expect(await list.next(undefined, new AbortController().signal)).toBe(version);
    expect(listens).toBe(2);
    await list.close();
  });
});
