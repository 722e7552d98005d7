// An enrolment day through nginx (scripts/stack-scale.ts), with or without faults: parents from many networks
// (127.0.N.x) reserve → initiate → pay on the sandbox → callback, those who find nothing join the waitlist, while `/`
// is asked for in English and Malay. The faults: every API process rolled (rollApi), then kill -9 of one API process
// and one shell server (started again), then PostgreSQL stopped for a while and started again. Returns what a parent
// saw and what the database holds; bench/enrolment-faults.ts prints it, e2e/deploy/faults.e2e.test.ts asserts the counts.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { brand, schoolYears, addDays, todayInMY, type HoldChallenge } from 'shared-api/contract';
import { currentNoticeVersion } from 'shared-api/privacy';
import { solveHoldChallenge } from '../../booking-remote/src/lib/hold-limit/holdChallenge';
import { createSlots, pg, staffToken } from '../api/server';
import { percentile } from '../doc';
import type { ScaleStack } from '../../scripts/stack-scale';
import type { Cluster } from './cluster';

export type RunOptions = {
  stack: ScaleStack;
  cluster: Cluster;
  /** Messages the fake SMTP server received (their Message-ID). */
  receivedMessageIds: () => string[];
  parents: number;
  addresses: number;
  slots: number;
  homeRequests: number;
  /** Parents arrive evenly over this long. */
  arrivalMs: number;
  faults: boolean;
  /** Whether the faults begin with a rolling restart of every API process (default true). */
  roll?: boolean;
  /** How long PostgreSQL stays stopped. */
  databaseDownMs: number;
  /** A request slower than this has hung. */
  requestBudgetMs?: number;
  seed?: number;
  log?: (line: string) => void;
};

export type RunResult = {
  parents: number;
  paidSeen: number;
  waitlisted: number;
  /** Parents whose waitlist join the network's limit refused (429 after the challenges a dialog solves). */
  limited: number;
  unserved: number;
  paidInDatabase: number;
  bookedSlots: number;
  slotsSoldTwice: number;
  paymentsBookedOnce: boolean;
  paidSeenMissing: number;
  mailsQueued: number;
  mailsSent: number;
  mailsUnsent: number;
  /** Each unsent mail as the outbox has it when the run stopped waiting: status, attempts, last error, age. */
  unsentMails: string[];
  mailsReceived: number;
  /** Queued mails the SMTP server never received. */
  mailsLost: number;
  mailDuplicates: number;
  /**
   * Mails received twice that were not being sent when the kill -9 came (`sending` then): the goal is 0. A message the
   * killed process had handed to the SMTP server but not yet marked sent goes again (at least once, same Message-ID).
   */
  mailDuplicatesNotCutByKill: number;
  parentRequests: number;
  parentServerErrors: number;
  serverErrorsBy: Record<string, number>;
  networkErrors: number;
  /** nginx's 502 for requests under way at the API process killed with -9 (asked again by the parent). */
  cutByKill: Record<string, number>;
  retries: number;
  hung: number;
  initiate: { count: number; p50: number; p99: number };
  home: { count: number; p50: number; p99: number; serverErrors: number };
  /**
   * `/` answered 5xx or not at all, by status and by when: while PostgreSQL was down, within 5 s of the kills, at an
   * nginx reload of a roll (its old workers close their idle connections), else.
   */
  homeFailures: Record<string, number>;
  databaseDown?: { ms: number; requests: number; with503RetryAfter: number; longestMs: number };
  faultsDone: string[];
  /** `/` requests that reached a shell server, per language (nginx's own requests filling the cache included). */
  homeReachedShell: Record<string, number>;
  /** The most `/` requests that reached a shell server in one cache period, per language (the bound is 1). */
  homeReachedShellPerPeriod: Record<string, number>;
  /** nginx's lines of the periods past that bound (the first 10), to see why. */
  homeOverBound: string[];
  /** Cache periods the run spanned: the most `/` may reach the shells per language. */
  cachePeriods: number;
  cachePeriodS: number;
  homeClientPage: number;
  homeClientPageAfterFirstRender: number;
  /** Of those, the ones not explained by PostgreSQL being away (its window and one cache period after): the goal is 0. */
  homeClientPageOutsideOutage: number;
  /** The first few things that went wrong for a parent, as they saw them. */
  notes: string[];
  /** Each `/` without an answer, or answered only when asked again, with why (error, socket), and the faults' moments. */
  homeNotes: string[];
};

type Answer = {
  status: number;
  body: string;
  retryAfter?: string;
  ms: number;
  startedAt: number;
  /** Why there was no answer (status 0), each attempt: the error, the socket's reuse and history, what had come back. */
  failure?: string;
  /** An answer that came on the second attempt: why the first had none. */
  retriedAfter?: string;
};

/** Per socket: requests sent on it and when its last answer ended (to see what a failed reused socket had been doing). */
const socketUse = new WeakMap<object, { requests: number; freedAt?: number; openedAt: number }>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** mulberry32: the same seed picks the same slots and languages in both runs. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Whole milliseconds. */
const percentileMs = (values: number[], p: number) => Math.round(percentile(values, p));

/**
 * One HTTP request from `localAddress`, ended after `timeoutMs` (status 0: no answer, `failure` says why). Kept-alive
 * connections are reused (Node's global agent); `again` (why the first attempt failed) sends it on a new connection.
 */
function send(
  url: string,
  options: { localAddress?: string; method?: string; body?: unknown; form?: boolean; headers?: http.OutgoingHttpHeaders; timeoutMs: number },
  again?: string,
): Promise<Answer> {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : options.form ? String(options.body) : JSON.stringify(options.body);
    const headers: http.OutgoingHttpHeaders = { ...options.headers };
    if (payload !== undefined) {
      headers['content-type'] = options.form ? 'application/x-www-form-urlencoded' : 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    let headersAt: number | undefined;
    let bytes = 0;
    let socketNote = 'no socket';
    const agent = again ? false : undefined;
    const req = http.request(url, { method: options.method ?? 'GET', localAddress: options.localAddress, headers, agent }, (res) => {
      headersAt = Date.now();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        chunks.push(chunk);
      });
      res.on('end', () => {
        const use = socketUse.get(req.socket as object);
        if (use) use.freedAt = Date.now();
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const body = (encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'], ms: Date.now() - startedAt, startedAt });
      });
      res.on('error', (error: NodeJS.ErrnoException) => resolve(failed(error)));
    });
    req.on('socket', (socket) => {
      const use = socketUse.get(socket) ?? { requests: 0, openedAt: Date.now() };
      socketUse.set(socket, use);
      const idle = use.freedAt === undefined ? '-' : `${Date.now() - use.freedAt}ms`;
      use.requests++;
      const port = () => socket.localPort ?? '?';
      socketNote = `reused=${req.reusedSocket} request#${use.requests} on socket (opened ${Date.now() - use.openedAt}ms before, idle ${idle})`;
      if (req.reusedSocket) socketNote += ` port=${port()}`;
      else socket.once('connect', () => (socketNote += ` port=${port()}`));
    });
    const failed = (error: NodeJS.ErrnoException): Answer => {
      const at = new Date().toISOString();
      const what = `${at} ${error.code ?? ''} "${error.message}" after ${Date.now() - startedAt}ms ${socketNote} headers=${headersAt ? 'yes' : 'no'} bytes=${bytes}`;
      return { status: 0, body: '', ms: Date.now() - startedAt, startedAt, failure: again ? `${again}; then ${what}` : what };
    };
    req.setTimeout(options.timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection nginx closed (a reload) as it was reused: nothing reached a server, and a browser asks
      // again, once (Node's documented check: reusedSocket and ECONNRESET). On a new connection: a reload closes every
      // idle connection of its old workers at once, and the agent's next idle one (the pool is LIFO) is most often
      // another of them, its close not yet read. bench:faults lost 5 `/` so, each reset twice 180 ms into a roll's
      // reload; a browser checks an idle connection is still open before it reuses one.
      const answer = failed(error);
      if (req.reusedSocket && error.code === 'ECONNRESET' && !again)
        return void send(url, options, answer.failure).then((next) => resolve(next.status ? { ...next, retriedAfter: answer.failure } : next));
      resolve(answer);
    });
    req.end(payload);
  });
}

export async function runEnrolmentDay(options: RunOptions): Promise<RunResult> {
  const { stack, cluster } = options;
  const notes: string[] = [];
  const log = (line: string) => {
    if (notes.length < 20) notes.push(line);
    options.log?.(line);
  };
  const budgetMs = options.requestBudgetMs ?? 15_000;
  const seed = options.seed ?? 39;
  const random = seeded(seed);
  const api = stack.urls.api;
  const staff = await staffToken(api);
  await createSlots(api, staff, options.slots);
  const logFile = `${stack.prefix}/access.log`;
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;

  const parentAnswers: Answer[] = [];
  const serverErrorsBy: Record<string, number> = {};
  let parentServerErrors = 0;
  let networkErrors = 0;
  let retries = 0;
  // From just before the kill -9 is sent to when both processes are gone (a busy machine takes a while to deliver it).
  let killedAt: number | undefined;
  let killedBy: number | undefined;
  const cutByKill: Record<string, number> = {};
  const initiateMs: number[] = [];

  /**
   * A parent's request as the browser makes it: a 503 with Retry-After (the database away) is asked again after that
   * wait, as the booking dialog does; any other 5xx, or no answer, is one shown to the parent (counted), then retried.
   */
  const ask = async (what: string, url: string, init: Parameters<typeof send>[1] extends infer O ? Omit<O & object, 'timeoutMs'> : never) => {
    const firstAt = Date.now();
    for (;;) {
      const answer = await send(url, { ...init, timeoutMs: budgetMs * 2 });
      parentAnswers.push(answer);
      const told = answer.status === 503 && answer.retryAfter !== undefined;
      // nginx's 502 for a request that was under way at the process killed with -9 (a POST is never resent).
      const cut =
        answer.status === 502 && killedAt !== undefined && answer.startedAt <= (killedBy ?? Date.now()) && answer.startedAt + answer.ms >= killedAt;
      if (answer.status === 0) {
        networkErrors++;
        log(`${what}: no answer: ${answer.failure ?? ''}`);
      }
      else if (cut) cutByKill[what] = (cutByKill[what] ?? 0) + 1;
      else if (answer.status >= 500 && !told) {
        parentServerErrors++;
        const key = `${what} ${answer.status}`;
        serverErrorsBy[key] = (serverErrorsBy[key] ?? 0) + 1;
      }
      if (answer.status !== 0 && answer.status < 500) return { answer, tookMs: Date.now() - firstAt };
      if (Date.now() - firstAt > 120_000) return { answer, tookMs: Date.now() - firstAt };
      retries++;
      await sleep(told ? Math.min(5, Number(answer.retryAfter) || 1) * 1000 : 1000);
    }
  };

  type Slot = { id: number };
  const outcome = { paid: new Set<string>(), waitlisted: 0, limited: 0, unserved: 0 };
  /** A POST that may be asked for a proof of work (429 with a challenge): solved and sent again, as the dialog does. */
  const postSolving = async (what: string, url: string, address: string, body: Record<string, unknown>) => {
    let { answer } = await ask(what, url, { localAddress: address, method: 'POST', body });
    for (let round = 0; round < 3 && answer.status === 429; round++) {
      const challenge = (JSON.parse(answer.body) as { data?: { challenge?: HoldChallenge | null } }).data?.challenge;
      if (!challenge) break;
      const proof = await solveHoldChallenge(challenge);
      if (!proof) break;
      ({ answer } = await ask(what, url, { localAddress: address, method: 'POST', body: { ...body, proofOfWork: proof } }));
    }
    return answer;
  };

  const joinWaitlist = async (n: number, address: string) => {
    const school = brand.schools[n % brand.schools.length];
    const locale = n % 2 ? 'ms' : 'en';
    const answer = await postSolving('join waitlist', `${api}/api/waitlist`, address, {
      name: `Parent ${n}`,
      email: `parent${n}@example.com`,
      phone: `01${60_000_000 + n}`,
      school: school.name,
      childName: `Child ${n}`,
      childYear: schoolYears(school.name)[0]?.name,
      fromDate: todayInMY(),
      toDate: addDays(todayInMY(), 14),
      partOfDay: 'any',
      locale,
      privacyConsent: { noticeVersion: currentNoticeVersion(), language: locale },
    });
    if ([200, 201, 202].includes(answer.status)) outcome.waitlisted++;
    // Past its free joins each of the network's joins costs one hit and a proof at that hit's level (good however many others join meanwhile): a 429 here is its 20 joins an hour used, or a proof too late (an answer, not a fault).
    else if (answer.status === 429) outcome.limited++;
    else {
      outcome.unserved++;
      log(`parent ${n}: waitlist ${answer.status} ${answer.body.slice(0, 200)}`);
    }
  };

  const parent = async (n: number) => {
    // One address per network (127.0.N.10): the parents behind it share it, as behind a carrier's NAT.
    const address = `127.0.${1 + (n % options.addresses)}.10`;
    const school = brand.schools[n % brand.schools.length];
    const pick = seeded(seed * 1000 + n)();
    for (let attempt = 0; attempt < 3; attempt++) {
      const { answer: list } = await ask('list', `${api}/public/list?limit=100&page=1&format=legacy`, { localAddress: address });
      if (list.status !== 200) break;
      const slots = (JSON.parse(list.body) as { data: { slots: Slot[] } }).data.slots;
      if (slots.length === 0) break;
      const slot = slots[Math.floor((pick * slots.length + attempt * 7) % slots.length)];
      const reserved = await postSolving('reserve', `${api}/slot/${slot.id}/reserve`, address, {});
      if (reserved.status === 429) await sleep(Math.min(5, Number(reserved.retryAfter) || 1) * 1000);
      if (reserved.status !== 200) continue;
      const { token } = (JSON.parse(reserved.body) as { data: { token: string } }).data;
      const { answer: initiated, tookMs } = await ask('initiate', `${api}/api/payment/initiate`, {
        localAddress: address,
        method: 'POST',
        body: {
          slotId: slot.id,
          visitorName: `Parent ${n}`,
          visitorEmail: `parent${n}@example.com`,
          visitorContactNo: `01${String(40_000_000 + n)}`,
          selectedSchool: school.name,
          childName: `Child ${n}`,
          childYear: schoolYears(school.name)[0]?.name,
          consent: { noticeVersion: currentNoticeVersion(), language: 'en' },
          holdToken: token,
        },
      });
      initiateMs.push(tookMs);
      if (initiated.status !== 200) {
        log(`parent ${n}: initiate ${initiated.status} ${initiated.body.slice(0, 200)}`);
        continue;
      }
      const session = (JSON.parse(initiated.body) as { data: { paymentSession: { checkoutUrl: string; paymentId: string } } }).data.paymentSession;
      const { answer: paid } = await ask('pay', session.checkoutUrl, { localAddress: address, method: 'POST', body: 'action=pay&method=fpx', form: true });
      if (paid.status !== 303) {
        log(`parent ${n}: pay ${paid.status} ${paid.body.slice(0, 200)}`);
        outcome.unserved++;
        return;
      }
      // The payment-pending page: polls until the callback has settled the payment.
      for (let i = 0; i < 240; i++) {
        const { answer: status } = await ask('status', `${api}/api/payment/status/${session.paymentId}`, { localAddress: address });
        const state = status.status === 200 ? (JSON.parse(status.body) as { data?: { payment?: { status?: string } } }).data?.payment?.status : undefined;
        if (state === 'completed') {
          outcome.paid.add(session.paymentId);
          return;
        }
        if (state && !['pending', 'processing'].includes(state)) break;
        await sleep(500);
      }
      log(`parent ${n}: paid ${session.paymentId} but not completed`);
      outcome.unserved++;
      return;
    }
    await joinWaitlist(n, address);
  };

  // `/` meanwhile: English and Malay mixed, spread over the run, each answer checked for the server render; asked as
  // browsers do (Chrome's and Safari's Accept-Encoding), which the edge keeps as one copy per language.
  const homeHeaders = (lang: string) => ({ 'accept-language': lang, 'accept-encoding': random() < 0.5 ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br' });
  const homeMs: number[] = [];
  let homeServerErrors = 0;
  const homeFailed: Answer[] = [];
  let homeClientPage = 0;
  let homeClientPageAfterFirstRender = 0;
  const clientPageAt: number[] = [];
  const renderedOnce = new Set<string>();
  let cachePeriodS = 5;
  /** Each `/` without an answer, or answered only on a second attempt, and the faults' moments: ms from the start. */
  const homeNotes: string[] = [];
  let runStart = Date.now();
  const at = (what: string) => {
    homeNotes.push(`+${Date.now() - runStart}ms ${new Date().toISOString()} ${what}`);
    options.log?.(`+${Date.now() - runStart}ms ${what}`);
  };
  const home = async () => {
    const workers = 24;
    let sent = 0;
    const perWorkerGapMs = Math.max(0, (options.arrivalMs * workers) / options.homeRequests);
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (sent < options.homeRequests) {
          sent++;
          const lang = random() < 0.5 ? 'en' : 'ms';
          const started = Date.now();
          const answer = await send(`${stack.urls.shell}/`, { headers: homeHeaders(lang), timeoutMs: budgetMs * 2 });
          homeMs.push(answer.ms);
          if (answer.retriedAfter) homeNotes.push(`+${answer.startedAt - runStart}ms answered ${answer.status} on the second attempt; first: ${answer.retriedAfter}`);
          if (answer.status >= 500 || answer.status === 0) {
            homeServerErrors++;
            homeFailed.push(answer);
            const line = `+${answer.startedAt - runStart}ms / ${answer.status || 'no answer'}: ${answer.failure ?? ''}`;
            homeNotes.push(line);
            options.log?.(`/ ${line}`);
          }
          else if (answer.body.includes('id="server-state"')) renderedOnce.add(lang);
          else {
            homeClientPage++;
            if (renderedOnce.has(lang)) {
              homeClientPageAfterFirstRender++;
              clientPageAt.push(answer.startedAt);
            }
          }
          const gap = perWorkerGapMs - (Date.now() - started);
          if (gap > 0) await sleep(gap * (0.5 + random()));
        }
      }),
    );
  };
  const probe = await fetch(`${stack.urls.shell}/`, { headers: homeHeaders('en') });
  cachePeriodS = Number(/s-maxage=(\d+)/.exec(probe.headers.get('cache-control') ?? '')?.[1] ?? 5);
  await probe.text();

  const faultsDone: string[] = [];
  let sendingAtKill = new Set<string>();
  const mailsSending = async () => {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ message_id: string }>(`SELECT message_id FROM mail_outbox WHERE status = 'sending'`);
      return new Set(rows.map((row) => row.message_id.replace(/^<|>$/g, '')));
    } finally {
      await client.end();
    }
  };
  let databaseWindow: { from: number; to: number } | undefined;
  const reloads: { from: number; to: number }[] = [];
  const faults = async () => {
    if (!options.faults) return;
    await sleep(Math.min(3_000, options.arrivalMs / 10));
    for (let index = 0; options.roll !== false && index < stack.apiUrls.length; index++) {
      // rollApi reloads nginx as it begins and again before it ends (then waits up to 3 s for the old workers to go).
      const begins = Date.now();
      at(`roll of API ${index + 1} begins (nginx reloaded with it down)`);
      await stack.rollApi(index);
      const ends = Date.now();
      at(`roll of API ${index + 1} done (nginx reloaded with it back)`);
      reloads.push({ from: begins, to: begins + 3_500 }, { from: ends - 3_500, to: ends + 500 });
      faultsDone.push(`rolled API ${index + 1}`);
    }
    options.log?.(`faults: every API rolled`);
    killedAt = Date.now();
    at('kill -9 of API 2 and shell 1');
    await Promise.all([stack.stopApi(1, 'SIGKILL'), stack.stopShell(0, 'SIGKILL')]);
    killedBy = Date.now();
    sendingAtKill = await mailsSending();
    faultsDone.push('kill -9 API 2', 'kill -9 shell 1');
    await sleep(1_000);
    await Promise.all([stack.startApi(1), stack.startShell(0)]);
    options.log?.(`faults: API 2 and shell 1 killed and started again`);
    at('API 2 and shell 1 started again');
    const from = Date.now();
    at('PostgreSQL stopping');
    cluster.stop();
    await sleep(options.databaseDownMs);
    cluster.start();
    at('PostgreSQL started');
    databaseWindow = { from, to: Date.now() };
    faultsDone.push(`PostgreSQL stopped for ${Math.round((databaseWindow.to - from) / 1000)} s`);
    options.log?.(`faults: PostgreSQL back after ${databaseWindow.to - from} ms`);
  };

  const started = Date.now();
  runStart = started;
  const homeRun = home();
  let faulting = true;
  const faultRun = faults().finally(() => (faulting = false));
  const parentRuns: Promise<void>[] = [];
  // Parents arrive evenly over arrivalMs, and go on arriving at that pace while the faults last (a slow restart on a
  // busy machine must not leave the database's stop with nobody asking).
  for (let n = 0; n < options.parents || faulting; n++) {
    const due = started + (n * options.arrivalMs) / options.parents;
    if (due > Date.now()) await sleep(due - Date.now());
    parentRuns.push(parent(n));
  }
  await Promise.all([...parentRuns, faultRun, homeRun]);
  const finishedAt = Date.now();

  // Mails: wait until the outbox has sent everything (or 3 minutes), then compare with what the SMTP server received.
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    // A job taken by the process killed with -9 is handed to another after pg-boss's expiry (2 minutes), found by its
    // next maintenance (JOB_MAINTENANCE_SECONDS; the runs set 15), then its retry delay (30 s): up to 4 minutes.
    for (let i = 0; i < 480; i++) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_outbox WHERE status IN ('pending', 'sending')`);
      if (rows[0].n === 0) break;
      await sleep(500);
    }
    const paid = (await client.query<{ id: string; slot_id: number }>(`SELECT id::text, slot_id FROM payments WHERE status = 'completed'`)).rows;
    const booked = (await client.query<{ id: number }>(`SELECT id FROM slots WHERE status = 'booked'`)).rows;
    const twice = (await client.query(`SELECT slot_id FROM payments WHERE status = 'completed' GROUP BY slot_id HAVING count(*) > 1`)).rows;
    const mails = (await client.query<{ status: string; message_id: string }>(`SELECT status, message_id FROM mail_outbox`)).rows;
    const unsentMails = (
      await client.query<{ line: string }>(
        `SELECT concat_ws(' ', kind, status, 'attempts=' || attempts, 'age=' || floor(extract(epoch from now() - created_at))::int || 's', last_error) AS line
         FROM mail_outbox WHERE status <> 'sent' ORDER BY id`,
      )
    ).rows.map((row) => row.line);
    const received = options.receivedMessageIds().map((id) => id.replace(/^<|>$/g, ''));
    const receivedCount = new Map<string, number>();
    for (const id of received) receivedCount.set(id, (receivedCount.get(id) ?? 0) + 1);
    const sentIds = mails.filter((m) => m.status === 'sent').map((m) => m.message_id.replace(/^<|>$/g, ''));

    // `/` in nginx's log: those that reached a shell server (upstream set), per language and per cache period.
    const lines = fs.readFileSync(logFile, 'utf8').slice(logStart).split('\n').filter((line) => line.includes('"GET / HTTP'));
    const reached = lines.filter((line) => !line.includes('upstream=-'));
    const homeReachedShell: Record<string, number> = {};
    const perPeriod = new Map<string, number>();
    const linesOf = new Map<string, string[]>();
    for (const line of reached) {
      const lang = /lang="al:([^"]*)"/.exec(line)?.[1] ?? /lang="([^"]*)"/.exec(line)?.[1] ?? '?';
      homeReachedShell[lang] = (homeReachedShell[lang] ?? 0) + 1;
      const at = Number(/ at=([\d.]+)/.exec(line)?.[1] ?? 0);
      const key = `${lang} ${Math.floor(at / cachePeriodS)}`;
      perPeriod.set(key, (perPeriod.get(key) ?? 0) + 1);
      linesOf.set(key, [...(linesOf.get(key) ?? []), line]);
    }
    const homeReachedShellPerPeriod: Record<string, number> = {};
    for (const [key, n] of perPeriod) {
      const lang = key.split(' ')[0];
      homeReachedShellPerPeriod[lang] = Math.max(homeReachedShellPerPeriod[lang] ?? 0, n);
    }
    const homeOverBound = [...linesOf.values()].filter((group) => group.length > 1).flat().slice(0, 10);
    fs.writeFileSync(`${stack.prefix}/home-notes.txt`, homeNotes.join('\n') + '\n');
    const homeFailures: Record<string, number> = {};
    for (const answer of homeFailed) {
      const at = answer.startedAt;
      const when =
        databaseWindow && at + answer.ms >= databaseWindow.from && at <= databaseWindow.to
          ? 'while PostgreSQL was down'
          : killedAt !== undefined && at + answer.ms >= killedAt && at <= killedAt + 5_000
            ? 'within 5 s of the kills'
            : reloads.some((reload) => at + answer.ms >= reload.from && at <= reload.to)
              ? 'at an nginx reload (a roll)'
              : 'at another time';
      const key = `${answer.status || 'no answer'} ${when}`;
      homeFailures[key] = (homeFailures[key] ?? 0) + 1;
    }
    const paidIds = new Set(paid.map((row) => row.id));
    const bookedIds = booked.map((row) => row.id).sort();
    const paidSlots = paid.map((row) => row.slot_id).sort();
    const inWindow = databaseWindow
      ? parentAnswers.filter((a) => a.startedAt >= databaseWindow!.from && a.startedAt <= databaseWindow!.to)
      : [];
    return {
      parents: parentRuns.length,
      paidSeen: outcome.paid.size,
      waitlisted: outcome.waitlisted,
      limited: outcome.limited,
      unserved: outcome.unserved,
      paidInDatabase: paid.length,
      bookedSlots: booked.length,
      slotsSoldTwice: twice.length,
      paymentsBookedOnce: JSON.stringify(bookedIds) === JSON.stringify(paidSlots) && new Set(paidSlots).size === paidSlots.length,
      paidSeenMissing: [...outcome.paid].filter((id) => !paidIds.has(id)).length,
      mailsQueued: mails.length,
      mailsSent: sentIds.length,
      mailsUnsent: mails.length - sentIds.length,
      unsentMails,
      mailsReceived: received.length,
      mailsLost: mails.filter((m) => !receivedCount.has(m.message_id.replace(/^<|>$/g, ''))).length,
      mailDuplicates: [...receivedCount.values()].filter((count) => count > 1).length,
      mailDuplicatesNotCutByKill: [...receivedCount].filter(([id, count]) => count > 1 && !sendingAtKill.has(id)).length,
      parentRequests: parentAnswers.length,
      parentServerErrors,
      serverErrorsBy,
      networkErrors,
      cutByKill,
      retries,
      hung: parentAnswers.filter((a) => a.ms > budgetMs).length,
      initiate: { count: initiateMs.length, p50: percentileMs(initiateMs, 50), p99: percentileMs(initiateMs, 99) },
      home: { count: homeMs.length, p50: percentileMs(homeMs, 50), p99: percentileMs(homeMs, 99), serverErrors: homeServerErrors },
      databaseDown: databaseWindow && {
        ms: databaseWindow.to - databaseWindow.from,
        requests: inWindow.length,
        with503RetryAfter: inWindow.filter((a) => a.status === 503 && a.retryAfter !== undefined).length,
        longestMs: Math.max(0, ...inWindow.map((a) => a.ms)),
      },
      faultsDone,
      homeReachedShell,
      homeReachedShellPerPeriod,
      homeOverBound,
      homeFailures,
      // The bound over the whole run: one per language per period it spans (+1 for a partial one).
      cachePeriods: Math.ceil((finishedAt - started) / (cachePeriodS * 1000)) + 1,
      cachePeriodS,
      homeClientPage,
      homeClientPageAfterFirstRender,
      // While the database is away the shell answers the client page on purpose (it tells the parent, with Retry).
      homeClientPageOutsideOutage: clientPageAt.filter(
        (at) => !databaseWindow || at < databaseWindow.from || at > databaseWindow.to + (cachePeriodS + 2) * 1000,
      ).length,
      notes,
      homeNotes,
    };
  } finally {
    await client.end();
  }
}

