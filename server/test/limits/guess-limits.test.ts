import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { AccountMessage, CalendarFeedMessage, ErrorCode, ManageMessage } from 'shared-api/contract';
import { FEED_GUESS_LIMIT } from '../../src/calendar/feed';
import { MANAGE_GUESS_LIMIT } from '../../src/manage/service';
import { RESET_GUESS_LIMIT } from '../../src/auth/password-reset';
import type { ScryptCost } from '../../src/auth/passwords';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { createThrowawayPostgres, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { removeProcessDirs, startApiProcess, stopAll, type Server } from '../payments/server-process';
import { unknownToken, validTokens, type ValidTokens } from './token-fixtures';

// Guessing a token in a URL is braked per client network, but only unknown tokens count and only they are refused:
// a valid manage link, calendar feed or reset link works from an address that someone else used to guess.
jest.setTimeout(180_000);

const CHEAP: ScryptCost = { N: 1024, r: 8, p: 1 };

type Answer = { status: number; retryAfter?: string; body: { message?: string; error?: string } | null };
/** One request from a chosen client address (through app.inject, or over HTTP from a loopback address). */
type Send = (method: 'GET' | 'POST', path: string, body: object | undefined, address: string) => Promise<Answer>;

/** A token route: how to ask it with a token, what an unknown one answers, and its limit. */
type TokenRoute = {
  name: string;
  ask: (token: string) => { method: 'GET' | 'POST'; path: string; body?: object };
  valid: (t: ValidTokens) => string;
  unknownStatus: number;
  limit: number;
  windowSeconds: number;
  tooMany: string;
};

const ROUTES: TokenRoute[] = [
  {
    name: 'manage link',
    ask: (token) => ({ method: 'GET', path: `/api/booking/manage/${token}` }),
    valid: (t) => t.manageToken,
    unknownStatus: 404,
    limit: MANAGE_GUESS_LIMIT.limit,
    windowSeconds: MANAGE_GUESS_LIMIT.windowSeconds,
    tooMany: ManageMessage.tooManyTries,
  },
  {
    name: 'staff calendar feed',
    ask: (token) => ({ method: 'GET', path: `/calendar/${token}.ics` }),
    valid: (t) => t.feedToken,
    unknownStatus: 404,
    limit: FEED_GUESS_LIMIT.limit,
    windowSeconds: FEED_GUESS_LIMIT.windowSeconds,
    tooMany: CalendarFeedMessage.tooManyTries,
  },
  {
    name: 'password reset link',
    ask: (token) => ({ method: 'POST', path: '/auth/password-reset/confirm', body: { token, password: 'new-long-password-1' } }),
    valid: (t) => t.resetToken,
    unknownStatus: 400,
    limit: RESET_GUESS_LIMIT.limit,
    windowSeconds: RESET_GUESS_LIMIT.windowSeconds,
    tooMany: AccountMessage.resetTooManyTries,
  },
];

const send = (route: TokenRoute, token: string, via: Send, address: string) => {
  const { method, path, body } = route.ask(token);
  return via(method, path, body, address);
};

function expectRefused(answer: Answer, route: TokenRoute) {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ error: ErrorCode.RATE_LIMITED, message: route.tooMany });
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(route.windowSeconds);
}

describe('guessing limits on PGlite: only unknown tokens count, a valid one always works', () => {
  let ctx: TestContext;
  let tokens: ValidTokens;
  const inject: Send = async (method, url, payload, remoteAddress) => {
    const res = await ctx.app.inject({ method, url, payload, remoteAddress });
    const type = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined, body: type.includes('json') ? res.json() : null };
  };
  beforeAll(async () => {
    ctx = await startTestApp({ passwordCost: CHEAP });
    tokens = await validTokens(ctx.database, CHEAP);
  });
  afterAll(() => stopTestApp(ctx));

  it.each(ROUTES.map((r, i) => [r.name, r, `10.44.${i}.1`] as const))(
    '%s: past the limit unknown tokens get 429 with Retry-After; the valid one still works from that address',
    async (_name, route, shared) => {
      for (let i = 0; i < route.limit; i++) expect((await send(route, unknownToken(), inject, shared)).status).toBe(route.unknownStatus);
      expectRefused(await send(route, unknownToken(), inject, shared), route);
      // A parent (or colleague) behind the same address is not locked out by someone else's guessing.
      expect((await send(route, route.valid(tokens), inject, shared)).status).toBe(200);
      // Unknown tokens from the same address are still refused; another address is counted apart.
      expectRefused(await send(route, unknownToken(), inject, shared), route);
      expect((await send(route, unknownToken(), inject, shared.replace(/\.1$/, '.2'))).status).toBe(route.unknownStatus);
    },
  );
});

describe('guessing limits with two API processes on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  let apis: Server[];
  let tokens: ValidTokens;

  beforeAll(async () => {
    const pgdb = await createThrowawayPostgres('guess_replicas');
    drop = pgdb.drop;
    const start = () => startApiProcess('guess-replicas', { DATABASE_URL: pgdb.url, SEED_DEMO: 'false', RECONCILE_INTERVAL_MS: '600000', MAIL_POLL_MS: '600000' });
    // One after the other: the first migrates.
    apis = [await start()];
    apis.push(await start());
    children.push(...apis.map((a) => a.child));
    database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 });
    tokens = await validTokens(database, CHEAP);
  });
  afterAll(async () => {
    await stopAll(children);
    await database?.close();
    await drop?.();
    removeProcessDirs();
  });

  /** Over HTTP to process `i % 2`, from a loopback address (127.0.0.x act as other clients). */
  const over =
    (i: number): Send =>
    (method, path, body, localAddress) =>
      new Promise((resolve, reject) => {
        const { port } = new URL(apis[i % 2].base);
        const req = http.request({ host: '127.0.0.1', port, path, method, localAddress, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            const json = String(res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : null;
            resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: json });
          });
        });
        req.on('error', reject);
        req.end(body ? JSON.stringify(body) : undefined);
      });

  it.each(ROUTES.map((r, i) => [r.name, r, `127.0.3.${10 + i}`] as const))(
    '%s: limit + 10 unknown tokens at once through both processes give exactly the limit of answers and 10 × 429; the valid token works on both',
    async (_name, route, shared) => {
      const answers = await Promise.all(Array.from({ length: route.limit + 10 }, (_, i) => send(route, unknownToken(), over(i), shared)));
      expect(answers.filter((a) => a.status === route.unknownStatus)).toHaveLength(route.limit);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(10);
      for (const answer of refused) expectRefused(answer, route);
      // A reset link works once: used, it is as unknown as any other, so this address is refused it afterwards.
      const valid = [await send(route, route.valid(tokens), over(0), shared), await send(route, route.valid(tokens), over(1), shared)];
      expect(valid.map((a) => a.status)).toEqual(route.name === 'password reset link' ? [200, 429] : [200, 200]);
    },
  );
});
