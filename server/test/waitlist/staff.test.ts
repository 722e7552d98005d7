import { addDays, dateInMY } from 'shared-api/contract';
import { createUser } from '../../src/auth/accounts';
import { auditLog } from '../../src/audit/table';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { atMY, entries, fixClock, joinMany, offeredTo, parent, slotAt, tomorrowAt, weekdayFrom } from './support';

// Staff: the list in order, move up/down and remove with a reason (audited), the dashboard counts, /metrics.
jest.setTimeout(60_000);

describe('waitlist for staff', () => {
  let ctx: PayCtx;
  let headers: { authorization: string };
  let day: string;
  let range: { fromDate: string; toDate: string };

  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    const clock = fixClock(ctx, tomorrowAt('10:00'));
    const today = dateInMY(clock.now);
    day = weekdayFrom(addDays(today, 2));
    range = { fromDate: today, toDate: addDays(today, 14) };
    await createUser(ctx.database.db, { email: 'staff@example.com', password: 'correct-horse' });
    const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'staff@example.com', password: 'correct-horse' } });
    headers = { authorization: `Bearer ${login.json().data.token}` };
    await joinMany(ctx, [1, 2, 3, 4], range);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const list = async () => (await ctx.app.inject({ method: 'GET', url: '/staff/waitlist?school=Seri%20Ilmu%20Private%20Secondary', headers })).json().data.entries;
  const ids = async () => (await entries(ctx)).map((e) => e.id);

  it('needs a signed-in staff member', async () => {
    for (const [method, url] of [['GET', '/staff/waitlist'], ['GET', '/staff/waitlist/summary'], ['POST', '/staff/waitlist/1/move'], ['POST', '/staff/waitlist/1/remove']] as const)
      expect((await ctx.app.inject({ method, url, payload: method === 'POST' ? { direction: 'up', reason: 'x' } : undefined })).statusCode).toBe(401);
  });

  it('lists the entries in order with their place', async () => {
    const rows = await list();
    expect(rows.map((r: { email: string; position: number }) => [r.email, r.position])).toEqual([1, 2, 3, 4].map((i, n) => [parent(i).email, n + 1]));
    expect(rows[0]).toMatchObject({ state: 'waiting', partOfDay: 'any', fromDate: range.fromDate, offer: null, offers: [], childName: 'Child 1', childYear: 'Form 1' });
  });

  it('moves an entry up with a reason (audited); the next freed slot goes to it first', async () => {
    const [, , third] = await ids();
    const res = await ctx.app.inject({ method: 'POST', url: `/staff/waitlist/${third}/move`, headers, payload: { direction: 'up', reason: 'Sibling already enrolled' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.entries.map((r: { email: string }) => r.email)).toEqual([1, 3, 2, 4].map((i) => parent(i).email));
    const [audit] = (await ctx.database.db.select().from(auditLog)).filter((a) => a.action === 'waitlist_moved');
    expect(audit).toMatchObject({ actor: 'staff@example.com', target: String(third), detail: expect.objectContaining({ direction: 'up', reason: 'Sibling already enrolled' }) });
    // First stays first: moving it up is refused and changes nothing.
    const [first] = await ids();
    const refused = await ctx.app.inject({ method: 'POST', url: `/staff/waitlist/${first}/move`, headers, payload: { direction: 'up', reason: 'x' } });
    expect(refused.statusCode).toBe(409);
    // A reason is required.
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/waitlist/${third}/move`, headers, payload: { direction: 'down', reason: '' } })).statusCode).toBe(400);

    const a = await slotAt(ctx, atMY(day, '09:00'));
    const b = await slotAt(ctx, atMY(day, '09:30'));
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [a.id]: 1, [b.id]: 3 });
    const rows = await list();
    expect(rows[1]).toMatchObject({ state: 'offered', offer: { slot: { id: b.id, startTime: '09:30' } } });
  });

  it('removes an entry with a reason (audited): its offer ends and the slot passes on', async () => {
    const third = (await entries(ctx)).find((e) => e.email === parent(3).email)!;
    const res = await ctx.app.inject({ method: 'POST', url: `/staff/waitlist/${third.id}/remove`, headers, payload: { reason: 'Asked by phone' } });
    expect(res.statusCode).toBe(200);
    const removed = res.json().data.entries.find((r: { id: number }) => r.id === third.id);
    expect(removed).toMatchObject({ state: 'removed', position: null, offer: null, offers: [expect.objectContaining({ outcome: 'cancelled' })] });
    expect((await ctx.database.db.select().from(auditLog)).filter((a) => a.action === 'waitlist_removed')).toHaveLength(1);
    await ctx.app.waitlist.runPass();
    expect(Object.values(await offeredTo(ctx)).sort()).toEqual([1, 2]);
    const summary = await ctx.app.inject({ method: 'GET', url: '/staff/waitlist/summary', headers });
    expect(summary.json().data).toEqual({ waiting: 1, offersLive: 2, filledThisWeek: 0 });
  });

  it('/metrics counts entries waiting and offers by outcome', async () => {
    const text = await ctx.app.metrics.metrics();
    expect(text).toMatch(/^waitlist_entries_waiting 1$/m);
    expect(text).toMatch(/^waitlist_offers_total\{outcome="made"\} 3$/m);
    expect(text).toMatch(/^waitlist_offer_mail_seconds_count 3$/m);
  });
});
