import type { DatabaseHandle } from '../../src/base/db/connection';
import { JobEngine, type SqlExecutor } from '../../src/base/jobs/engine';
import { freshPglite } from '../helpers';

// Stopping the job engine while a worker's fetch is still at the database: pg-boss 10's stop() resolves without
// waiting for that fetch, and a job it returns would run and be recorded (complete/fail, unawaited) after the caller
// closed the database ("Cannot use a pool after calling end"). stop() must leave nothing running against it.
const silent = { info: () => {}, warn: () => {}, error: () => {} };
let database: DatabaseHandle;

beforeAll(async () => {
  database = await freshPglite();
});
afterAll(async () => {
  await database?.close();
});

it('stop() resolves only when no statement is under way; a job fetched while stopping is given back, not worked', async () => {
  let fetchStarted!: () => void;
  const fetching = new Promise<void>((resolve) => (fetchStarted = resolve));
  let slowFetch = false;
  let closed = false;
  const afterClose: string[] = [];
  // The database as the engine sees it: a worker's fetch can be held, and statements after "close" are recorded.
  const watched: SqlExecutor = {
    exec: async (text, params) => {
      if (closed) afterClose.push(text.slice(0, 60));
      if (slowFetch && /SKIP LOCKED/i.test(text)) {
        fetchStarted();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return database.exec(text, params);
    },
  };
  const engine = new JobEngine(watched, silent, { supervise: false, schedule: false });
  const worked: string[] = [];
  engine.handle('reconcile', async (job) => (worked.push(job.id), 1), { pollingIntervalSeconds: 1 });
  const id = await engine.send('reconcile', {}, { startAfter: 1 });
  slowFetch = true;
  await engine.work(['reconcile']);
  // The job becomes due while the worker's next fetch is held at the database; stop() is called during that fetch.
  await database.exec(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE id = $1`, [id]);
  await fetching;
  await engine.stop(5_000);
  closed = true;
  await new Promise((resolve) => setTimeout(resolve, 600));

  expect(afterClose).toEqual([]);
  expect(worked).toEqual([]);
  // Given back: the job is waiting for a retry (or still queued), not completed and not lost.
  const { rows } = await database.exec(`SELECT state FROM pgboss.job WHERE id = $1`, [id]);
  expect(['created', 'retry']).toContain(rows[0].state);
});
