import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUser } from '../../src/auth/accounts';
import { PasswordWorkMessage, type PasswordWorkCounts } from '../../src/auth/password-work';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { LoginMessage } from '../../src/auth/routes';
import { createThrowawayPostgres } from '../helpers';
import { freePort, removeProcessDirs, startApiProcess, stopAll, type Server } from '../payments/server-process';
import { waitFor } from '../payments/support';

// Login floods against two real API processes on one PostgreSQL, with the real scrypt (N 2^17: ~0.4 s, 128 MiB a hash).
// Before the password queue, 120 wrong logins at once left many unanswered at 30 s and a colleague's right password
// got no answer at all. Outcomes only: who got in, who was refused and how, what the processes hashed.
jest.setTimeout(300_000);

const OWNER = { email: 'owner@example.com', password: 'owner-password-1' };
const COLLEAGUE = { email: 'colleague@example.com', password: 'colleague-password-1' };
const HANGUP = { email: 'hangup@example.com', password: 'hangup-password-1' };
/** Longer than any client waits in practice: an answer later than this counts as none (status 0). */
const CLIENT_PATIENCE_MS = 30_000;

type Api = Server & { metricsUrl: string };
type Answer = { status: number; retryAfter?: string; setCookie?: string[]; message?: string };

/** POST /auth/login from a loopback address (127.0.0.x act as other clients); `cookie` as a browser would send it. */
function login(api: Api, body: object, localAddress: string, { cookie, hangUpOn }: { cookie?: string; hangUpOn?: Promise<void> } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const { port } = new URL(api.base);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) };
    const req = http.request({ host: '127.0.0.1', port, path: '/auth/login', method: 'POST', localAddress, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, setCookie: res.headers['set-cookie'], message: JSON.parse(text).message }),
      );
    });
    req.setTimeout(CLIENT_PATIENCE_MS, () => req.destroy());
    req.on('error', () => resolve({ status: 0 }));
    void hangUpOn?.then(() => req.destroy());
    req.end(JSON.stringify(body));
  });
}

/** The password queue's counters and waiting gauge of one process, from its /metrics. */
async function queueOf(api: Api): Promise<PasswordWorkCounts & { waiting: number; hashing: number }> {
  const text = await (await fetch(api.metricsUrl)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
  const outcome = (name: string) => value(new RegExp(`^booking_password_checks_total\\{outcome="${name}"\\} (\\d+)`, 'm'));
  return {
    hashed: outcome('hashed'),
    imitated: outcome('imitated'),
    refused: outcome('refused'),
    abandoned: outcome('abandoned'),
    waiting: value(/^booking_password_queue_waiting (\d+)/m),
    hashing: value(/^booking_password_queue_hashing (\d+)/m),
  };
}

/** The counters of both processes added up. */
async function countsOf(apis: Api[]): Promise<PasswordWorkCounts> {
  const all = await Promise.all(apis.map(queueOf));
  const sum = (k: keyof PasswordWorkCounts) => all.reduce((n, c) => n + c[k], 0);
  return { hashed: sum('hashed'), imitated: sum('imitated'), refused: sum('refused'), abandoned: sum('abandoned') };
}

const delta = (after: PasswordWorkCounts, before: PasswordWorkCounts) => ({
  hashed: after.hashed - before.hashed,
  imitated: after.imitated - before.imitated,
  refused: after.refused - before.refused,
  abandoned: after.abandoned - before.abandoned,
});

/** A refused flood answer says why and when to come back. */
function expectBusy(answer: Answer) {
  expect(answer.message).toBe(PasswordWorkMessage.busy);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
}

describe('login floods on two API processes (PostgreSQL, real scrypt)', () => {
  const children: ChildProcess[] = [];
  let apis: Api[];
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const pgdb = await createThrowawayPostgres('login_flood');
    drop = pgdb.drop;
    const start = async (): Promise<Api> => {
      const metricsPort = await freePort();
      const server = await startApiProcess('login-flood', {
        DATABASE_URL: pgdb.url,
        ADMIN_EMAIL: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
        SEED_DEMO: 'false',
        METRICS_PORT: String(metricsPort),
        RECONCILE_INTERVAL_MS: '600000',
        MAIL_POLL_MS: '600000',
      });
      children.push(server.child);
      return { ...server, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
    };
    // One after the other: the first migrates and creates the owner's account.
    apis = [await start()];
    apis.push(await start());
    database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 });
    await createUser(database.db, COLLEAGUE);
    await createUser(database.db, HANGUP);
  });
  afterAll(async () => {
    await stopAll(children);
    await database?.close();
    await drop?.();
    removeProcessDirs();
  });

  it('200 wrong logins with made-up emails from 200 addresses cost no hashing; a colleague sent 2 s in gets in on both processes', async () => {
    const before = await countsOf(apis);
    const flood = Array.from({ length: 200 }, (_, i) =>
      login(apis[i % 2], { email: `nobody${i}@example.com`, password: 'wrong-password' }, `127.0.1.${i + 1}`),
    );
    await sleep(2_000);
    const colleague = await Promise.all(apis.map((api, i) => login(api, COLLEAGUE, `127.0.2.${i + 1}`)));
    expect(colleague.map((a) => a.status)).toEqual([200, 200]);

    const answers = await Promise.all(flood);
    // Every one answered, each as a wrong password, as a real account's would be.
    expect(answers.filter((a) => a.status === 401)).toHaveLength(200);
    for (const a of answers) expect(a.message).toBe(LoginMessage.invalid);
    expect(delta(await countsOf(apis), before)).toEqual({ hashed: 2, imitated: 200, refused: 0, abandoned: 0 });
  });

  it('200 wrong passwords on the owner’s account from 200 addresses: a colleague and the owner’s known device, 2 s in, get in', async () => {
    // The owner signed in on this browser before: it holds the known-device cookie (good on either process).
    const first = await login(apis[0], OWNER, '127.0.4.1');
    expect(first.status).toBe(200);
    const cookie = first.setCookie!.find((c) => c.startsWith('known_device_'))!.split(';')[0];
    expect(first.setCookie!.find((c) => c.startsWith('known_device_'))).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);

    const before = await countsOf(apis);
    const flood = Array.from({ length: 200 }, (_, i) =>
      login(apis[i % 2], { email: OWNER.email, password: `guess-${i}` }, `127.0.3.${i + 1}`),
    );
    await sleep(2_000);
    const inside = await Promise.all([
      ...apis.map((api, i) => login(api, COLLEAGUE, `127.0.5.${i + 1}`)),
      ...apis.map((api) => login(api, OWNER, '127.0.4.1', { cookie })),
    ]);
    expect(inside.map((a) => a.status)).toEqual([200, 200, 200, 200]);

    const answers = await Promise.all(flood);
    // Every guess answered: checked (401), or refused at once because the queue was full (429 with Retry-After).
    expect(answers.filter((a) => a.status === 0)).toHaveLength(0);
    const checked = answers.filter((a) => a.status === 401);
    const refused = answers.filter((a) => a.status === 429);
    expect(checked.length + refused.length).toBe(200);
    for (const a of refused) expectBusy(a);
    expect(refused.length).toBeGreaterThan(0);
    // The processes hashed for the answered guesses and the four logins inside, nothing more.
    const counted = delta(await countsOf(apis), before);
    expect(counted).toEqual({ hashed: checked.length + 4, imitated: 0, refused: refused.length, abandoned: 0 });
  });

  it('logins whose clients hang up while they wait are dropped before their hash', async () => {
    const [api] = apis;
    const before = await queueOf(api);
    let hangUp!: () => void;
    const hungUp = new Promise<void>((resolve) => (hangUp = resolve));
    const flood = Array.from({ length: 40 }, (_, i) =>
      login(api, { email: HANGUP.email, password: `guess-${i}` }, `127.0.6.${i + 1}`, { hangUpOn: hungUp }),
    );
    // Once every login has reached the queue (waiting, hashing or already answered), every client hangs up.
    await waitFor(async () => {
      const now = await queueOf(api);
      const d = delta(now, before);
      return now.waiting >= 2 && now.waiting + now.hashing + d.hashed + d.refused + d.abandoned >= 40;
    }, 30_000, 20);
    hangUp();
    const answers = await Promise.all(flood);
    // Those refused at once had their answer before hanging up; the others got none.
    const refused = answers.filter((a) => a.status === 429).length;
    expect(answers.filter((a) => a.status === 0).length).toBe(40 - refused);
    const settled = await waitFor(async () => {
      const now = await queueOf(api);
      const d = delta(now, before);
      return now.waiting === 0 && d.hashed + d.refused + d.abandoned === 40 ? d : undefined;
    }, 30_000, 100);
    expect(settled.refused).toBeGreaterThanOrEqual(refused);
    expect(settled.abandoned).toBeGreaterThanOrEqual(1);
    // Fewer hashes than clients left waiting: only those already running when the clients left were finished.
    expect(settled.hashed).toBeLessThan(40 - refused);
  });
});
