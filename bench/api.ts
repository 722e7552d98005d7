// `npm run bench:api`: the API under load on PostgreSQL and on PGlite, written to docs/PERFORMANCE.md.
// The server, the load generator (autocannon) and the enrolment-day visitors each run in their own process, on
// loopback; every phase is bounded in time.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from '../e2e/support/product';
import { repoRoot } from '../scripts/bundles';
import { stopChild } from '../scripts/product';
import { slots } from '../server/src/slots/tables';
import { publiclyBookable } from '../server/src/slots/slot-service';
import { createDatabase, createSlots, json, pg, requireFromServer, startServer, staffToken, type Database, type Server } from './api/server';
import { loadAverage, today, writeDocSection } from './doc';

const seconds = Math.max(1, Number(process.env.BENCH_SECONDS) || 10);
const connections = 50;
const listSlots = 100;
const visitors = Number(process.env.BENCH_VISITORS) || 500;
const enrolmentSlots = 50;
const section = '## API under load (bench:api)';
const listPath = `/public/list?limit=${listSlots}&page=1&format=legacy`;

// Drizzle is the server's dependency (not resolvable from bench/): typed here only as far as it is used.
type BuiltQuery = { toSQL: () => { sql: string; params: unknown[] } };
type SelectBuilder = {
  select: () => { from: (table: unknown) => { where: (where: unknown) => { orderBy: (...columns: unknown[]) => { limit: (n: number) => { offset: (n: number) => BuiltQuery } } } } };
};
const { QueryBuilder } = requireFromServer('drizzle-orm/pg-core') as { QueryBuilder: new () => SelectBuilder };
const { asc } = requireFromServer('drizzle-orm') as { asc: (column: unknown) => unknown };
const autocannonBin = path.join(path.dirname(requireFromServer.resolve('autocannon/package.json')), 'autocannon.js');

type Cannon = { rps: number; p50: number; p99: number; total: number; non2xx: number; errors: number };

/** autocannon's CLI in its own process (so it does not share the server's or this script's event loop). */
function autocannon(url: string, durationSeconds: number): Promise<Cannon> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [autocannonBin, '-c', String(connections), '-d', String(durationSeconds), '-j', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + 30) * 1000);
    child.once('exit', () => {
      clearTimeout(timer);
      try {
        const r = JSON.parse(out) as {
          requests: { average: number; total: number };
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
          timeouts: number;
        };
        resolve({ rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts });
      } catch {
        reject(new Error(`autocannon failed: ${err || out}`));
      }
    });
  });
}

/** The same answer bytes from a bare Fastify route: the ceiling of this machine. */
async function startBare(body: string): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'));
  fs.writeFileSync(path.join(dir, 'body.json'), body);
  const [port] = await freePorts(1);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'api', 'bare-server.ts'), path.join(dir, 'body.json'), String(port)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/bare`, child, dir };
}

/** The public list's query as the server builds it, planned by PostgreSQL with real parameters. */
async function explainPublicList(url: string): Promise<string> {
  const query = new QueryBuilder().select().from(slots).where(publiclyBookable()).orderBy(asc(slots.startAt), asc(slots.id)).limit(listSlots).offset(0).toSQL();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ANALYZE slots');
    const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${query.sql}`, query.params);
    return plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

/** Two years of past slots (never shown, never bookable), as a long-running school would have. */
async function addHistory(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      `INSERT INTO slots (start_at, end_at)
       SELECT t, t + interval '30 minutes' FROM generate_series(now() - interval '2 years', now() - interval '1 day', interval '30 minutes') t
       ON CONFLICT DO NOTHING`,
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

type ListResult = {
  list: Cannon;
  bare: Cannon;
  listWithHistory?: Cannon;
  historyRows?: number;
  plan?: string;
  planWithHistory?: string;
  slotsInAnswer: number;
  answerBytes: number;
  load: string;
};

async function listCase(label: Database['label']): Promise<ListResult> {
  const database = await createDatabase(label);
  let server: Server | undefined;
  try {
    server = await startServer(database);
    const token = await staffToken(server.url);
    await createSlots(server.url, token, listSlots);
    const answer = await (await fetch(`${server.url}${listPath}`)).text();
    const slotsInAnswer = (JSON.parse(answer) as { data: { slots: unknown[] } }).data.slots.length;
    const bare = await startBare(answer);
    try {
      await autocannon(`${server.url}${listPath}`, 2); // warm-up (JIT, pool), not reported
      await autocannon(bare.url, 2);
      const list = await autocannon(`${server.url}${listPath}`, seconds);
      console.log(`${label} list: ${list.rps} req/s, p50 ${list.p50} ms, p99 ${list.p99} ms (load ${loadAverage()})`);
      const bareResult = await autocannon(bare.url, seconds);
      console.log(`${label} bare: ${bareResult.rps} req/s, p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms`);
      const result: ListResult = { list, bare: bareResult, slotsInAnswer, answerBytes: Buffer.byteLength(answer), load: loadAverage() };
      if (database.url) {
        result.plan = await explainPublicList(database.url);
        result.historyRows = await addHistory(database.url);
        result.planWithHistory = await explainPublicList(database.url);
        result.listWithHistory = await autocannon(`${server.url}${listPath}`, seconds);
        console.log(`${label} list with ${result.historyRows} past slots: ${result.listWithHistory.rps} req/s, p99 ${result.listWithHistory.p99} ms`);
      }
      return result;
    } finally {
      await stopChild(bare.child);
      fs.rmSync(bare.dir, { recursive: true, force: true });
    }
  } finally {
    if (server) await stopChild(server.child);
    await database.drop();
  }
}

type EnrolmentClientResult = {
  visitors: number;
  totalMs: number;
  outcomes: Record<string, number>;
  completedSlotIds: number[];
  refusals: Record<string, number>;
  initiate: { count: number; p50: number; p99: number };
  initiateOk: { count: number; p50: number; p99: number };
  initiateRefused: { count: number; p50: number; p99: number };
  statusCounts: Record<string, number>;
  serverErrors: number;
  serverErrorsBy: Record<string, number>;
  networkErrors: number;
  /** From a visitor's start to their payment session, for those who booked (waits and solving included). */
  waitToHold: { p50: number; p99: number; max: number };
  /** 429 HOLD_LIMIT without a challenge: the visitor waited Retry-After and tried again. */
  waitsTold: number;
  /** Hold-limit challenges (429 HOLD_LIMIT) solved by the visitors, as the booking dialog solves them. */
  challenges: { solved: number; failed: number; solveP50: number; solveP99: number };
};
type EnrolmentResult = EnrolmentClientResult & {
  bookedSlots: number;
  distinctBookedSlots: number;
  distinctReferences: number;
  clientMatchesServer: boolean;
  apiErrors: string[];
  load: string;
};

function runEnrolmentClient(api: string): Promise<EnrolmentClientResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'api', 'enrolment-client.ts'), api, String(visitors)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 900_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as EnrolmentClientResult);
      } catch {
        reject(new Error(`enrolment client failed (${code}): ${out}`));
      }
    });
  });
}

async function enrolmentCase(label: Database['label']): Promise<EnrolmentResult> {
  const database = await createDatabase(label);
  let server: Server | undefined;
  try {
    server = await startServer(database);
    const token = await staffToken(server.url);
    await createSlots(server.url, token, enrolmentSlots);
    const client = await runEnrolmentClient(server.url);
    const load = loadAverage();
    const booked = await json<{ data: { timeSlots: { rows: { id: number; bookingReference?: string | null }[] } } }>(
      `${server.url}/slot/list?isBooked=true`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const rows = booked.data.timeSlots.rows;
    const ids = new Set(rows.map((r) => r.id));
    const clientIds = [...client.completedSlotIds].sort((a, b) => a - b);
    const result: EnrolmentResult = {
      ...client,
      bookedSlots: rows.length,
      distinctBookedSlots: ids.size,
      distinctReferences: new Set(rows.map((r) => r.bookingReference)).size,
      clientMatchesServer: JSON.stringify(clientIds) === JSON.stringify([...ids].sort((a, b) => a - b)),
      apiErrors: [...new Set(server.log.join('').split('\n').filter((line) => /"level":(50|60)/.test(line)).map(errorMessageOf))].slice(0, 5),
      load,
    };
    if (result.serverErrors) console.log(`${label} enrolment 5xx by route: ${JSON.stringify(result.serverErrorsBy)}; API error log: ${result.apiErrors.join(' | ')}`);
    console.log(
      `${label} enrolment: ${result.bookedSlots} booked (${result.distinctBookedSlots} distinct), outcomes ${JSON.stringify(result.outcomes)}, refusals ${JSON.stringify(result.refusals)}, initiate p99 ${result.initiate.p99} ms (held ${result.initiateOk.p99}, refused ${result.initiateRefused.p99}), 429 × ${result.statusCounts['429'] ?? 0}, told to wait ${result.waitsTold}, challenges solved ${result.challenges.solved}, booked after p50 ${result.waitToHold.p50} / p99 ${result.waitToHold.p99} ms, ${result.totalMs} ms, 5xx ${result.serverErrors} (load ${load})`,
    );
    return result;
  } finally {
    if (server) await stopChild(server.child);
    await database.drop();
  }
}

/** The last line of a pino error entry's message (the cause), short. */
function errorMessageOf(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
    return (entry.err?.message ?? entry.msg ?? '').split('\n').pop()!.slice(0, 160);
  } catch {
    return line.slice(0, 160);
  }
}

const ratio = (r: ListResult) => Math.round((r.list.rps / r.bare.rps) * 100) / 100;

function render(lists: Record<string, ListResult>, enrolments: Record<string, EnrolmentResult>): string {
  const pgList = lists.PostgreSQL;
  const pgEnrol = enrolments.PostgreSQL;
  const lines = [
    section,
    '',
    `Measured by \`npm run bench:api\` on ${today()} (\`BENCH_SECONDS=${seconds}\`): the API (\`server/src/main.ts\`, \`LOG_LEVEL=warn\`, sandbox`,
    'gateway with no callback delay) in its own process on a fresh database each case: a throwaway PostgreSQL database at',
    '127.0.0.1:5432 (dropped afterwards) or PGlite in a temporary folder. Load comes from other processes on loopback:',
    `autocannon 9's CLI (${connections} connections, ${seconds} s after a 2 s warm-up) and, for enrolment day, a client process of ${visitors}`,
    'concurrent visitors. The machine is shared (2 cores, other engineers building and testing): load averages given.',
    '',
    `### Public list (\`GET ${listPath}\`, ${listSlots} slots) vs a bare static-JSON Fastify route`,
    '',
    'The bare route (bench/api/bare-server.ts) answers the same bytes from memory: no database, no validation, no',
    'serialization — the ceiling of Node + Fastify here.',
    '',
    '| database | route | req/s | p50 ms | p99 ms | requests | non-2xx | errors | list ÷ bare | load average |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...Object.entries(lists).flatMap(([label, r]) => [
      `| ${label} | public list (${r.slotsInAnswer} slots, ${(r.answerBytes / 1024).toFixed(1)} KB) | ${r.list.rps} | ${r.list.p50} | ${r.list.p99} | ${r.list.total} | ${r.list.non2xx} | ${r.list.errors} | ${ratio(r)} | ${r.load} |`,
      `| ${label} | bare static JSON | ${r.bare.rps} | ${r.bare.p50} | ${r.bare.p99} | ${r.bare.total} | ${r.bare.non2xx} | ${r.bare.errors} | | |`,
      ...(r.listWithHistory
        ? [`| ${label} | public list, plus ${r.historyRows} past slots in the table | ${r.listWithHistory.rps} | ${r.listWithHistory.p50} | ${r.listWithHistory.p99} | ${r.listWithHistory.total} | ${r.listWithHistory.non2xx} | ${r.listWithHistory.errors} | ${Math.round((r.listWithHistory.rps / r.bare.rps) * 100) / 100} | |`]
        : []),
    ]),
    '',
    `Targets on PostgreSQL: p99 < 50 ms at ${connections} connections (${pgList ? `${pgList.list.p99} ms: ${pgList.list.p99 < 50 ? 'met' : 'NOT met'}` : 'not measured'}), at least half the bare route's`,
    `throughput (${pgList ? `${ratio(pgList)}: ${ratio(pgList) >= 0.5 ? 'met' : 'NOT met'}` : 'not measured'}).`,
    '',
    ...(pgList?.plan
      ? [
          'The public list query as the server builds it (Drizzle, `listPublicSlots`), planned by PostgreSQL with real parameters',
          `(\`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)\`) — on the ${listSlots}-slot table:`,
          '',
          '```',
          pgList.plan,
          '```',
          '',
          `and after ${pgList.historyRows} past slots were added (two years of history):`,
          '',
          '```',
          pgList.planWithHistory ?? '',
          '```',
          '',
        ]
      : []),
    `### Enrolment day: ${visitors} visitors, ${enrolmentSlots} slots, sandbox payments`,
    '',
    `Each visitor (bench/api/enrolment-client.ts) reads the public list, picks a free slot at random, \`POST /api/payment/initiate\``,
    "(which takes the hold), presses Pay on the sandbox checkout page (the gateway then sends its HMAC-signed callback,",
    'which books the slot) and polls `GET /api/payment/status/{id}` as the pending page does; a visitor refused with 409',
    '(or 429 HOLD_TIME_USED) reads the list again and tries another slot, up to 3 times. All visitors come from one address',
    "(a carrier NAT): past the network's free holds the API answers 429 HOLD_LIMIT with a proof-of-work challenge, which the",
    "visitor solves with the booking dialog's own solver (WebCrypto SHA-256) and sends again, as a browser does; at the",
    "network's ceiling (a sixth of the bookable slots held) the 429 has no challenge, and the visitor waits what Retry-After",
    'says (give or take half) and tries again, for up to 10 minutes. Afterwards the staff list is read to count bookings.',
    'Every solve runs in this one client process, ~500 at once on the 2 cores the API also uses, so the solve and initiate',
    "times below are one CPU doing every parent's work; one level-1 solve alone (1,000-2,000 digests) takes ~70-100 ms here.",
    '',
    '| database | bookings (distinct slots, distinct references) | visitor outcomes | refusals (409; 429 after solving) | 429 answers (told to wait) | challenges solved (solve p50 / p99 ms) | initiate calls | initiate p50 / p99 ms, solving included (all; held; refused) | a booking parent waited for their hold, p50 / p99 / max s | total s | 5xx | network errors | load average |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...Object.entries(enrolments).map(
      ([label, e]) =>
        `| ${label} | ${e.bookedSlots} (${e.distinctBookedSlots}, ${e.distinctReferences})${e.clientMatchesServer ? '' : ' — differs from what visitors were told!'} | ${Object.entries(e.outcomes).map(([k, v]) => `${k} ${v}`).join(', ')} | ${Object.entries(e.refusals).map(([k, v]) => `${k} ${v}`).join(', ') || '0'} | ${e.statusCounts['429'] ?? 0} (${e.waitsTold}) | ${e.challenges.solved}${e.challenges.failed ? ` (${e.challenges.failed} failed)` : ''} (${e.challenges.solveP50} / ${e.challenges.solveP99}) | ${e.initiate.count} | ${e.initiate.p50} / ${e.initiate.p99}; ${e.initiateOk.p50} / ${e.initiateOk.p99}; ${e.initiateRefused.p50} / ${e.initiateRefused.p99} | ${(e.waitToHold.p50 / 1000).toFixed(1)} / ${(e.waitToHold.p99 / 1000).toFixed(1)} / ${(e.waitToHold.max / 1000).toFixed(1)} | ${(e.totalMs / 1000).toFixed(1)} | ${e.serverErrors} | ${e.networkErrors} | ${e.load} |`,
    ),
    ...Object.entries(enrolments)
      .filter(([, e]) => e.serverErrors > 0)
      .map(([label, e]) => `5xx on ${label}, by route: ${Object.entries(e.serverErrorsBy).map(([k, v]) => `\`${k.trim()}\` × ${v}`).join(', ')}.`),
    '',
    `Target on PostgreSQL: exactly ${enrolmentSlots} bookings, no slot twice, zero 5xx (${
      pgEnrol
        ? pgEnrol.bookedSlots === enrolmentSlots && pgEnrol.distinctBookedSlots === enrolmentSlots && pgEnrol.serverErrors === 0 && pgEnrol.clientMatchesServer
          ? 'met'
          : 'NOT met'
        : 'not measured'
    }).`,
    '',
  ];
  return lines.join('\n');
}

async function main() {
  const only = process.env.BENCH_DATABASES?.split(',') ?? ['PostgreSQL', 'PGlite'];
  const lists: Record<string, ListResult> = {};
  const enrolments: Record<string, EnrolmentResult> = {};
  const cases = process.env.BENCH_CASES?.split(',') ?? ['list', 'enrolment'];
  for (const label of only as Database['label'][]) {
    if (cases.includes('list')) lists[label] = await listCase(label);
    if (cases.includes('enrolment')) enrolments[label] = await enrolmentCase(label);
  }
  const file = writeDocSection(section, render(lists, enrolments));
  console.log(`Written to ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
