import { addDays, dateInMY } from 'shared-api/contract';
import { reserve, slotRow, startPaymentsApp, type PayCtx } from '../payments/support';
import { atMY, fixClock, joinMany, liveOffers, mailsTo, offerTokenOf, offeredTo, parent, slotAt, tomorrowAt, weekdayFrom, type Clock } from './support';

// Quiet hours (22:00–07:00 GMT+8: no offer is made, nothing is held for the list) and the cut-off (12 h before the
// visit), with a fixed clock.
jest.setTimeout(60_000);

describe('waitlist quiet hours and cut-off', () => {
  let ctx: PayCtx;
  let clock: Clock;
  beforeEach(async () => {
    ctx = await startPaymentsApp('pglite');
  });
  afterEach(async () => {
    await ctx?.close();
  });

  const rangeFrom = (now: Date) => ({ fromDate: dateInMY(now), toDate: addDays(dateInMY(now), 14) });
  const offerMails = async (i: number) => (await mailsTo(ctx, parent(i).email)).filter((m) => m.kind === 'waitlist_offer');

  it('a slot freed at 23:00 is anyone’s through the night (nothing held, nothing mailed); still free at 07:00, it is offered then', async () => {
    clock = fixClock(ctx, tomorrowAt('23:00'));
    const tonight = dateInMY(clock.now);
    const morning = addDays(tonight, 1);
    await joinMany(ctx, [1, 2], rangeFrom(clock.now));
    const slot = await slotAt(ctx, atMY(weekdayFrom(addDays(tonight, 2)), '09:00'));
    await ctx.app.waitlist.runPass();
    expect(await liveOffers(ctx)).toHaveLength(0);
    expect((await slotRow(ctx, slot.id)).holdTokenHash).toBeNull();
    expect(await offerMails(1)).toHaveLength(0);
    // Not claimed by the list in the night: a reserve would get it.
    expect(await ctx.app.waitlist.service.claims(ctx.database.db, slot.id, null)).toBe(false);

    clock.set(atMY(morning, '06:59'));
    await ctx.app.waitlist.runPass();
    expect(await liveOffers(ctx)).toHaveLength(0);

    clock.set(atMY(morning, '07:00'));
    await ctx.app.waitlist.runPass();
    const [offer] = await liveOffers(ctx);
    expect(offer.startsAt).toEqual(atMY(morning, '07:00'));
    expect(offer.expiresAt).toEqual(atMY(morning, '07:30'));
    expect((await slotRow(ctx, slot.id)).holdExpiresAt).toEqual(atMY(morning, '07:30'));
    expect(await offerMails(1)).toHaveLength(1);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/offer/${await offerTokenOf(ctx, 1)}`, remoteAddress: parent(1).address });
    expect(res.json().data).toMatchObject({ state: 'live', feeSen: 7500, slot: { id: slot.id }, visitor: { email: parent(1).email } });
    expect(await offeredTo(ctx)).toEqual({ [slot.id]: 1 });
  });

  it('a slot freed in the night and booked before 07:00 is simply booked: the list is offered nothing', async () => {
    clock = fixClock(ctx, tomorrowAt('23:00'));
    const morning = addDays(dateInMY(clock.now), 1);
    await joinMany(ctx, [1], rangeFrom(clock.now));
    const slot = await slotAt(ctx, atMY(weekdayFrom(addDays(morning, 1)), '09:00'));
    await ctx.app.waitlist.runPass();
    expect(typeof (await reserve(ctx, slot.id))).toBe('string');
    clock.set(atMY(morning, '07:00'));
    await ctx.app.waitlist.runPass();
    expect(await liveOffers(ctx)).toHaveLength(0);
  });

  it('at 07:00, a slot whose offer could not end by the cut-off skips the list and is anyone’s', async () => {
    clock = fixClock(ctx, tomorrowAt('23:00'));
    const morning = addDays(dateInMY(clock.now), 1);
    await joinMany(ctx, [1], rangeFrom(clock.now));
    // 07:00 + 30 min + 12 h = 19:30: a slot at 19:00 the next day cannot be offered; one at 19:30 can.
    const tooSoon = await slotAt(ctx, atMY(morning, '19:00'));
    const justInTime = await slotAt(ctx, atMY(morning, '19:30'));
    clock.set(atMY(morning, '07:00'));
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [justInTime.id]: 1 });
    expect((await slotRow(ctx, tooSoon.id)).holdTokenHash).toBeNull();
  });

  it('out of quiet hours: offered only when its 30 minutes end 12 hours before the visit; the rest open to everyone', async () => {
    clock = fixClock(ctx, tomorrowAt('10:00'));
    await joinMany(ctx, [1, 2], rangeFrom(clock.now));
    const cutoff = new Date(clock.now.getTime() + 12.5 * 3_600_000);
    const late = await slotAt(ctx, new Date(cutoff.getTime() - 60_000));
    const inTime = await slotAt(ctx, cutoff);
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [inTime.id]: 1 });
    // The late one is not claimed by the list: a reserve gets it (on the database's clock it is well ahead).
    expect(typeof (await reserve(ctx, late.id))).toBe('string');
  });
});
