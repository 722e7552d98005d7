import { loadConfig } from '../../src/config';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { prepareDatabase } from '../../src/prepare';
import { createThrowawayPostgres } from '../helpers';

// Processes starting at once on one fresh PostgreSQL (two API replicas deployed together): each prepares the
// database, and together they make one schema, one staff account and one demo timetable.
jest.setTimeout(120_000);

describe('the start-up database step with processes starting at once on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres('prepare_race');
    drop = database.drop;
    for (let i = 0; i < 4; i++) handles.push(await openDatabase({ driver: 'postgres', url: database.url, poolSize: 3 }));
  });
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    await drop?.();
  });

  it('four at once: all start, one staff account, the demo timetable seeded once, every job queue installed', async () => {
    const config = loadConfig({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'a long enough password', SEED_DEMO: 'true' }, process.cwd());
    const prepared = await Promise.all(handles.map((handle) => prepareDatabase(handle, config)));

    expect(prepared.filter((p) => p.applied.length > 0)).toHaveLength(1);
    expect(prepared.filter((p) => p.adminLine !== null)).toHaveLength(1);
    const seeded = prepared.map((p) => p.seeded).filter((n) => n > 0);
    expect(seeded).toHaveLength(1);
    const count = async (sql: string) => Number((await handles[0].exec(sql)).rows[0].n);
    expect(await count('SELECT count(*) AS n FROM users')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM slots')).toBe(seeded[0]);
    expect(await count("SELECT count(*) AS n FROM pgboss.queue WHERE name IN ('mail', 'refund', 'waitlist', 'reconcile')")).toBe(4);
  });

  it('a later start changes nothing', async () => {
    const config = loadConfig({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'a long enough password', SEED_DEMO: 'true' }, process.cwd());
    expect(await prepareDatabase(handles[1], config)).toEqual({ applied: [], adminLine: null, seeded: 0 });
  });
});
