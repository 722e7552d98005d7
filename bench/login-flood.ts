// `npm run bench:login-flood`: how long a right password takes while a login flood runs, written to docs/PERFORMANCE.md.
// One API process on PostgreSQL with the real scrypt (N 2^17); 200 wrong logins from 200 loopback addresses at once,
// and 2 s into the flood the right logins. BENCH_BASELINE_ROOT=<another checkout> measures that build too ("before").
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Secret, TOTP } from 'otpauth';
import { freePorts } from '../e2e/support/product';
import { repoRoot } from '../scripts/bundles';
import { stopChild } from '../scripts/product';
import { loadAverage, median, today, writeDocSection } from './doc';

const runs = Math.max(1, Number(process.env.BENCH_RUNS) || 3);
const floodSize = 200;
const clientPatienceMs = 30_000;
const postgresAdminUrl = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const baselineRoot = process.env.BENCH_BASELINE_ROOT;
const section = '## Login under a flood (bench:login-flood)';

const pg = createRequire(path.join(repoRoot, 'server', 'package.json'))('pg') as typeof import('pg');

const OWNER = { email: 'owner@example.com', password: 'owner-password-1' };
const COLLEAGUE = { email: 'colleague@example.com', password: 'colleague-password-1' };

type Answer = { status: number; ms: number; cookie?: string };
type Api = { url: string; port: number; child: ChildProcess; log: string[]; drop: () => Promise<void> };

let counter = 0;
async function startApi(root: string): Promise<Api> {
  const name = `bench_login_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-login-'));
  const [port] = await freePorts(1);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    API_PUBLIC_URL: `http://127.0.0.1:${port}`,
    RECONCILE_INTERVAL_MS: '600000',
    MAIL_POLL_MS: '600000',
  };
  delete env.SMTP_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const drop = async () => {
    await stopChild(child);
    const c = new pg.Client({ connectionString: postgresAdminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(250)) {
    if (child.exitCode !== null) throw new Error(`API exited during start-up:\n${log.join('')}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (up) return { url: `http://127.0.0.1:${port}`, port, child, log, drop };
  }
  await drop();
  throw new Error(`API did not answer within 90 s:\n${log.join('')}`);
}

/** POST from a chosen loopback address; status 0 when no answer came within the client's patience. */
function post(api: Api, route: string, body: object, localAddress: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port: api.port, path: route, method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => {
          const cookie = res.headers['set-cookie']?.find((c) => c.startsWith('known_device_'))?.split(';')[0];
          resolve({ status: res.statusCode!, ms: performance.now() - started, cookie });
        });
      },
    );
    req.setTimeout(clientPatienceMs, () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(JSON.stringify(body));
  });
}

type Scenario = { name: string; flood: (i: number) => object; insiders: { name: string; who: typeof OWNER; withCookie?: boolean }[] };
const SCENARIOS: Scenario[] = [
  {
    name: '200 wrong logins, made-up emails',
    flood: (i) => ({ email: `nobody${i}@example.com`, password: 'wrong-password' }),
    insiders: [{ name: 'colleague', who: COLLEAGUE }],
  },
  {
    name: '200 wrong passwords on the owner’s account',
    flood: (i) => ({ email: OWNER.email, password: `guess-${i}` }),
    insiders: [
      { name: 'colleague', who: COLLEAGUE },
      { name: 'owner, known device', who: OWNER, withCookie: true },
      { name: 'owner, new device', who: OWNER },
    ],
  },
];

type Outcome = { insiders: Record<string, Answer>; flood: { answered401: number; refused429: number; unanswered: number; lastMs: number } };

/** One flood on a fresh API and database: the insiders' answers 2 s in, and what the flood got. */
async function runScenario(root: string, scenario: Scenario, run: number): Promise<Outcome> {
  const api = await startApi(root);
  try {
    // The owner's browser signed in before (a known device on builds that have them); the colleague's account exists.
    const owner = await post(api, '/auth/login', OWNER, '127.0.9.1');
    const token = await fetch(`${api.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) })
      .then((r) => r.json() as Promise<{ data: { token: string } }>)
      .then((b) => b.data.token);
    // Adding a colleague is an admin action: the owner (the first account, so the admin) sets up the second factor.
    const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // (A baseline build from before roles has no such route: it registers without.)
    const enrol = (await fetch(`${api.url}/auth/second-factor/enrol`, { method: 'POST', headers: { authorization: bearer.authorization } }).then((r) => r.json())) as { data?: { secret?: string } | null };
    if (enrol.data?.secret) {
      const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(enrol.data.secret) }).generate();
      await fetch(`${api.url}/auth/second-factor/enrol/confirm`, { method: 'POST', headers: bearer, body: JSON.stringify({ code }) });
    }
    const added = await post(api, '/auth/register', COLLEAGUE, '127.0.9.2', { authorization: `Bearer ${token}` });
    if (added.status !== 201) throw new Error(`register failed: ${added.status}`);
    const base = 20 + run;
    const flood = Array.from({ length: floodSize }, (_, i) => post(api, '/auth/login', scenario.flood(i), `127.${base}.${1 + (i >> 8)}.${1 + (i & 255)}`));
    await sleep(2_000);
    const answers = await Promise.all(
      scenario.insiders.map((insider, i) =>
        post(api, '/auth/login', insider.who, `127.${base}.100.${i + 1}`, insider.withCookie && owner.cookie ? { cookie: owner.cookie } : {}),
      ),
    );
    const done = await Promise.all(flood);
    return {
      insiders: Object.fromEntries(scenario.insiders.map((insider, i) => [insider.name, answers[i]])),
      flood: {
        answered401: done.filter((a) => a.status === 401).length,
        refused429: done.filter((a) => a.status === 429).length,
        unanswered: done.filter((a) => a.status === 0).length,
        lastMs: Math.max(...done.map((a) => a.ms)),
      },
    };
  } finally {
    await api.drop();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** "0.6 s" (all answered 200), or how many of the runs got in and the median time of those answers. */
function insiderCell(answers: Answer[]): string {
  const ok = answers.filter((a) => a.status === 200);
  const times = median(answers.map((a) => (a.status === 0 ? clientPatienceMs : a.ms)));
  if (ok.length === answers.length) return seconds(times);
  const statuses = answers.map((a) => (a.status === 0 ? 'no answer' : String(a.status))).join(', ');
  return `${ok.length}/${answers.length} in (${statuses})`;
}

async function measure(label: string, root: string): Promise<string[]> {
  const rows: string[] = [];
  for (const scenario of SCENARIOS) {
    const outcomes: Outcome[] = [];
    for (let run = 0; run < runs; run++) {
      outcomes.push(await runScenario(root, scenario, run));
      console.log(`${label}, ${scenario.name}, run ${run + 1}: ${JSON.stringify(outcomes[outcomes.length - 1])}`);
    }
    const floodCell = (o: Outcome) => `${o.flood.answered401} × 401, ${o.flood.refused429} × 429, ${o.flood.unanswered} unanswered`;
    for (const insider of scenario.insiders) {
      rows.push(
        `| ${label} | ${scenario.name} | ${insider.name} | ${insiderCell(outcomes.map((o) => o.insiders[insider.name]))} | ${floodCell(outcomes[outcomes.length - 1])}; last answer ${seconds(median(outcomes.map((o) => o.flood.lastMs)))} |`,
      );
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const load = loadAverage();
  const rows = [...(baselineRoot ? await measure('before', baselineRoot) : []), ...(await measure('after', repoRoot))];
  const markdown = `${section}

Measured ${today()} on ${os.cpus().length} CPU cores (load average ${load} at the start; the machine is shared), one API
process on PostgreSQL, real scrypt (N 2^17). 200 wrong logins at once from 200 loopback addresses; 2 s into the flood
the right logins are sent, each from an address of its own. Median of ${runs} runs (a fresh API and database each);
the flood column is the last run's. Goal: a right password answered within 2 s. "before" is the build without the
password queue (BENCH_BASELINE_ROOT), which has no known-device cookie.

| build | flood | right login | answered (median) | the flood's answers |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
  console.log(markdown);
  console.log(`written to ${writeDocSection(section, markdown)}`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
