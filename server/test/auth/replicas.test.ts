import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LoginMessage } from '../../src/auth/routes';
import { createThrowawayPostgres } from '../helpers';

// Two real API processes (server/src/main.ts) on one PostgreSQL: login limits hold as if there were one.
jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../..');
const OWNER = { email: 'owner@example.com', password: 'owner-password-1' };

type Api = { child: ChildProcess; port: number };

async function startApi(env: Record<string, string>): Promise<Api> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  for (const until = Date.now() + 90_000; ; ) {
    const listening = /API listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
    if (listening) return { child, port: Number(listening[1]) };
    if (child.exitCode !== null) throw new Error(`API exited early:\n${out}`);
    if (Date.now() > until) throw new Error(`API did not start:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** POST /auth/login from a chosen loopback address (127.0.0.x), as different clients would. */
function login(api: Api, body: object, localAddress: string): Promise<{ status: number; retryAfter?: string; message: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: api.port, path: '/auth/login', method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'] as string | undefined, message: JSON.parse(text).message }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('login limits with two API processes on one PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  const apis: Api[] = [];
  const dataDirs: string[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres('login_replicas');
    drop = database.drop;
    const env = (dataDir: string) => ({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOGIN_RATE_LIMIT: '12',
      SEED_DEMO: 'false',
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      RECONCILE_INTERVAL_MS: '600000',
      MAIL_POLL_MS: '600000',
    });
    for (let i = 0; i < 2; i++) dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'login-replica-')));
    apis.push(...(await Promise.all(dataDirs.map((dir) => startApi(env(dir))))));
  });
  afterAll(async () => {
    for (const { child } of apis) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await drop?.();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts the wrong passwords of one address on one account across both processes (10, then 429 on either)', async () => {
    const [a, b] = apis;
    for (let i = 0; i < 10; i++) {
      expect((await login(apis[i % 2], { email: OWNER.email, password: `guess-${i}` }, '127.0.0.2')).status).toBe(401);
    }
    for (const api of [a, b]) {
      const refused = await login(api, OWNER, '127.0.0.2');
      expect(refused).toMatchObject({ status: 429, message: LoginMessage.tooManyFailures });
      expect(Number(refused.retryAfter)).toBeGreaterThan(60);
    }
    // The owner, from their own address, is not locked out by those failures.
    expect((await login(b, OWNER, '127.0.0.3')).status).toBe(200);
    expect((await login(a, OWNER, '127.0.0.3')).status).toBe(200);
  });

  it('counts LOGIN_RATE_LIMIT attempts of one address across both processes (12, then 429 on either)', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await login(apis[i % 2], { email: `nobody${i}@example.com`, password: 'x' }, '127.0.0.4')).status).toBe(401);
    }
    for (const api of apis) {
      const refused = await login(api, { email: 'nobody@example.com', password: 'x' }, '127.0.0.4');
      expect(refused).toMatchObject({ status: 429, message: LoginMessage.tooMany });
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    }
  });
});
