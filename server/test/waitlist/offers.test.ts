import { addDays, dateInMY } from 'shared-api/contract';
import { publicIds, reserve, slotRow, startPaymentsApp, type PayCtx } from '../payments/support';
import {
  atMY,
  entries,
  fixClock,
  join,
  joinMany,
  liveOffers,
  mailsTo,
  offerTokenOf,
  offeredTo,
  offers,
  parent,
  slotAt,
  tomorrowAt,
  weekdayFrom,
  type Clock,
} from './support';

// The offer pass on PGlite with a fixed clock (tomorrow 10:00 GMT+8): who gets a freed slot, and when it passes on.
jest.setTimeout(60_000);

describe('waitlist offers: order, fairness, passing on', () => {
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

  it('10 entries, 3 slots freed at once: the first 3 in line get one offer each, the slots are held and mailed', async () => {
    await joinMany(ctx, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], range);
    const freed = [await slotAt(ctx, atMY(day, '09:00')), await slotAt(ctx, atMY(day, '09:30')), await slotAt(ctx, atMY(day, '10:00'))];
    const outcome = await ctx.app.waitlist.runPass();
    expect(outcome.offered).toHaveLength(3);
    expect(await offeredTo(ctx)).toEqual({ [freed[0].id]: 1, [freed[1].id]: 2, [freed[2].id]: 3 });
    // Each offered entry holds exactly one offer; the others wait, in order.
    const states = (await entries(ctx)).map((e) => e.state);
    expect(states).toEqual(['offered', 'offered', 'offered', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting']);
    // Held for the offer: off the public timetable, and nobody else can reserve it.
    const shown = await publicIds(ctx);
    for (const s of freed) expect(shown).not.toContain(s.id);
    const refused = await ctx.app.inject({ method: 'POST', url: `/slot/${freed[0].id}/reserve`, payload: {}, remoteAddress: '10.1.2.3' });
    expect(refused.statusCode).toBe(409);
    expect((await slotRow(ctx, freed[0].id)).holdExpiresAt).toEqual(new Date(clock.now.getTime() + 30 * 60_000));
    // The offer mails: school, date and time in GMT+8, fee, until when, the link and the decline link.
    const [mail] = (await mailsTo(ctx, parent(1).email)).filter((m) => m.kind === 'waitlist_offer');
    expect(mail.subject).toContain('Seri Ilmu Private Secondary');
    expect(mail.textBody).toContain('9:00 AM');
    expect(mail.textBody).toContain('Fee: RM 75');
    expect(mail.textBody).toContain('10:30 AM (GMT+8)');
    expect(mail.textBody).toMatch(/http:\/\/site\.test\/waitlist\/offer\/[A-Za-z0-9_-]{43}\?decline=1/);
    for (const i of [4, 5, 10]) expect((await mailsTo(ctx, parent(i).email)).filter((m) => m.kind === 'waitlist_offer')).toHaveLength(0);
    // A second pass changes nothing.
    expect((await ctx.app.waitlist.runPass()).offered).toHaveLength(0);
    expect(await liveOffers(ctx)).toHaveLength(3);
  });

  it('a free slot that fits a waiting entry is refused to reserve and to payment (409 WAITLIST_FIRST) until the list had it', async () => {
    await joinMany(ctx, [1], range);
    const slot = await slotAt(ctx, atMY(day, '11:00'));
    const res = await ctx.app.inject({ method: 'POST', url: `/slot/${slot.id}/reserve`, payload: {}, remoteAddress: '10.1.2.3' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('WAITLIST_FIRST');
    expect((await slotRow(ctx, slot.id)).holdTokenHash).toBeNull();
    // A slot nobody on the list can take (outside every entry's days) is anyone's.
    const later = await slotAt(ctx, atMY(addDays(range.toDate, 7), '11:00'));
    expect(typeof (await reserve(ctx, later.id))).toBe('string');
  });

  it('an offer that expires passes to the next in line; declined passes on at once; nobody left: the slot opens to everyone', async () => {
    await joinMany(ctx, [1, 2, 3], range);
    const slot = await slotAt(ctx, atMY(day, '09:00'));
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [slot.id]: 1 });

    clock.add(30);
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [slot.id]: 2 });
    expect((await offers(ctx)).map((o) => o.outcome)).toEqual(['expired', null]);
    // Parent 1 waits again, at the back of the line and not offered anything for a day.
    expect((await entries(ctx)).map((e) => [e.email, e.state])).toEqual([
      [parent(2).email, 'offered'],
      [parent(3).email, 'waiting'],
      [parent(1).email, 'waiting'],
    ]);
    expect((await entries(ctx)).find((e) => e.email === parent(1).email)!.offerableAfter).toEqual(new Date(clock.now.getTime() + 86_400_000));

    const declined = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/offer/${await offerTokenOf(ctx, 2)}/decline`, remoteAddress: parent(2).address });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data).toEqual({ state: 'declined' });
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [slot.id]: 3 });

    clock.add(31);
    await ctx.app.waitlist.runPass();
    expect(await liveOffers(ctx)).toHaveLength(0);
    expect((await slotRow(ctx, slot.id)).holdTokenHash).toBeNull();
    expect(typeof (await reserve(ctx, slot.id))).toBe('string');
    const stale = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/offer/${await offerTokenOf(ctx, 1)}/accept`, remoteAddress: parent(1).address });
    expect(stale.statusCode).toBe(409);
  });

  it('mornings and afternoons: each slot goes to the first entry whose part of the day it fits', async () => {
    await joinMany(ctx, [1], { ...range, partOfDay: 'afternoon' });
    await joinMany(ctx, [2], { ...range, partOfDay: 'morning' });
    const morning = await slotAt(ctx, atMY(day, '11:30'));
    const afternoon = await slotAt(ctx, atMY(day, '12:00'));
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [morning.id]: 2, [afternoon.id]: 1 });
  });

  it('a slot that was free before anyone waited is never offered (anyone may book it); the next one freed is', async () => {
    const alreadyFree = await slotAt(ctx, atMY(day, '09:00'));
    expect((await join(ctx, 1, range)).statusCode).toBe(202);
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({});
    expect(typeof (await reserve(ctx, alreadyFree.id))).toBe('string');
    const freedLater = await slotAt(ctx, atMY(day, '09:30'));
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [freedLater.id]: 1 });
  });

  it('a parent who let an offer pass is offered nothing for a day; after it, the next slot freed', async () => {
    await joinMany(ctx, [1], range);
    const first = await slotAt(ctx, atMY(day, '09:00'));
    await ctx.app.waitlist.runPass();
    const declined = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/offer/${await offerTokenOf(ctx, 1)}/decline`, remoteAddress: parent(1).address });
    expect(declined.statusCode).toBe(200);
    const second = await slotAt(ctx, atMY(day, '10:00'));
    await ctx.app.waitlist.runPass();
    // Both free and anyone's: the only parent waiting is not offered anything before a day has passed.
    expect(await offeredTo(ctx)).toEqual({});
    expect(typeof (await reserve(ctx, first.id))).toBe('string');
    clock.add(24 * 60);
    const third = await slotAt(ctx, atMY(weekdayFrom(addDays(day, 2)), '10:00'));
    await ctx.app.waitlist.runPass();
    expect(await offeredTo(ctx)).toEqual({ [third.id]: 1 });
    expect(second.id).not.toBe(third.id);
  });
});
