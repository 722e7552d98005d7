import { sql } from 'drizzle-orm';
import { addDays, dateInMY } from 'shared-api/contract';
import { createUser } from '../../src/auth/accounts';
import { bookPaid, cancel, manageGet } from '../bookings/support';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { entries, fixClock, joinMany, mailsTo, offeredTo, parent, tomorrowAt, weekdayFrom, type Clock } from './support';

// What frees a slot asks for a pass on the `waitlist` queue (lower layers never import the waitlist): a parent's cancel,
// new slots by staff; and entries whose days have all passed end by themselves.
jest.setTimeout(60_000);

describe('waitlist passes asked for by the changes that free slots', () => {
  let ctx: PayCtx;
  let clock: Clock;
  let today: string;

  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    clock = fixClock(ctx, tomorrowAt('10:00'));
    today = dateInMY(clock.now);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("a parent's cancel through their manage link queues a pass: the freed slot is offered to the first in line", async () => {
    const booked = await bookPaid(ctx, 72, 'booker@example.com');
    await joinMany(ctx, [1], { fromDate: today, toDate: addDays(today, 14) });
    await ctx.app.jobs.runDue('waitlist');
    const quote = (await manageGet(ctx, booked.token)).json().data.cancelQuote;
    expect((await cancel(ctx, booked.token, quote.amountSen)).statusCode).toBe(200);
    // The pass runs as the queue's job (what the worker would run), not called by the test.
    expect(await ctx.app.jobs.runDue('waitlist')).toBeGreaterThan(0);
    expect(await offeredTo(ctx)).toEqual({ [booked.slotId]: 1 });
  });

  it('a slot staff create is offered to the list first', async () => {
    await joinMany(ctx, [2], { fromDate: today, toDate: addDays(today, 14) });
    await createUser(ctx.database.db, { email: 'staff@example.com', password: 'correct-horse' });
    const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'staff@example.com', password: 'correct-horse' } });
    // Days after the first test's booking (72 hours ahead, at this time of day): the new slot never overlaps it.
    const day = weekdayFrom(addDays(dateInMY(new Date()), 5));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/slot/add',
      headers: { authorization: `Bearer ${login.json().data.token}` },
      payload: { date: day, startTime: '14:00', endTime: '14:30' },
    });
    expect(res.statusCode).toBe(201);
    await ctx.app.jobs.runDue('waitlist');
    expect((await offeredTo(ctx))[res.json().data.slot.id]).toBe(2);
  });

  it('an entry whose days have all passed ends by itself (expired)', async () => {
    const weekday = weekdayFrom(today);
    await joinMany(ctx, [3], { fromDate: weekday, toDate: weekday });
    clock.add(4 * 24 * 60);
    await ctx.app.waitlist.runPass();
    expect((await entries(ctx)).find((e) => e.email === 'parent3@example.com')).toMatchObject({ state: 'expired', endedAt: clock.now });
  });

  it('an entry ends after the term the school sets (14 days), and its parent is told by mail in their language', async () => {
    const from = dateInMY(clock.now);
    await joinMany(ctx, [4], { fromDate: from, toDate: addDays(from, 30) });
    // Joined 12 days ago (on the database's clock, as bookings are): still waiting; 15 days ago: its term is over.
    const joinedDaysAgo = (days: number) => ctx.database.db.execute(sql`UPDATE waitlist_entries SET joined_at = now() - make_interval(days => ${days})`);
    await joinedDaysAgo(12);
    clock.set(new Date());
    await ctx.app.waitlist.runPass();
    expect((await entries(ctx)).find((e) => e.email === parent(4).email)!.state).toBe('waiting');
    await joinedDaysAgo(15);
    await ctx.app.waitlist.runPass();
    expect((await entries(ctx)).find((e) => e.email === parent(4).email)).toMatchObject({ state: 'expired', endedAt: clock.now });
    const [ended] = (await mailsTo(ctx, parent(4).email)).filter((m) => m.kind === 'waitlist_entry_ended');
    expect(ended.textBody).toContain('14');
    expect(ended.textBody).toContain('http://site.test/');
    // Once: the next pass mails nothing more.
    await ctx.app.waitlist.runPass();
    expect((await mailsTo(ctx, parent(4).email)).filter((m) => m.kind === 'waitlist_entry_ended')).toHaveLength(1);
  });
});
