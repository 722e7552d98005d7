import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The real entry point as `npm start` runs it: first start, the folder lock, and a clean stop on SIGTERM.
jest.setTimeout(90_000);

const repoRoot = path.resolve(__dirname, '../..');

type Started = { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> };

function start(dataDir: string): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 600; i++) {
    const m = started.output().match(pattern);
    if (m) return m;
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${pattern}:\n${started.output()}`);
}

it('starts on PGlite, prints the demo login, serves seeded slots, refuses a second process on the same folder, stops cleanly', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-main-test-'));
  const first = start(dataDir);
  try {
    const [, port] = await waitFor(first, /API listening on http:\/\/127\.0\.0\.1:(\d+)/);
    expect(first.output()).toContain('Demo staff login: admin@example.com / admin12345');
    expect(first.output()).toMatch(/Seeded \d+ demo slots/);
    const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
    expect(health.data).toMatchObject({ database: 'database_healthy', databaseDetails: { driver: 'pglite' } });
    const list = await (await fetch(`http://127.0.0.1:${port}/public/list?limit=1`)).json();
    expect(list.data.pagination.total).toBeGreaterThan(0);

    const second = start(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(new RegExp(`in use by another server process \\(PID ${first.child.pid}\\)`));

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  } finally {
    if (first.child.exitCode === null) first.child.kill('SIGKILL');
  }
});
