import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { auth, STAFF, adminToken, stopTestApp, type TestContext } from '../helpers';
import { discoverRoutes, startHardeningApp } from './routes';

// The OpenAPI document (/docs/json) is what other teams build clients from: it passes `redocly lint` (the recommended
// rules) with no error, every route the router has is in it with an operationId, its security and each status it
// answers by number, and what it says holds when the routes are called.
jest.setTimeout(120_000);

type Operation = { operationId?: string; security?: Record<string, string[]>[]; responses: Record<string, unknown> };
type Document = { servers?: { url: string; description?: string }[]; paths: Record<string, Record<string, Operation>> };

let ctx: TestContext;
let doc: Document;
let token: string;

beforeAll(async () => {
  ctx = await startHardeningApp('pglite');
  token = await adminToken(ctx);
  const res = await ctx.app.inject('/docs/json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => stopTestApp(ctx));

/** The operation of a route as the router has it (`/slot/:id` is `/slot/{id}` on /docs). */
const operationOf = (method: string, routePath: string): Operation | undefined => doc.paths[routePath.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
/** Answers every route may give that no route lists one by one: the framework's 408, 413 and 415, and 5xx. */
const coveredByDefault = (status: number) => [408, 413, 415].includes(status) || status >= 500;

it('redocly lint (recommended rules) finds no error, and no operation without an operationId or a 4xx answer', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  // Exit code 1 when there are errors: read the report either way.
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
  expect(report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  expect(report.totals.errors).toBe(0);
  expect(report.problems.filter((p) => ['operation-operationId', 'operation-4xx-response', 'security-defined'].includes(p.ruleId))).toEqual([]);
  // What remains are warnings about the spec's own paths (/slot/delete/{slotId} beside /slot/{id}/reserve) and the test's localhost.
  expect(new Set(report.problems.map((p) => p.ruleId))).toEqual(new Set(['info-license', 'no-server-example.com', 'no-ambiguous-paths']));
});

it('names its server, and every route has an operation with a unique operationId, its security and its statuses by number', () => {
  expect(doc.servers).toEqual([{ url: ctx.config.payments.apiPublicUrl, description: expect.stringContaining('API_PUBLIC_URL') }]);
  const routes = discoverRoutes(ctx.app).filter((r) => r.path !== '/docs/json');
  expect(routes.length).toBeGreaterThan(40);
  const ids = new Set<string>();
  const wrong: string[] = [];
  for (const route of routes) {
    const op = operationOf(route.method, route.path);
    const name = `${route.method} ${route.path}`;
    if (!op) {
      wrong.push(`${name}: not on /docs`);
      continue;
    }
    if (!op.operationId || ids.has(op.operationId)) wrong.push(`${name}: operationId ${op.operationId}`);
    ids.add(op.operationId ?? '');
    if (!op.security) wrong.push(`${name}: no security`);
    const statuses = Object.keys(op.responses);
    if (statuses.some((s) => /X/i.test(s))) wrong.push(`${name}: a range of statuses (${statuses.join(', ')})`);
    if (!statuses.includes('400') || !statuses.includes('default')) wrong.push(`${name}: without 400 or default`);
  }
  expect(wrong).toEqual([]);
  // The answers the issue found missing.
  expect(Object.keys(operationOf('GET', '/calendar/:token.ics')!.responses)).toEqual(expect.arrayContaining(['200', '404', '429']));
  expect(Object.keys(operationOf('GET', '/sandbox-gateway/checkout/:id')!.responses)).toEqual(expect.arrayContaining(['200', '404']));
  expect(Object.keys(operationOf('POST', '/auth/login')!.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
  for (const [method, route] of [['POST', '/slot/:id/reserve'], ['POST', '/api/payment/initiate'], ['POST', '/auth/password-reset/request']])
    expect([route, Object.keys(operationOf(method, route)!.responses)]).toEqual([route, expect.arrayContaining(['429'])]);
});

it('what it says holds: each status a route answers is listed, staff routes refuse a missing token, public ones ignore one', async () => {
  const routes = discoverRoutes(ctx.app).filter((r) => r.path !== '/docs/json');
  const undocumented: string[] = [];
  const securityWrong: string[] = [];
  // A new login for the walk: it logs its token out on the way.
  const valid = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
  expect(valid).not.toBe(token);
  for (const route of routes) {
    const op = operationOf(route.method, route.path)!;
    const name = `${route.method} ${route.path}`;
    const answer = async (url: string, headers: Record<string, string>) => {
      const body = route.method === 'POST' || route.method === 'PUT' ? { payload: {} } : {};
      const res = await ctx.app.inject({ method: route.method as 'GET', url, headers, ...body });
      if (!(String(res.statusCode) in op.responses) && !coveredByDefault(res.statusCode)) undocumented.push(`${name} ${url} -> ${res.statusCode}`);
      return res.statusCode;
    };
    const statusesBy: Record<string, number[]> = { none: [], forged: [], staff: [] };
    for (const value of ['1', 'no-such-thing', 'x'.repeat(300)]) {
      const url = route.path.replace(/:(\w+)/g, value);
      statusesBy.none.push(await answer(url, {}));
      statusesBy.forged.push(await answer(url, auth('forged-token')));
      statusesBy.staff.push(await answer(url, auth(route.path === '/auth/logout' || route.path === '/auth/logout-all' ? 'forged-token' : valid)));
    }
    const security = JSON.stringify(op.security);
    // (An address segment over the router's length limit is refused before any route runs: 400, token or not.)
    if (security === JSON.stringify([{ bearerAuth: [] }]) && !statusesBy.none.slice(0, 2).every((s) => s === 401))
      securityWrong.push(`${name}: bearer, but ${statusesBy.none}`);
    if (security === '[]' && JSON.stringify(statusesBy.forged) !== JSON.stringify(statusesBy.none)) securityWrong.push(`${name}: public, but a token changes ${statusesBy.none} to ${statusesBy.forged}`);
  }
  expect(undocumented).toEqual([]);
  expect(securityWrong).toEqual([]);
});
