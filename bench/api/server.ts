// The API for the benchmarks that load it (bench:api, bench:holds): a fresh database, `server/src/main.ts` in its own
// process on it, a staff login and slots created through the staff API.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dayjs, isWeekend, todayInMY, formatMinutes24 } from 'shared-api/contract';
import { freePorts } from '../../e2e/support/product';
import { repoRoot } from '../../scripts/bundles';
import { stopChild } from '../../scripts/product';

export const postgresAdminUrl = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const requireFromServer = createRequire(path.join(repoRoot, 'server', 'package.json'));
export const pg = requireFromServer('pg') as typeof import('pg');

export type Database = { label: 'PostgreSQL' | 'PGlite'; env: NodeJS.ProcessEnv; url?: string; drop: () => Promise<void> };

let databaseCounter = 0;
export async function createDatabase(label: Database['label']): Promise<Database> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  if (label === 'PGlite') {
    return { label, env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `bench_api_${process.pid}_${++databaseCounter}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    label,
    url: url.toString(),
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Server = { url: string; child: ChildProcess; log: string[] };

/** One API process on `database`; `extraEnv` adds or overrides settings. */
export async function startServer(database: Database, extraEnv: NodeJS.ProcessEnv = {}): Promise<Server> {
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...database.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    PAYMENT_GATEWAY: 'sandbox',
    API_PUBLIC_URL: url,
    PUBLIC_SITE_URL: 'http://localhost:3000',
    SANDBOX_CALLBACK_DELAY_MS: '0',
    LOGIN_RATE_LIMIT: '1000',
    ...extraEnv,
  };
  delete env.SMTP_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/main.ts')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited during start-up:\n${log.join('')}`);
    try {
      await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      return { url, child, log };
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await stopChild(child);
  throw new Error(`API did not answer within 90 s:\n${log.join('')}`);
}

export async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${body.message ?? ''}`);
  return body;
}

export async function staffToken(api: string): Promise<string> {
  const body = await json<{ data: { token: string } }>(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin12345' }),
  });
  return body.data.token;
}

/** `count` 30-minute weekday slots from the day after tomorrow (or `daysAhead`, GMT+8), 08:00-17:30, created through the staff API. */
export async function createSlots(api: string, token: string, count: number, daysAhead = 2): Promise<void> {
  const wanted: { date: string; startTime: string; endTime: string }[] = [];
  for (let day = dayjs(todayInMY()).add(daysAhead, 'day'); wanted.length < count; day = day.add(1, 'day')) {
    const date = day.format('YYYY-MM-DD');
    if (isWeekend(date)) continue;
    for (let minutes = 8 * 60; minutes < 18 * 60 && wanted.length < count; minutes += 30) {
      wanted.push({ date, startTime: formatMinutes24(minutes), endTime: formatMinutes24(minutes + 30) });
    }
  }
  for (let i = 0; i < wanted.length; i += 10) {
    await Promise.all(
      wanted.slice(i, i + 10).map((slot) =>
        json(`${api}/slot/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(slot),
        }),
      ),
    );
  }
}
