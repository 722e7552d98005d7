jest.setTimeout(60_000);
import { startTestApp, stopTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await startTestApp();
});
afterEach(async () => {
  await stopTestApp(ctx);
});

const ready = () => ctx.app.inject({ method: 'GET', url: '/health/ready' });

it('is ready once migrations are done and the database answers', async () => {
  const res = await ready();
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.json()).toEqual({ success: true, data: { ready: true }, message: 'Ready' });
});

it.each([
  ['migrating', 'migrating'],
  ['stopping', 'stopping'],
] as const)('answers 503 while %s, and /health still answers 200', async (flag, reason) => {
  ctx.app.readiness[flag] = true;
  const res = await ready();
  expect(res.statusCode).toBe(503);
  expect(res.json()).toMatchObject({ success: false, data: { ready: false, reason } });
  expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
});

it('answers 503 when the database is unreachable', async () => {
  await ctx.database.close();
  const res = await ready();
  expect(res.statusCode).toBe(503);
  expect(res.json()).toMatchObject({ success: false, data: { ready: false, reason: 'database_unreachable' } });
});
