import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { count } from 'drizzle-orm';
import { addDays, dateInMY, ErrorCode, HoldMessage, WaitlistMessage, type HoldChallenge } from 'shared-api/contract';
import { solveHoldChallenge } from '../../../booking-remote/src/features/booking-dialog/utils/holdChallenge';
import { consents } from '../../src/bookings/tables';
import { HoldLimits, HoldLimitText } from '../../src/checkout/limits';
import { hitCounter, peekCounter } from '../../src/limits';
import { FREE_JOINS_PER_NETWORK, JOIN_WINDOW_SECONDS, MAX_JOINS_PER_NETWORK } from '../../src/waitlist/service';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { atMY, confirmTokenFor, entries, entryTokenOf, fixClock, join, joinBody, joinMany, joinRequest, mailsTo, parent, slotAt, tomorrowAt, weekdayFrom, type Clock } from './support';

// The parent's routes: joining (input rules, one live entry per email and phone, consent, the same answer always),
// the entry link, and the limits (joins per network with proof of work, guessing of links).
jest.setTimeout(60_000);

describe('waitlist public routes', () => {
  let ctx: PayCtx;
  let clock: Clock;
  let today: string;
  let range: { fromDate: string; toDate: string };

  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    clock = fixClock(ctx, tomorrowAt('10:00'));
    today = dateInMY(clock.now);
    range = { fromDate: today, toDate: addDays(today, 14) };
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const consentCount = async () => Number((await ctx.database.db.select({ n: count() }).from(consents))[0].n);

  it('refuses bad input with a clear code and changes nothing', async () => {
    let saturday = addDays(today, 2);
    while (new Date(`${saturday}T12:00:00Z`).getUTCDay() !== 6) saturday = addDays(saturday, 1);
    const cases: [Record<string, unknown>, string][] = [
      [{ fromDate: addDays(today, -1), toDate: today }, 'WAITLIST_DATES'],
      [{ fromDate: today, toDate: addDays(today, 8 * 7 + 1) }, 'WAITLIST_DATES'],
      [{ fromDate: saturday, toDate: addDays(saturday, 1) }, 'WAITLIST_DATES'],
      [{ fromDate: addDays(today, 3), toDate: addDays(today, 2) }, 'WAITLIST_DATES'],
      [{ ...range, school: 'Nowhere School' }, 'WAITLIST_SCHOOL'],
      [{ ...range, email: 'not-an-email' }, 'VALIDATION_ERROR'],
      [{ ...range, phone: '12' }, 'VALIDATION_ERROR'],
      [{ ...range, partOfDay: 'evening' }, 'VALIDATION_ERROR'],
      [{ ...range, fromDate: '2026-02-30' }, 'WAITLIST_DATES'],
      [{ ...range, privacyConsent: { noticeVersion: 'old', language: 'en' } }, 'NOTICE_OUTDATED'],
    ];
    const consentsBefore = await consentCount();
    for (const [extra, error] of cases) {
      const res = await join(ctx, 50, extra as typeof range, '10.250.0.1');
      expect([res.statusCode, res.json().error]).toEqual([400, error]);
      expect(res.json().message).toBeTruthy();
    }
    expect(await entries(ctx)).toHaveLength(0);
    expect(await consentCount()).toBe(consentsBefore);
    // The dates' refusal names its rule and the weeks ahead, for the page to say in the parent's language.
    const tooFar = await join(ctx, 50, { fromDate: today, toDate: addDays(today, 8 * 7 + 1) }, '10.250.0.1');
    expect(tooFar.json().reason).toEqual({ rule: 'tooFar', params: { weeks: 8 } });
  });

  it('a join is a request with its consent, mailed to be confirmed in the parent’s language; confirmed, it takes its place and mails it', async () => {
    const body = { ...range, locale: 'ms' as const, privacyConsent: { noticeVersion: joinBody(1, range).privacyConsent.noticeVersion, language: 'ms' as const } };
    const res = await joinRequest(ctx, 1, body);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ success: true, data: { mailed: true } });
    const [asked] = await entries(ctx);
    expect(asked).toMatchObject({ email: parent(1).email, state: 'pending', locale: 'ms' });
    const [consent] = (await ctx.database.db.select().from(consents)).filter((c) => c.id === asked.consentId);
    expect(consent).toMatchObject({ channel: 'web', language: 'ms' });
    const [confirmMail] = await mailsTo(ctx, parent(1).email);
    expect(confirmMail).toMatchObject({ kind: 'waitlist_confirm', locale: 'ms' });
    expect(confirmMail.subject).toBe('Sila sahkan: senarai menunggu Sekolah Menengah Swasta Seri Ilmu');
    const token = (await confirmTokenFor(ctx, parent(1).email))!;
    const confirmed = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/entry/${token}/confirm`, remoteAddress: '10.9.9.9' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data.entry).toMatchObject({ state: 'waiting', place: 1 });
    const joinedMail = (await mailsTo(ctx, parent(1).email)).find((m) => m.kind === 'waitlist_joined')!;
    expect(joinedMail.subject).toBe('Anda dalam senarai menunggu: Sekolah Menengah Swasta Seri Ilmu');
    expect(joinedMail.textBody).toContain('Giliran anda: 1');
    expect(joinedMail.textBody).toContain(`http://site.test/waitlist/${token}`);
    // The link's token is stored only as its hash.
    const [entry] = await entries(ctx);
    expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('joining again with the same email or phone answers the same and changes nothing; the holder gets at most one mail a day from joins', async () => {
    const first = await join(ctx, 1, range);
    const again = await ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: { ...joinBody(99, range), phone: parent(1).phone }, remoteAddress: '10.77.0.1' });
    expect([first.statusCode, again.statusCode]).toEqual([202, 202]);
    expect(again.json()).toEqual(first.json());
    expect(await entries(ctx)).toHaveLength(1);
    // Today's one mail to this address was the confirmation: no new link now, and the one they have still works.
    expect((await mailsTo(ctx, parent(1).email)).map((m) => m.kind)).toEqual(['waitlist_confirm', 'waitlist_joined']);
    expect(await mailsTo(ctx, parent(99).email)).toHaveLength(0);
    const view = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/entry/${await entryTokenOf(ctx, 1)}`, remoteAddress: '10.1.1.1' });
    expect(view.json().data.entry).toMatchObject({ email: parent(1).email, place: 1, state: 'waiting' });
  });

  it('the entry link changes the days (place kept), refuses bad days, and leaves', async () => {
    await joinMany(ctx, [2], range);
    const token = await entryTokenOf(ctx, 2);
    const url = `/api/waitlist/entry/${token}`;
    const changed = await ctx.app.inject({ method: 'PUT', url, payload: { fromDate: addDays(today, 1), toDate: addDays(today, 20), partOfDay: 'morning' }, remoteAddress: '10.1.1.2' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.entry).toMatchObject({ fromDate: addDays(today, 1), toDate: addDays(today, 20), partOfDay: 'morning', place: 2 });
    const bad = await ctx.app.inject({ method: 'PUT', url, payload: { fromDate: addDays(today, -2), toDate: today, partOfDay: 'any' }, remoteAddress: '10.1.1.2' });
    expect([bad.statusCode, bad.json().error]).toEqual([400, 'WAITLIST_DATES']);
    const left = await ctx.app.inject({ method: 'POST', url: `${url}/leave`, remoteAddress: '10.1.1.2' });
    expect(left.json().data.entry).toMatchObject({ state: 'left', place: null });
    const after = await ctx.app.inject({ method: 'PUT', url, payload: { fromDate: today, toDate: addDays(today, 3), partOfDay: 'any' }, remoteAddress: '10.1.1.2' });
    expect([after.statusCode, after.json().error]).toEqual([409, 'WAITLIST_NOT_LIVE']);
  });

  it('an offered entry cannot change its days (409); its page shows the offer without its link', async () => {
    await joinMany(ctx, [3], range);
    await slotAt(ctx, atMY(weekdayFrom(addDays(today, 2)), '09:00'));
    await ctx.app.waitlist.runPass();
    const token = await entryTokenOf(ctx, 1);
    const view = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/entry/${token}`, remoteAddress: '10.1.1.3' });
    expect(view.json().data.entry.state).toBe('offered');
    expect(Object.keys(view.json().data.offer).sort()).toEqual(['expiresAt', 'slot', 'startsAt']);
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/waitlist/entry/${token}`, payload: { ...range, partOfDay: 'any' }, remoteAddress: '10.1.1.3' });
    expect(res.statusCode).toBe(409);
  });

  it('joining is limited per client network like holds: 3 free an hour, then only with a solved proof of work', async () => {
    const network = (n: number) => `10.200.5.${n}`;
    for (const i of [11, 12, 13]) expect((await join(ctx, i, range, network(i))).statusCode).toBe(202);
    // One leaves, so the network has room for a live entry: the fourth join in the hour still costs work.
    const left = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/entry/${await entryTokenOf(ctx, 11)}/leave`, remoteAddress: network(11) });
    expect(left.statusCode).toBe(200);
    const limited = await join(ctx, 14, range, network(14));
    expect([limited.statusCode, limited.json().error, limited.headers['retry-after']]).toEqual([429, 'HOLD_LIMIT', '1']);
    expect((await entries(ctx)).some((e) => e.email === parent(14).email)).toBe(false);
    const proof = (await solveHoldChallenge(limited.json().data.challenge as HoldChallenge))!;
    const solved = await ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: { ...joinBody(14, range), proofOfWork: proof }, remoteAddress: network(99) });
    expect(solved.statusCode).toBe(202);
    // The same proof again is refused.
    const replay = await ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: { ...joinBody(15, range), proofOfWork: proof }, remoteAddress: network(15) });
    expect(replay.statusCode).toBe(429);
  });

  // Issue 39: each join costs its network one hit, and a proof is good for the work its challenge was issued at.
  const joinFrom = (i: number, address: string, proofOfWork?: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: { ...joinBody(i, range), proofOfWork }, remoteAddress: address });
  const challengeIn = (res: Awaited<ReturnType<typeof joinFrom>>): HoldChallenge => {
    expect([res.statusCode, res.json().error]).toEqual([429, 'HOLD_LIMIT']);
    return res.json().data.challenge as HoldChallenge;
  };
  /** The proof a parent's page sends (holdChallenge.ts), solved with Node's SHA-256 instead of WebCrypto: the same proof, ten times sooner. */
  const solve = async (challenge: HoldChallenge) => {
    const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };
  /** As the parent's page does: the join, and once more with the proof of the challenge it was given. */
  const joinSolving = async (i: number, address: string) => {
    const first = await joinFrom(i, address);
    return first.statusCode === 429 && first.json().data?.challenge ? joinFrom(i, address, await solve(challengeIn(first))) : first;
  };
  const joinHits = async (address: string) =>
    peekCounter(ctx.database.db, `waitlist-join:${(await HoldLimits.load(ctx.database.db)).network(address)}`, JOIN_WINDOW_SECONDS);
  const requested = async (i: number) => (await entries(ctx)).some((e) => e.email === parent(i).email && e.state === 'pending');

  it('ten parents behind one address join one after another, each solving the challenge it is given: all ten are asked to confirm, for one hit each', async () => {
    const address = '10.210.0.1';
    const answers = [];
    for (let i = 300; i < 310; i++) answers.push((await joinSolving(i, address)).statusCode);
    expect(answers).toEqual(Array(10).fill(202));
    for (let i = 300; i < 310; i++) expect(await requested(i)).toBe(true);
    expect(await joinHits(address)).toBe(10);
    // The next challenge is at the eleventh hit's level: three were free.
    expect(challengeIn(await joinFrom(310, address)).parameters.data).toMatchObject({ level: 11 - FREE_JOINS_PER_NETWORK, purpose: 'waitlist-join' });
  });

  it('a proof is accepted at the level its challenge was issued for, while others of its network join; it is good once', async () => {
    const network = (n: number) => `10.211.0.${n}`;
    for (const i of [320, 321, 322]) expect((await joinFrom(i, network(i))).statusCode).toBe(202);
    const forA = challengeIn(await joinFrom(323, network(23)));
    expect(forA.parameters.data).toMatchObject({ level: 1 });
    // B and C behind the same /24 join (two hits) while A solves.
    expect((await joinSolving(324, network(24))).statusCode).toBe(202);
    expect((await joinSolving(325, network(25))).statusCode).toBe(202);
    const proofA = await solve(forA);
    expect((await joinFrom(323, network(23), proofA)).statusCode).toBe(202);
    expect(await requested(323)).toBe(true);
    expect(await joinHits(network(1))).toBe(6);
    // Used: refused with a new challenge, at the level the next join would have.
    const replay = await joinFrom(326, network(26), proofA);
    expect(replay.json().message).toBe(HoldLimitText.proofRefused);
    const forD = challengeIn(replay);
    expect(forD.parameters.data).toMatchObject({ level: 4 });
    expect(await requested(326)).toBe(false);
    // One proof sent twice at once buys one join.
    const proofD = await solve(forD);
    const both = await Promise.all([joinFrom(326, network(26), proofD), joinFrom(327, network(27), proofD)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 429]);
    expect([await requested(326), await requested(327)].filter(Boolean)).toHaveLength(1);
  });

  it('a stranger behind the same address who asks for challenges and never solves them uses up nothing: the next parent joins at the same level', async () => {
    const address = '10.213.0.1';
    for (const i of [340, 341, 342]) expect((await joinFrom(i, address)).statusCode).toBe(202);
    for (let n = 0; n < 30; n++) expect(challengeIn(await joinFrom(343, address)).parameters.data).toMatchObject({ level: 1 });
    expect(await joinHits(address)).toBe(FREE_JOINS_PER_NETWORK);
    expect((await joinSolving(344, address)).statusCode).toBe(202);
    expect(await joinHits(address)).toBe(FREE_JOINS_PER_NETWORK + 1);
  });

  it(`the ceiling holds: past ${MAX_JOINS_PER_NETWORK} joins an hour a plain refusal, a solved proof included`, async () => {
    const address = '10.212.0.1';
    for (const i of [330, 331, 332]) expect((await joinFrom(i, address)).statusCode).toBe(202);
    const kept = challengeIn(await joinFrom(333, address));
    // The network's other paid joins of the hour (each solved as above), counted as they would be.
    const key = `waitlist-join:${(await HoldLimits.load(ctx.database.db)).network(address)}`;
    await hitCounter(ctx.database.db, key, JOIN_WINDOW_SECONDS, MAX_JOINS_PER_NETWORK - FREE_JOINS_PER_NETWORK);
    const ceiling = await joinFrom(334, address);
    expect([ceiling.statusCode, ceiling.json().error, ceiling.json().message, ceiling.json().data]).toEqual([429, ErrorCode.HOLD_LIMIT, HoldMessage.limit, { challenge: null }]);
    expect(Number(ceiling.headers['retry-after'])).toBeGreaterThan(JOIN_WINDOW_SECONDS - 120);
    const late = await joinFrom(333, address, await solve(kept));
    expect([late.statusCode, late.json().data]).toEqual([429, { challenge: null }]);
    expect(await joinHits(address)).toBe(MAX_JOINS_PER_NETWORK);
    expect([await requested(333), await requested(334)]).toEqual([false, false]);
  });

  it('a client network has at most 3 live entries: a fourth is refused with its reason and changes nothing; one ending makes room', async () => {
    const network = (n: number) => `10.201.7.${n}`;
    for (const i of [21, 22, 23]) expect((await join(ctx, i, range, network(i))).statusCode).toBe(202);
    const fourth = await join(ctx, 24, range, network(24));
    expect([fourth.statusCode, fourth.json().error, fourth.json().message]).toEqual([429, 'RATE_LIMITED', WaitlistMessage.networkFull(3)]);
    expect(fourth.json().reason).toEqual({ rule: 'networkFull', params: { entries: 3 } });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await entries(ctx)).some((e) => e.email === parent(24).email)).toBe(false);
    expect((await mailsTo(ctx, parent(24).email))).toHaveLength(0);
    // Another network is not affected.
    expect((await join(ctx, 25, range, '10.202.7.25')).statusCode).toBe(202);
    const left = await ctx.app.inject({ method: 'POST', url: `/api/waitlist/entry/${await entryTokenOf(ctx, 21)}/leave`, remoteAddress: network(21) });
    expect(left.statusCode).toBe(200);
    const proofNeeded = await join(ctx, 24, range, network(24));
    // The fourth join of the hour from that network: room now, for the work a fourth join costs.
    expect([proofNeeded.statusCode, proofNeeded.json().error]).toEqual([429, 'HOLD_LIMIT']);
    const proof = (await solveHoldChallenge(proofNeeded.json().data.challenge as HoldChallenge))!;
    const joined = await ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: { ...joinBody(24, range), proofOfWork: proof }, remoteAddress: network(24) });
    expect(joined.statusCode).toBe(202);
  });

  it('guessing links is limited per network: unknown ones 404 then 429; a real link still works from there', async () => {
    const guesser = '10.66.6.6';
    const fake = (n: number) => `${'A'.repeat(40)}${String(n).padStart(3, '0')}`;
    const answers: number[] = [];
    for (let n = 0; n < 32; n++)
      answers.push((await ctx.app.inject({ method: 'GET', url: `/api/waitlist/${n % 2 ? 'offer' : 'entry'}/${fake(n)}`, remoteAddress: guesser })).statusCode);
    expect(answers.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(answers.slice(30)).toEqual([429, 429]);
    const real = await ctx.app.inject({ method: 'GET', url: `/api/waitlist/entry/${await entryTokenOf(ctx, 3)}`, remoteAddress: guesser });
    expect(real.statusCode).toBe(200);
    const notFound = await ctx.app.inject({ method: 'GET', url: '/api/waitlist/entry/short', remoteAddress: '10.66.7.7' });
    expect([notFound.statusCode, notFound.json().error]).toEqual([404, 'WAITLIST_LINK_INVALID']);
  });
});
