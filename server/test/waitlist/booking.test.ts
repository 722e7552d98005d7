import { addDays, dateInMY } from 'shared-api/contract';
import {
  initiate,
  initiateBody,
  markSandboxPaid,
  paymentRow,
  postSandboxCallback,
  slotRow,
  startPaymentsApp,
  type PayCtx,
} from '../payments/support';
import { eq, sql } from 'drizzle-orm';
import { slots } from '../../src/slots/tables';
import { atMY, entries, fixClock, joinMany, liveOffers, offerTokenOf, offeredTo, offers, parent, slotAt, tomorrowAt, weekdayFrom, type Clock } from './support';

// An offer paid (booked as any booking), a late payment after the offer expired, and a normal booking ending an entry.
jest.setTimeout(60_000);

describe('waitlist offers and payments', () => {
  let ctx: PayCtx;
  let clock: Clock;
  let day: string;
  let range: { fromDate: string; toDate: string };

  beforeEach(async () => {
    ctx = await startPaymentsApp('pglite');
    clock = fixClock(ctx, tomorrowAt('10:00'));
    const today = dateInMY(clock.now);
    day = weekdayFrom(addDays(today, 2));
    range = { fromDate: today, toDate: addDays(today, 14) };
  });
  afterEach(async () => {
    await ctx?.close();
  });

  /** Parent `i` opens their offer, accepts it and starts paying with its hold token, as the booking dialog does. */
  async function acceptAndPay(i: number, slot: { id: number; startAt: Date }) {
    const token = await offerTokenOf(ctx, i);
    const view = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/offer/${token}`, remoteAddress: parent(i).address });
    expect(view.json().data).toMatchObject({ state: 'live', school: 'Seri Ilmu Private Secondary', feeSen: 7500, visitor: { name: parent(i).name } });
    const accepted = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/offer/${token}/accept`, remoteAddress: parent(i).address });
    expect(accepted.statusCode).toBe(200);
    const { token: holdToken, slotId } = accepted.json().data;
    expect(slotId).toBe(slot.id);
    const res = await initiate(ctx, initiateBody(slot, { visitorEmail: parent(i).email, holdToken }));
    expect(res.statusCode).toBe(200);
    const session = res.json().data.paymentSession;
    const payment = await paymentRow(ctx, session.id);
    return { session, payment, token };
  }

  const pay = async (p: { id: string; reference: string; gatewaySessionId: string | null }) => {
    await markSandboxPaid(ctx, p.gatewaySessionId!);
    const res = await postSandboxCallback(ctx, { session_id: p.gatewaySessionId!, reference: p.reference, status: 'paid', amount: 7500 });
    expect(res.status).toBe(200);
    return paymentRow(ctx, p.id);
  };

  it('the offered parent pays with the offer’s hold: booked as any booking, the entry leaves the list, the offer ends booked', async () => {
    await joinMany(ctx, [1, 2], range);
    const slot = await slotAt(ctx, atMY(day, '09:00'));
    await ctx.app.waitlist.runPass();
    // Anyone else starting a payment for the held slot is refused.
    const other = await initiate(ctx, initiateBody(slot, { visitorEmail: 'someone@example.com' }));
    expect(other.statusCode).toBe(409);
    const { payment, token } = await acceptAndPay(1, slot);
    expect((await pay(payment)).status).toBe('completed');
    expect((await slotRow(ctx, slot.id)).status).toBe('booked');
    await ctx.app.waitlist.runPass();
    expect((await offers(ctx)).map((o) => o.outcome)).toEqual(['booked']);
    expect((await entries(ctx)).map((e) => e.state)).toEqual(['booked', 'waiting']);
    const view = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/offer/${token}`, remoteAddress: parent(1).address });
    expect(view.json().data.state).toBe('booked');
    const summary = await ctx.app.waitlist.service.summary();
    expect(summary).toEqual({ waiting: 1, offersLive: 0, filledThisWeek: expect.any(Number) });
  });

  it('late payment after expiry, the slot re-offered meanwhile: refunded, never sold twice; the next parent keeps the offer', async () => {
    await joinMany(ctx, [1, 2], range);
    const slot = await slotAt(ctx, atMY(day, '09:00'));
    await ctx.app.waitlist.runPass();
    const { payment } = await acceptAndPay(1, slot);
    clock.add(31);
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [slot.id]: 2 });
    const late = await pay(payment);
    expect(['refund_pending', 'refunded']).toContain(late.status);
    expect(late.refundReason).toBeTruthy();
    const row = await slotRow(ctx, slot.id);
    expect(row.status).toBe('available');
    expect(await liveOffers(ctx)).toHaveLength(1);
    // Parent 1 let their offer run out: back of the line.
    expect((await entries(ctx)).map((e) => [e.email, e.state])).toEqual([
      [parent(2).email, 'offered'],
      [parent(1).email, 'waiting'],
    ]);
  });

  it('late payment after expiry with nobody else in line: booked for them (still free), and their entry ends booked', async () => {
    await joinMany(ctx, [1], range);
    const slot = await slotAt(ctx, atMY(day, '09:00'));
    await ctx.app.waitlist.runPass();
    const { payment } = await acceptAndPay(1, slot);
    clock.add(31);
    await ctx.app.waitlist.runPass();
    expect(await liveOffers(ctx)).toHaveLength(0);
    expect((await pay(payment)).status).toBe('completed');
    await ctx.app.waitlist.runPass();
    expect((await entries(ctx)).map((e) => e.state)).toEqual(['booked']);
  });

  it('a parent on the list who books a slot normally (same email) leaves the list', async () => {
    await joinMany(ctx, [1, 2], { ...range, toDate: addDays(range.fromDate, 3) });
    // A slot outside their days is anyone's: parent 1 books it normally.
    const slot = await slotAt(ctx, atMY(weekdayFrom(addDays(range.fromDate, 10)), '09:00'));
    const res = await initiate(ctx, initiateBody(slot, { visitorEmail: parent(1).email }));
    expect(res.statusCode).toBe(200);
    await pay(await paymentRow(ctx, res.json().data.paymentSession.id));
    await ctx.app.waitlist.runPass();
    expect((await entries(ctx)).map((e) => e.state)).toEqual(['booked', 'waiting']);
  });

  it('an offer is a hold like any: charged to the parent, it lasts only the hold time they have left on that slot', async () => {
    // The database's clock (the hold time counts on it), at a time of day with no quiet hours for the list.
    clock.set(new Date());
    ctx.app.waitlist.rules.settings = { ...ctx.app.waitlist.rules.settings, quietHours: { from: '00:00', to: '00:00' } };
    const slot = await slotAt(ctx, atMY(day, '09:00'));
    // Parent 1 starts paying for the slot themselves (a 15-minute hold), then gives up after 20 minutes of the clock.
    const res = await initiate(ctx, initiateBody(slot, { visitorEmail: parent(1).email }));
    expect(res.statusCode).toBe(200);
    await ctx.database.db.execute(sql`UPDATE hold_grants SET started_at = started_at - interval '20 minutes', ends_at = ends_at - interval '20 minutes'`);
    await ctx.database.db.update(slots).set({ holdExpiresAt: new Date(Date.now() - 5 * 60_000) }).where(eq(slots.id, slot.id));
    // They join the list; the slot is freed again (their lapsed hold cleared) and offered to them: for the 15 minutes left.
    await joinMany(ctx, [1], range);
    await ctx.database.db.execute(sql`UPDATE slots SET freed_seq = nextval('slot_freed_seq') WHERE id = ${slot.id}`);
    await ctx.app.waitlist.runPass();
    const [offer] = await liveOffers(ctx);
    expect(offer.slotId).toBe(slot.id);
    const minutes = (offer.expiresAt.getTime() - clock.now.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(14.5);
    expect(minutes).toBeLessThan(15.5);
    expect((await slotRow(ctx, slot.id)).holdExpiresAt).toEqual(offer.expiresAt);
    // Charged to the network that made the entry: the slot's holder is theirs.
    const [entry] = await entries(ctx);
    expect((await slotRow(ctx, slot.id)).holdClient).toBe(entry.client);
  });

});
