import { sql } from 'drizzle-orm';
import { addDays, brand, dateInMY } from 'shared-api/contract';
import { bookPaid, cancel } from '../bookings/support';
import { queryRows } from '../helpers';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { shiftTimesSql } from '../support/clock-shift';
import { atMY, confirmTokenFor, entries, fixClock, join, joinRequest, linkToken, mailsTo, parent, slotAt, SCHOOL, tomorrowAt, weekdayFrom, type Clock } from './support';

// Issue 35: the waitlist speaks for nobody who never asked. A join is a request until its mail's owner confirms it
// (unconfirmed ones make no offers, hold nothing and end after a day; one mail a day to an address from joins,
// whoever asks); "this wasn't me" blocks the address for 30 days; an entry that a booking ended comes back when that
// booking is cancelled within its term.
jest.setTimeout(90_000);

describe('waitlist requests and their confirmation', () => {
  let ctx: PayCtx;
  let clock: Clock;
  let today: string;
  let range: { fromDate: string; toDate: string };
  const victim = 'victim@example.com';
  const stranger = (n: number) => `10.66.6.${n}`;
  const pass = () => ctx.app.waitlist.runPass();
  /** Time passing for the database and the list alike. */
  const passTime = async (minutes: number) => {
    clock.add(minutes);
    await ctx.database.db.execute(sql.raw(shiftTimesSql(minutes * 60_000)));
  };
  const post = (url: string, address = '10.9.9.9') => ctx.app.inject({ method: 'POST', url, remoteAddress: address });
  const get = (url: string, address = '10.9.9.9') => ctx.app.inject({ method: 'GET', url, remoteAddress: address });
  const heldSlots = async () => (await queryRows<{ n: number }>(ctx.database, sql`SELECT count(*)::int AS n FROM slots WHERE hold_expires_at > now()`))[0].n;

  beforeEach(async () => {
    ctx = await startPaymentsApp('pglite');
    clock = fixClock(ctx, tomorrowAt('10:00'));
    today = dateInMY(clock.now);
    range = { fromDate: today, toDate: addDays(today, 14) };
  });
  afterEach(async () => {
    await ctx?.close();
  });

  it("three anonymous joins in a stranger's email (three schools, one /24): one mail asking to confirm, no offer, nothing held, ended after a day", async () => {
    const schools = brand.schools.map((s) => s.name);
    expect(schools).toHaveLength(3);
    for (const [n, school] of schools.entries()) {
      const res = await joinRequest(ctx, 600 + n, { ...range, email: victim, school, childYear: undefined, name: 'Someone Else' }, stranger(n + 1));
      expect(res.statusCode).toBe(202);
    }
    const mails = await mailsTo(ctx, victim);
    expect(mails.map((m) => m.kind)).toEqual(['waitlist_confirm']);
    // The mail says who asked (the name given, the school, the days), how to confirm, and "this wasn't me".
    expect(mails[0].textBody).toContain('Name given: Someone Else');
    expect(mails[0].textBody).toContain(`School: ${schools[0]}`);
    expect(mails[0].textBody).toMatch(/To confirm your place on the waitlist: http:\/\/site\.test\/waitlist\/[A-Za-z0-9_-]{43}\n/);
    expect(mails[0].textBody).toMatch(/for 30 days: http:\/\/site\.test\/waitlist\/[A-Za-z0-9_-]{43}\?not-me=1/);
    expect(mails[0].textBody.startsWith('Hello,')).toBe(true);
    expect((await entries(ctx)).map((e) => [e.school, e.state])).toEqual([[schools[0], 'pending']]);

    // Slots free up for three hours: a request is offered nothing and holds nothing.
    const day = weekdayFrom(addDays(today, 3));
    for (const hhmm of ['09:00', '10:00', '11:00', '14:00', '15:00']) await slotAt(ctx, atMY(day, hhmm));
    for (let hour = 0; hour < 3; hour++) {
      await pass();
      await passTime(60);
    }
    await pass();
    expect(await heldSlots()).toBe(0);
    expect((await mailsTo(ctx, victim)).map((m) => m.kind)).toEqual(['waitlist_confirm']);
    const staff = await ctx.app.waitlist.service.staffList();
    expect(staff).toEqual([]);

    // A day on, it has ended unconfirmed; its link confirms nothing.
    await passTime(21 * 60);
    await pass();
    expect((await entries(ctx)).map((e) => e.state)).toEqual(['unconfirmed']);
    const late = await post(`/api/waitlist/entry/${await confirmTokenFor(ctx, victim)}/confirm`);
    expect([late.statusCode, late.json().error, late.json().reason]).toEqual([409, 'WAITLIST_NOT_PENDING', { rule: 'expired' }]);
    expect(await entries(ctx).then((rows) => rows.filter((e) => e.state === 'waiting'))).toHaveLength(0);
  });

  it('opening the mail\'s links changes nothing; "this wasn\'t me" ends the request, erases what was typed and blocks the address for 30 days', async () => {
    expect((await joinRequest(ctx, 601, { ...range, email: victim, name: 'Someone Else' }, stranger(1))).statusCode).toBe(202);
    const token = (await confirmTokenFor(ctx, victim))!;
    // What a mail scanner or a link preview does: fetch what the pages load.
    for (const url of [`/api/waitlist/entry/${token}`, `/api/waitlist/entry/${token}?not-me=1`]) expect((await get(url)).json().data.entry.state).toBe('pending');
    expect((await entries(ctx))[0].state).toBe('pending');

    const disowned = await post(`/api/waitlist/entry/${token}/not-me`);
    expect(disowned.statusCode).toBe(200);
    expect(disowned.json().data.state).toBe('disowned');
    expect(Date.parse(disowned.json().data.blockedUntil) - clock.now.getTime()).toBe(30 * 86_400_000);
    const [row] = await entries(ctx);
    expect(row).toMatchObject({ state: 'disowned', name: '[anonymised]', phone: '', childName: null });
    expect(row.email).not.toContain('victim');
    expect((await post(`/api/waitlist/entry/${token}/confirm`)).json().error).toBe('WAITLIST_NOT_PENDING');

    // Joins naming the address, from anywhere, for any school, answer the same and do nothing.
    for (const [n, school] of brand.schools.map((s) => s.name).entries()) {
      const res = await joinRequest(ctx, 700 + n, { ...range, email: victim, school, childYear: undefined }, `10.${70 + n}.0.1`);
      expect(res.statusCode).toBe(202);
    }
    expect(await entries(ctx)).toHaveLength(1);
    expect(await mailsTo(ctx, victim)).toHaveLength(1);

    // 30 days on, the owner may join (and is asked to confirm, as anyone is).
    await passTime(30 * 24 * 60 + 1);
    expect((await join(ctx, 702, { fromDate: dateInMY(clock.now), toDate: addDays(dateInMY(clock.now), 7), email: victim })).statusCode).toBe(202);
    expect((await entries(ctx)).map((e) => e.state)).toEqual(['disowned', 'waiting']);
  });

  it('a confirmation counts toward the live places of the network that asked: requests cannot carry a network past them', async () => {
    const network = (n: number) => `10.88.1.${n}`;
    for (const i of [1, 2]) expect((await join(ctx, 800 + i, range, network(i))).statusCode).toBe(202);
    // An hour on (joins are 3 free an hour), two more requests while the network holds two places: the first confirmed
    // takes the third place, the second is refused.
    await passTime(61);
    for (const i of [3, 4]) expect((await joinRequest(ctx, 800 + i, range, network(i))).statusCode).toBe(202);
    const third = await post(`/api/waitlist/entry/${await confirmTokenFor(ctx, parent(803).email)}/confirm`, '10.1.2.3');
    const fourth = await post(`/api/waitlist/entry/${await confirmTokenFor(ctx, parent(804).email)}/confirm`, '10.1.2.4');
    expect(third.statusCode).toBe(200);
    expect([fourth.statusCode, fourth.json().reason]).toEqual([429, { rule: 'networkFull', params: { entries: 3 } }]);
    const stateOf = Object.fromEntries((await entries(ctx)).map((e) => [e.email, e.state]));
    expect([801, 802, 803, 804].map((i) => stateOf[parent(i).email])).toEqual(['waiting', 'waiting', 'waiting', 'pending']);
  });

  it('confirming when the email or phone is already on the list is refused with its code, changing nothing', async () => {
    expect((await join(ctx, 1, range)).statusCode).toBe(202);
    // Someone asks with the same phone and another email: the holder's entry is not touched, the request cannot join.
    expect((await joinRequest(ctx, 2, { ...range, phone: parent(1).phone })).statusCode).toBe(202);
    expect(await confirmTokenFor(ctx, parent(2).email)).toBeNull();
    // The same email for another school is its own list: confirmed.
    const other = brand.schools.find((s) => s.name !== SCHOOL)!.name;
    expect((await joinRequest(ctx, 3, { ...range, school: other, childYear: undefined })).statusCode).toBe(202);
    const token = (await confirmTokenFor(ctx, parent(3).email))!;
    await ctx.database.db.execute(sql`UPDATE waitlist_entries SET phone = ${parent(1).phone}, school = ${SCHOOL} WHERE email = ${parent(3).email}`);
    const clash = await post(`/api/waitlist/entry/${token}/confirm`);
    expect([clash.statusCode, clash.json().error]).toEqual([409, 'WAITLIST_ALREADY_ON']);
    expect((await entries(ctx)).map((e) => [e.email, e.state])).toEqual([
      [parent(1).email, 'waiting'],
      [parent(3).email, 'pending'],
    ]);
  });

  describe('an entry a booking ended', () => {
    const booker = 'booker@example.com';

    it('comes back at its old place when that booking is cancelled within its term', async () => {
      // Days that end before the booked visit: the slot is anyone's, not the list's.
      const days = { fromDate: today, toDate: addDays(today, 3) };
      expect((await join(ctx, 1, { ...days, email: booker })).statusCode).toBe(202);
      expect((await join(ctx, 2, days)).statusCode).toBe(202);
      const booking = await bookPaid(ctx, 24 * 9, booker);
      await pass();
      expect((await entries(ctx)).map((e) => [e.email, e.state, e.endedByReference])).toEqual([
        [booker, 'booked', booking.reference],
        [parent(2).email, 'waiting', null],
      ]);
      expect((await cancel(ctx, booking.token, 7500)).statusCode).toBe(200);
      await pass();
      expect((await entries(ctx)).map((e) => [e.email, e.state])).toEqual([
        [booker, 'waiting'],
        [parent(2).email, 'waiting'],
      ]);
      const joinedMail = (await mailsTo(ctx, booker)).filter((m) => m.kind === 'waitlist_joined').pop()!;
      const view = await get(`/api/waitlist/entry/${linkToken(joinedMail.textBody, 'entry')}`);
      expect(view.json().data.entry).toMatchObject({ state: 'waiting', place: 1 });
    });

    it('stays ended when the booking is cancelled after the term, or was made with only the phone', async () => {
      const days = { fromDate: today, toDate: addDays(today, 3) };
      expect((await join(ctx, 1, { ...days, email: booker })).statusCode).toBe(202);
      // A stranger who knows only parent 2's phone books and cancels: parent 2's place is theirs still.
      expect((await join(ctx, 2, days)).statusCode).toBe(202);
      const strangers = await bookPaid(ctx, 24 * 9 + 1, 'stranger@example.com');
      await ctx.database.db.execute(sql`UPDATE slots SET visitor_contact_no = ${parent(2).phone} WHERE id = ${strangers.slotId}`);
      const booking = await bookPaid(ctx, 24 * 9, booker);
      await pass();
      expect((await entries(ctx)).map((e) => e.state)).toEqual(['booked', 'waiting']);
      // The term (14 days) passes before the cancel.
      await ctx.database.db.execute(sql`UPDATE waitlist_entries SET joined_at = joined_at - interval '15 days'`);
      expect((await cancel(ctx, booking.token, 7500)).statusCode).toBe(200);
      await pass();
      expect((await entries(ctx)).map((e) => [e.email, e.state])).toEqual([
        [booker, 'booked'],
        [parent(2).email, 'expired'],
      ]);
    });
  });

  it('the staff list shows no request nobody confirmed', async () => {
    expect((await joinRequest(ctx, 5, range)).statusCode).toBe(202);
    expect((await join(ctx, 6, range)).statusCode).toBe(202);
    expect((await ctx.app.waitlist.service.staffList()).map((e) => e.email)).toEqual([parent(6).email]);
  });
});
