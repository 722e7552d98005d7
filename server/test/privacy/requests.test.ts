import { eq } from 'drizzle-orm';
import { inMY } from 'shared-api/contract';
import { auditLog } from '../../src/audit/table';
import { createUser } from '../../src/auth/accounts';
import { auth, STAFF, startTestApp, stopTestApp, type TestContext, enrolSecondFactor } from '../helpers';

// An app on a fresh database (the first test file to need one makes the cached dump: migrations and pg-boss).
jest.setTimeout(60_000);

// Issue 28 (PDPA): the request log. An access or correction request is due 21 days after it arrived, 35 once an
// extension notice is recorded; answered ones leave the dashboard's "coming due"; each change is audited.
describe('the request log', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await startTestApp();
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
  });
  afterAll(() => stopTestApp(ctx));

  // Days relative to today in GMT+8, so the test holds on any date.
  const daysAgo = (days: number) => inMY(new Date()).subtract(days, 'day').format('YYYY-MM-DD');
  const log = (payload: object) => ctx.app.inject({ method: 'POST', url: '/staff/privacy/requests', headers: auth(token), payload });

  it('logs a request with its due date, extends it once to 35 days, answers it once, and audits each step', async () => {
    const logged = await log({ kind: 'access', email: 'Aisyah@Example.com', receivedOn: daysAgo(10) });
    expect(logged.statusCode).toBe(200);
    const request = logged.json().data.request;
    expect(request).toMatchObject({ kind: 'access', personEmail: 'aisyah@example.com', receivedOn: daysAgo(10), dueOn: daysAgo(10 - 21), handledBy: STAFF.email, answeredAt: null });

    const extended = await ctx.app.inject({ method: 'POST', url: `/staff/privacy/requests/${request.id}/extend`, headers: auth(token) });
    expect(extended.json().data.request.dueOn).toBe(daysAgo(10 - 35));
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/privacy/requests/${request.id}/extend`, headers: auth(token) })).statusCode).toBe(409);

    const answered = await ctx.app.inject({ method: 'POST', url: `/staff/privacy/requests/${request.id}/answer`, headers: auth(token) });
    expect(answered.json().data.request.answeredAt).not.toBeNull();
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/privacy/requests/${request.id}/answer`, headers: auth(token) })).statusCode).toBe(409);
    expect((await ctx.app.inject({ method: 'POST', url: '/staff/privacy/requests/99999/answer', headers: auth(token) })).statusCode).toBe(404);

    const trail = await ctx.database.db.select().from(auditLog).where(eq(auditLog.target, String(request.id)));
    expect(trail.map((a) => a.action)).toEqual(['privacy_request_logged', 'privacy_request_extended', 'privacy_request_answered']);
  });

  it('shows open requests coming due, soonest first, and leaves out answered and later ones', async () => {
    const overdue = (await log({ kind: 'correction', phone: '+60 12-345 6789', receivedOn: daysAgo(25) })).json().data.request;
    const soon = (await log({ kind: 'access', email: 'soon@example.com', receivedOn: daysAgo(18) })).json().data.request;
    const later = (await log({ kind: 'access', email: 'later@example.com', receivedOn: daysAgo(1) })).json().data.request;
    const answered = (await log({ kind: 'access', email: 'done@example.com', receivedOn: daysAgo(19) })).json().data.request;
    await ctx.app.inject({ method: 'POST', url: `/staff/privacy/requests/${answered.id}/answer`, headers: auth(token) });

    const due = (await ctx.app.inject({ url: '/staff/privacy/requests?dueWithinDays=7', headers: auth(token) })).json().data.requests;
    expect(due.map((r: { id: number }) => r.id)).toEqual([overdue.id, soon.id]);
    expect(due[0].personPhone).toBe('0123456789');
    const all = (await ctx.app.inject({ url: '/staff/privacy/requests', headers: auth(token) })).json().data.requests;
    expect(all.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([overdue.id, soon.id, later.id, answered.id]));
  });

  it('refuses a request without a person or a day, and anyone not signed in', async () => {
    expect((await log({ kind: 'access', receivedOn: daysAgo(1) })).statusCode).toBe(400);
    expect((await log({ kind: 'access', email: 'a@example.com', receivedOn: 'yesterday' })).statusCode).toBe(400);
    expect((await ctx.app.inject({ url: '/staff/privacy/requests' })).statusCode).toBe(401);
  });
});
