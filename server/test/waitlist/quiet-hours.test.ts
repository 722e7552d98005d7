import { addDays, dateInMY } from 'shared-api/contract';
import { reserve, slotRow, startPaymentsApp, type PayCtx } from '../payments/support';
import { atMY, entryTokenOf, fixClock, joinMany, liveOffers, mailsTo, offerTokenOf, offeredTo, parent, slotAt, tomorrowAt, weekdayFrom, type Clock } from './support';

// Quiet hours (22:00–07:00 GMT+8) and the cut-off (12 h before the visit), with a fixed clock.
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

  it('a slot freed at 23:00 is held for the list and offered at 07:00: its mail waits until then', async () => {
    clock = fixClock(ctx, tomorrowAt('23:00'));
    const tonight = dateInMY(clock.now);
    const morning = addDays(tonight, 1);
    await joinMany(ctx, [1, 2], rangeFrom(clock.now));
    const slot = await slotAt(ctx, atMY(weekdayFrom(addDays(tonight, 2)), '09:00'));
    await ctx.app.waitlist.runPass();
    const [offer] = await liveOffers(ctx);
    expect(offer.startsAt).toEqual(atMY(morning, '07:00'));
    expect(offer.expiresAt).toEqual(atMY(morning, '07:30'));
    expect((await slotRow(ctx, slot.id)).holdExpiresAt).toEqual(atMY(morning, '07:30'));
    expect(await offerMails(1)).toHaveLength(0);
    // The entry page shows the offer waiting for 07:00.
    const view = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/entry/${await entryTokenOf(ctx, 1)}`, remoteAddress: parent(1).address });
    expect(view.json().data.offer).toMatchObject({ startsAt: atMY(morning, '07:00').toISOString(), slot: { id: slot.id, startTime: '09:00' } });

    clock.set(atMY(morning, '06:59'));
    await ctx.app.waitlist.runPass();
    expect(await offerMails(1)).toHaveLength(0);

    clock.set(atMY(morning, '07:00'));
    await ctx.app.waitlist.runPass();
    expect(await offerMails(1)).toHaveLength(1);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/offer/${await offerTokenOf(ctx, 1)}`, remoteAddress: parent(1).address });
    expect(res.json().data).toMatchObject({ state: 'live', feeSen: 7500, slot: { id: slot.id }, visitor: { email: parent(1).email } });
    expect(await offeredTo(ctx)).toEqual({ [slot.id]: 1 });
  });

  it('in quiet hours, a slot whose offer could not end by the cut-off skips the list and is anyone’s', async () => {
    clock = fixClock(ctx, tomorrowAt('23:00'));
    const morning = addDays(dateInMY(clock.now), 1);
    await joinMany(ctx, [1], rangeFrom(clock.now));
    // 07:00 + 30 min + 12 h = 19:30: a slot at 19:00 the next day cannot be offered; one at 19:30 can.
    const tooSoon = await slotAt(ctx, atMY(morning, '19:00'));
    const justInTime = await slotAt(ctx, atMY(morning, '19:30'));
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
