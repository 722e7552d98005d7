jest.setTimeout(60_000);
import { openDatabase, type DatabaseHandle } from '../src/base/db/connection';
import { createListChanges, LIST_CHANGES_MAX_WAITING, ListenerLost, TooManyWaiting } from '../src/slots/list-changes';
import { createThrowawayPostgres, freshPglite, insertSlot, startTestApp, stopTestApp, type TestContext } from './helpers';

// GET /public/list/changes (issue 27): the shell's server holds one waiting, so it reads the public list again only
// when a slot changed. It must answer the moment a change is committed, by this process or another one.
const changes = (ctx: TestContext, after?: number) =>
  ctx.app.inject(`/public/list/changes${after === undefined ? '' : `?after=${after}`}`).then((res) => {
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

  it(`keeps ${LIST_CHANGES_MAX_WAITING} waiting; one more gets 503 with Retry-After, and the held ones are all answered`, async () => {
    const version = await changes(ctx);
    const held = Array.from({ length: LIST_CHANGES_MAX_WAITING }, () => changes(ctx, version));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await ctx.app.inject(`/public/list/changes?after=${version}`);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error).toBe('RATE_LIMITED');
    expect(new Set(await Promise.all(held))).toEqual(new Set([version]));
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

  it('refuses one more than it keeps; a caller that went away frees its place; closing answers everyone', async () => {
    const list = createListChanges(database, 60_000, 2);
    const version = await list.next(undefined, new AbortController().signal);
    const leaving = new AbortController();
    const first = list.next(version, leaving.signal);
    const second = list.next(version, new AbortController().signal);
    await expect(list.next(version, new AbortController().signal)).rejects.toBeInstanceOf(TooManyWaiting);
    leaving.abort();
    expect(await first).toBe(version);
    const third = list.next(version, new AbortController().signal);
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
    const list = createListChanges(handle, 60_000);
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
