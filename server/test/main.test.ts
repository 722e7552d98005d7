import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The real entry point as `npm start` runs it: first start, the folder lock, and a clean stop on SIGTERM.
jest.setTimeout(90_000);

const repoRoot = path.resolve(__dirname, '../..');

type Started = {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
};

function start(dataDir: string, env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      NODE_ENV: '',
      SEED_DEMO: '',
      PAYMENT_GATEWAY: '',
      ALLOW_SANDBOX_GATEWAY: '',
      ...env,
    },
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
    expect(health.data).toMatchObject({
      database: 'database_healthy',
      databaseDetails: { driver: 'pglite' },
    });
    const list = await (await fetch(`http://127.0.0.1:${port}/public/list?limit=1`)).json();
    expect(list.data.pagination.total).toBeGreaterThan(0);

    const second = start(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(
      new RegExp(`in use by another server process \\(PID ${first.child.pid}\\)`),
    );

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  } finally {
    if (first.child.exitCode === null) first.child.kill('SIGKILL');
  }
});

describe('NODE_ENV=production', () => {
  const production = {
    NODE_ENV: 'production',
    ADMIN_EMAIL: 'office@school.example',
    ADMIN_PASSWORD: 'a-long-office-passphrase',
  };

  it('refuses to start with the demo login, no admin password or the sandbox gateway, before touching the data folder', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-prod-test-'));
    try {
      const bare = start(dataDir, { NODE_ENV: 'production' });
      expect(await bare.exited).toBe(1);
      expect(bare.output()).toContain('Refusing to start with NODE_ENV=production');
      expect(bare.output()).toContain('ADMIN_EMAIL is not set');
      expect(bare.output()).toContain('ADMIN_PASSWORD is not set');
      expect(bare.output()).toContain('PAYMENT_GATEWAY is the sandbox');
      const demo = start(dataDir, {
        NODE_ENV: 'production',
        ADMIN_EMAIL: 'admin@example.com',
        ADMIN_PASSWORD: 'admin12345',
        ALLOW_SANDBOX_GATEWAY: '1',
      });
      expect(await demo.exited).toBe(1);
      expect(demo.output()).toContain('ADMIN_EMAIL is the demo address admin@example.com');
      expect(demo.output()).toContain('ADMIN_PASSWORD is the demo password');
      expect(demo.output()).not.toContain('PAYMENT_GATEWAY');
      const weak = start(dataDir, { ...production, ADMIN_PASSWORD: 'short', ALLOW_SANDBOX_GATEWAY: '1' });
      expect(await weak.exited).toBe(1);
      expect(weak.output()).toContain('ADMIN_PASSWORD is shorter than 12 characters');
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('starts with its own admin account and an explicitly allowed sandbox, seeds no demo slots, and refuses a database that still has the demo login', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-prod-test-'));
    const demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-prod-test-'));
    try {
      const ok = start(dataDir, { ...production, ALLOW_SANDBOX_GATEWAY: '1' });
      try {
        const [, port] = await waitFor(ok, /API listening on http:\/\/127\.0\.0\.1:(\d+)/);
        expect(ok.output()).toContain('Staff account created: office@school.example');
        expect(ok.output()).not.toContain('admin12345');
        const list = await (await fetch(`http://127.0.0.1:${port}/public/list?limit=1`)).json();
        expect(list.data.pagination.total).toBe(0);
        ok.child.kill('SIGTERM');
        expect(await ok.exited).toBe(0);
      } finally {
        if (ok.child.exitCode === null) ok.child.kill('SIGKILL');
      }

      // A data folder first started without NODE_ENV has the demo login; production will not serve it.
      const trial = start(demoDir);
      await waitFor(trial, /API listening/);
      trial.child.kill('SIGTERM');
      expect(await trial.exited).toBe(0);
      const refused = start(demoDir, { ...production, ALLOW_SANDBOX_GATEWAY: '1' });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        'The demo staff account admin@example.com still has the demo password',
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(demoDir, { recursive: true, force: true });
    }
  });
});
