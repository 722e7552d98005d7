jest.setTimeout(120_000);
import { addDays, todayInMY } from 'shared-api/contract';
import { seedDemoSlots, seedSeason } from '../../src/seed';
import { auth, staffToken, startTestApp, stopTestApp, type TestContext } from '../helpers';

// SEED_SEASON=1's past term: every Insights chart has something to show over it, and it is written once.
describe('the seeded season (SEED_SEASON=1)', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await startTestApp();
    token = await staffToken(ctx);
    await seedDemoSlots(ctx.database.db);
    expect(await seedSeason(ctx.database.db)).toBeGreaterThan(100);
  });
  afterAll(() => stopTestApp(ctx));

  const today = todayInMY();
  const get = async (chart: string, school?: string) => {
    const query = new URLSearchParams({ from: addDays(today, -63), to: addDays(today, 20), ...(school ? { school } : {}) });
    const res = await ctx.app.inject({ url: `/staff/insights/${chart}?${query}`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it('gives every chart non-empty figures', async () => {
    const fill = await get('fill-rate');
    expect(fill.weeks.filter((w: { seatsBooked: number }) => w.seatsBooked > 0).length).toBeGreaterThanOrEqual(8);
    expect((await get('popular-times')).cells.length).toBeGreaterThan(10);
    const waitlist = await get('waitlist');
    expect(waitlist.offers).toMatchObject({ made: expect.any(Number) });
    expect(waitlist.offers.made).toBeGreaterThan(0);
    expect(waitlist.offers.accepted).toBeGreaterThan(0);
    expect(waitlist.rebooking.rebooked).toBeGreaterThan(0);
    expect(waitlist.rebooking.medianMinutes).toBe(31);
    const checkout = await get('checkout');
    for (const key of ['paid', 'failed', 'cancelled', 'expired']) expect(checkout[key]).toBeGreaterThan(0);
    expect(checkout.byMethod.length).toBeGreaterThan(1);
    const attendance = await get('attendance');
    const total = (key: string) => attendance.schools.reduce((sum: number, s: Record<string, number>) => sum + s[key], 0);
    for (const key of ['cancelledByParent', 'cancelledByStaff', 'moved']) expect(total(key)).toBeGreaterThan(0);
    const money = await get('money');
    for (const school of money.schools) {
      expect(school.paidSen).toBeGreaterThan(0);
      expect(school.netSen).toBe(school.paidSen - school.refundedSen);
    }
  });

  it('a school filter narrows the figures', async () => {
    const all = await get('money');
    const one = await get('money', all.schools[0].school);
    expect(one.schools).toEqual([all.schools[0]]);
  });

  it('is written once', async () => {
    expect(await seedSeason(ctx.database.db)).toBe(0);
  });
});
