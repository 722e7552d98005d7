jest.setTimeout(120_000);
import { eq, sql } from 'drizzle-orm';
import { addDays, dateInMY, ErrorCode, HoldMessage, PAYMENT_KEY_HEADER, type HoldChallenge } from 'shared-api/contract';
import { solveHoldChallenge } from '../../../booking-remote/src/lib/hold-limit/holdChallenge';
import { slots } from '../../src/slots/tables';
import { issueHoldChallenge } from '../../src/checkout/challenge';
import { holdAllowance, holdCeiling, HoldLimits, HoldLimitText, holdWork, PHONE_DIGESTS_PER_SECOND } from '../../src/checkout/limits';
import { payments } from '../../src/payments/tables';
import {
  initiate,
  initiateBody,
  insertSlot,
  parentOf,
  paymentRow,
  publicIds,
  slotRow,
  startPaymentsApp,
  type Driver,
  type PayCtx,
} from '../payments/support';
import { queryRows } from '../helpers';
import { joinBody } from '../waitlist/support';

// The attack review: one anonymous script held every listed slot. Now one client network (IPv4 /24, IPv6 /56) holds its
// free allowance, then pays with proof of work per extra hold, up to a sixth of the bookable slots; emails and phones
// hold one slot each; a payment belongs to its token holder.

const SCRIPT = '203.0.113.7';
/** Another network (another /24). */
const NEIGHBOUR = '198.51.100.8';
/** Another address of the script's own network (/24). */
const NEIGHBOUR_IN_NETWORK = '203.0.113.200';

type Answer = { statusCode: number; headers: Record<string, unknown>; json: () => { success: boolean; data: { challenge?: HoldChallenge | null } | null; message: string; error?: string } };

describe.each(['pglite', 'postgres'] as Driver[])('hold limits on %s', (driver) => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver, { sandboxCallbackDrop: true });
  });
  afterAll(() => ctx?.close());
  beforeEach(async () => {
    await ctx.database.db.execute(sql`TRUNCATE payment_events, mail_outbox, payments, sandbox_sessions, rate_counters, slots CASCADE`);
  });

  /** `count` bookable slots, an hour apart from 30 hours ahead. */
  const insertSlots = async (count: number) => {
    const rows = [];
    for (let i = 0; i < count; i++) rows.push(await insertSlot(ctx.database, 30 + i));
    return rows;
  };
  const reserveFrom = (slotId: number, address: string, proofOfWork?: string): Promise<Answer> =>
    ctx.app.inject({ method: 'POST', url: `/slot/${slotId}/reserve`, payload: { minutes: 15, proofOfWork }, remoteAddress: address });
  const challengeOf = (res: Answer): HoldChallenge => {
    expect(res.statusCode).toBe(429);
    const challenge = res.json().data?.challenge;
    if (!challenge) throw new Error(`no challenge in ${JSON.stringify(res.json())}`);
    return challenge;
  };
  const solve = async (challenge: HoldChallenge) => (await solveHoldChallenge(challenge))!;
  const liveHolds = async () =>
    (await ctx.database.db.select().from(slots)).filter((s) => s.status === 'available' && s.holdExpiresAt && s.holdExpiresAt > new Date());

  it('the allowance is 5, or 10 % of the bookable slots (at least 1); the ceiling is a sixth of them, or the allowance and two more', () => {
    expect([0, 5, 9, 10, 30, 50, 81, 6088].map(holdAllowance)).toEqual([1, 1, 1, 1, 3, 5, 5, 5]);
    expect([0, 5, 9, 10, 30, 50, 68, 81, 6088].map(holdCeiling)).toEqual([3, 3, 3, 3, 5, 8, 11, 13, 1014]);
  });

  it('one address reserving every listed slot without solving holds 5, gets 429 with a challenge for the rest, and the list still shows them', async () => {
    const rows = await insertSlots(60);
    const answers = [];
    for (const slot of rows) answers.push(await reserveFrom(slot.id, SCRIPT));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(55);
    for (const a of refused) {
      expect(a.json()).toMatchObject({ success: false, error: ErrorCode.HOLD_LIMIT, message: HoldLimitText.challenge });
      expect(a.json().data?.challenge?.parameters.data).toMatchObject({ level: 1 });
    }
    expect(await liveHolds()).toHaveLength(5);
    expect(await publicIds(ctx)).toHaveLength(55);
    // Another parent on another address is not affected.
    expect((await reserveFrom(rows[59].id, NEIGHBOUR)).statusCode).toBe(200);
  });

  it('the same through initiate with invented emails and phones: 5 payments, 429 for the rest, nothing left held by the refused', async () => {
    const rows = await insertSlots(60);
    const statuses: number[] = [];
    for (const [i, slot] of rows.entries()) {
      const body = initiateBody(slot, { visitorEmail: `invented${i}@example.com`, visitorContactNo: `01${String(30_000_000 + i)}` });
      statuses.push((await initiate(ctx, body, SCRIPT)).statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
    expect(await liveHolds()).toHaveLength(5);
    expect(await ctx.database.db.select().from(payments)).toHaveLength(5);
    expect(await publicIds(ctx)).toHaveLength(55);
  });

  it('a solved challenge earns one more hold; the next asks for more work; a replayed solution is refused', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) expect((await reserveFrom(slot.id, SCRIPT)).statusCode).toBe(200);
    const first = challengeOf(await reserveFrom(rows[5].id, SCRIPT));
    expect(first.parameters.data).toMatchObject({ level: 1 });
    const proof = await solve(first);
    expect((await reserveFrom(rows[5].id, SCRIPT, proof)).statusCode).toBe(200);

    const second = challengeOf(await reserveFrom(rows[6].id, SCRIPT));
    expect(second.parameters.data).toMatchObject({ level: 2 });
    const replay = await reserveFrom(rows[6].id, SCRIPT, proof);
    expect(replay.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldLimitText.proofRefused });
    expect((await slotRow(ctx, rows[6].id)).holdExpiresAt).toBeNull();
    expect((await reserveFrom(rows[6].id, SCRIPT, await solve(second))).statusCode).toBe(200);
    expect(await liveHolds()).toHaveLength(7);
  });

  it('a solution sent twice at once buys one hold', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    const proof = await solve(challengeOf(await reserveFrom(rows[5].id, SCRIPT)));
    const [a, b] = await Promise.all([reserveFrom(rows[5].id, SCRIPT, proof), reserveFrom(rows[6].id, SCRIPT, proof)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 429]);
    expect(await liveHolds()).toHaveLength(6);
  });

  it('refuses an expired solution, one made for another network, and one that is not a solution', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    for (const slot of rows.slice(5, 10)) await reserveFrom(slot.id, NEIGHBOUR);
    const [{ client }] = await ctx.database.db.select({ client: slots.holdClient }).from(slots).where(eq(slots.id, rows[0].id));
    const [{ value: secret }] = await queryRows<{ value: string }>(ctx.database, sql`SELECT value FROM app_secrets WHERE name = 'altcha-hmac'`);
    // Issued ten minutes ago: its two minutes are long over.
    const issuedAt = Date.now() - 10 * 60_000;
    jest.spyOn(Date, 'now').mockReturnValueOnce(issuedAt);
    const expired = await issueHoldChallenge(secret, client!, 2_000, 1);
    const forScript = challengeOf(await reserveFrom(rows[10].id, SCRIPT));
    const refusals = [
      await reserveFrom(rows[10].id, SCRIPT, await solve(expired)),
      await reserveFrom(rows[10].id, NEIGHBOUR, await solve(forScript)),
      await reserveFrom(rows[10].id, SCRIPT, Buffer.from('{"challenge":{},"solution":{}}').toString('base64')),
    ];
    for (const res of refusals) expect(res.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldLimitText.proofRefused });
    // Each refusal brings a fresh challenge, and nothing was held.
    for (const res of refusals) expect(res.json().data?.challenge).toBeTruthy();
    expect(await liveHolds()).toHaveLength(10);
  });

  it('a challenge buys only what it was issued for: a hold’s proof is refused for a waitlist join, a join’s for a hold, each with a new challenge', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    const holdChallenge = challengeOf(await reserveFrom(rows[5].id, SCRIPT));
    const range = { fromDate: dateInMY(new Date()), toDate: addDays(dateInMY(new Date()), 14) };
    const joinFrom = (i: number, proofOfWork?: string): Promise<Answer> =>
      ctx.app.inject({ method: 'POST', url: '/api/waitlist', payload: { ...joinBody(i, range), proofOfWork }, remoteAddress: SCRIPT });
    for (const i of [1, 2, 3]) expect((await joinFrom(i)).statusCode).toBe(202);
    const joinChallenge = challengeOf(await joinFrom(4));
    expect([holdChallenge.parameters.data?.purpose, joinChallenge.parameters.data?.purpose]).toEqual(['hold', 'waitlist-join']);
    const [holdProof, joinProof] = [await solve(holdChallenge), await solve(joinChallenge)];
    const joinWithHoldProof = await joinFrom(4, holdProof);
    expect(joinWithHoldProof.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldLimitText.proofRefused });
    expect(challengeOf(joinWithHoldProof).parameters.data).toMatchObject({ purpose: 'waitlist-join' });
    const holdWithJoinProof = await reserveFrom(rows[5].id, SCRIPT, joinProof);
    expect(holdWithJoinProof.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldLimitText.proofRefused });
    expect(challengeOf(holdWithJoinProof).parameters.data).toMatchObject({ purpose: 'hold', level: 1 });
    expect(await liveHolds()).toHaveLength(5);
    // Refused, neither was used up: each still buys what it was made for.
    expect((await reserveFrom(rows[5].id, SCRIPT, holdProof)).statusCode).toBe(200);
    expect((await joinFrom(4, joinProof)).statusCode).toBe(202);
  });

  it('a challenge solved early cannot buy a hold far later in a run of holds (made for at least half the work a hold costs now)', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    // Three level-1 challenges collected at once, solved cheaply, used one after the other.
    const stock = [];
    for (let i = 0; i < 3; i++) stock.push(await solve(challengeOf(await reserveFrom(rows[5].id, SCRIPT))));
    expect((await reserveFrom(rows[5].id, SCRIPT, stock[0])).statusCode).toBe(200);
    expect((await reserveFrom(rows[6].id, SCRIPT, stock[1])).statusCode).toBe(200);
    const third = await reserveFrom(rows[7].id, SCRIPT, stock[2]);
    expect(third.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldLimitText.proofRefused });
    expect(third.json().data?.challenge?.parameters.data).toMatchObject({ level: 3 });
  });

  it('past the ceiling (a sixth of the bookable slots) no challenge is offered at all, and Retry-After says when to ask again', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    const [{ client }] = await ctx.database.db.select({ client: slots.holdClient }).from(slots).where(eq(slots.id, rows[0].id));
    // As if this network had paid for 5 more holds (60 / 6 = 10 in all), the first of them ending in 20 s.
    const extra = rows.slice(5, 10).map((r) => r.id);
    await ctx.database.db.execute(sql`UPDATE slots SET hold_client = ${client}, hold_token_hash = 'x', hold_expires_at = now() + interval '10 minutes' WHERE id IN ${extra}`);
    await ctx.database.db.execute(sql`UPDATE slots SET hold_expires_at = now() + interval '20 seconds' WHERE id = ${extra[0]}`);
    const res = await reserveFrom(rows[40].id, SCRIPT);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldMessage.limit, data: { challenge: null } });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(19);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(20);
    expect(await liveHolds()).toHaveLength(10);
  });

  it('20 reserves at once from one address hold exactly 5', async () => {
    const rows = await insertSlots(60);
    const answers = await Promise.all(rows.slice(0, 20).map((slot) => reserveFrom(slot.id, SCRIPT)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(15);
    expect(await liveHolds()).toHaveLength(5);
  });

  (driver === 'postgres' ? it : it.skip)("a hold that could not stand is refused without waiting on the network's lock, so a crowd does not queue for its refusals", async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    const limits = await HoldLimits.load(ctx.database.db);
    // Another request of this network is inside its lock meanwhile; had these needed the lock, they would never answer.
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const other = ctx.database.db.transaction(async (tx) => {
      await limits.lock(tx, limits.holder(NEIGHBOUR_IN_NETWORK));
      locked();
      await released;
    });
    await isLocked;
    try {
      expect(challengeOf(await reserveFrom(rows[5].id, SCRIPT)).parameters.data).toMatchObject({ level: 1 });
      const initiated = await initiate(ctx, initiateBody(rows[6], { visitorEmail: 'crowd@example.com' }), SCRIPT);
      expect(initiated.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, data: { challenge: { parameters: { data: { level: 1 } } } } });
    } finally {
      release();
      await other;
    }
    expect(await liveHolds()).toHaveLength(5);
  });

  it('the free allowance is per network: 16 addresses of one /24 hold 5 in all; a proof solved on one is good on another', async () => {
    const rows = await insertSlots(60);
    const addresses = Array.from({ length: 16 }, (_, i) => `127.0.0.${i + 2}`);
    const answers: Answer[] = [];
    for (const [i, address] of addresses.entries()) answers.push(await reserveFrom(rows[i].id, address));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    for (const a of answers.slice(5)) expect(challengeOf(a).parameters.data).toMatchObject({ level: 1, work: 2_000 });
    const proof = await solve(challengeOf(answers[6]));
    expect((await reserveFrom(rows[6].id, addresses[15], proof)).statusCode).toBe(200);
    // Another /24 has its own allowance.
    expect((await reserveFrom(rows[20].id, '127.0.1.2')).statusCode).toBe(200);
    expect(await liveHolds()).toHaveLength(7);
  });

  it('IPv6 clients count by their /56 (two /64s of one /56 share it, another /56 does not); IPv4-mapped ones by their /24', async () => {
    const rows = await insertSlots(60);
    for (let i = 0; i < 5; i++) expect((await reserveFrom(rows[i].id, `2001:db8:1:${(0x200 + i * 0x10).toString(16)}::1`)).statusCode).toBe(200);
    expect((await reserveFrom(rows[5].id, '2001:db8:1:2ff::9')).statusCode).toBe(429);
    expect((await reserveFrom(rows[6].id, '2001:db8:1:300::1')).statusCode).toBe(200);
    for (let i = 10; i < 15; i++) expect((await reserveFrom(rows[i].id, `192.0.2.${i}`)).statusCode).toBe(200);
    expect((await reserveFrom(rows[15].id, '::ffff:192.0.2.99')).statusCode).toBe(429);
  });

  it('the work asked doubles with each hold the network has over its allowance', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    const works = [];
    for (const slot of rows.slice(5, 9)) {
      const challenge = challengeOf(await reserveFrom(slot.id, SCRIPT));
      works.push(challenge.parameters.data?.work);
      expect((await reserveFrom(slot.id, SCRIPT, await solve(challenge))).statusCode).toBe(200);
    }
    expect(works).toEqual([2_000, 4_000, 8_000, 16_000]);
  });

  it('as unheld slots get scarce, each hold over the allowance costs more work (a hold within it stays free)', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) expect((await reserveFrom(slot.id, SCRIPT)).statusCode).toBe(200);
    expect(challengeOf(await reserveFrom(rows[5].id, SCRIPT)).parameters.data).toMatchObject({ level: 1, work: 2_000 });
    const heldByOthers = (count: number) =>
      ctx.database.db.execute(
        sql`UPDATE slots SET hold_client = 'other networks', hold_token_hash = 'x', hold_expires_at = now() + interval '10 minutes' WHERE id IN ${rows.slice(60 - count).map((r) => r.id)}`,
      );
    // With this hold, 5 + 1 + 30 of 60 are held: 24 unheld, under half.
    await heldByOthers(30);
    expect(challengeOf(await reserveFrom(rows[5].id, SCRIPT)).parameters.data).toMatchObject({ level: 1, work: 3_200 });
    // 5 + 1 + 50 held: 4 unheld.
    await heldByOthers(50);
    expect(challengeOf(await reserveFrom(rows[5].id, SCRIPT)).parameters.data).toMatchObject({ level: 1, work: 7_200 });
    // Another network's first hold is free however scarce the slots are.
    expect((await reserveFrom(rows[6].id, NEIGHBOUR)).statusCode).toBe(200);
  });

  it("the work grows with scarcity and the network's holds, no network holds over a sixth of 42 slots or more, and a parent's second or third try is never refused and costs at most a second on a phone", () => {
    const problems: string[] = [];
    let honestMost = 0;
    for (const bookable of [...Array.from({ length: 60 }, (_, i) => i + 1), 68, 81, 100, 150, 300, 1000]) {
      if (bookable >= 42 && holdCeiling(bookable) > bookable / 6) problems.push(`ceiling over a sixth at ${bookable}`);
      for (let unheld = 0; unheld < bookable; unheld += Math.max(1, Math.floor(bookable / 50))) {
        const work = (live: number, free = unheld) => holdWork({ live, bookable, unheld: free });
        // Up to three holds of the parent's own (earlier tries not yet ended) on their network.
        for (let live = 1; live <= 3; live++) {
          if (work(live) === null) problems.push(`${bookable}/${unheld}: a parent's try ${live} refused`);
          honestMost = Math.max(honestMost, work(live) ?? 0);
        }
        for (let live = 1; live <= holdCeiling(bookable); live++) {
          if (work(live) === null || work(live)! < work(Math.max(1, live - 1))!) problems.push(`${bookable}/${unheld}/${live}: not growing with holds`);
          if (work(live)! < work(live, unheld + 1)!) problems.push(`${bookable}/${unheld}/${live}: not growing with scarcity`);
        }
        if (work(holdCeiling(bookable) + 1) !== null) problems.push(`${bookable}/${unheld}: a hold past the ceiling`);
      }
    }
    expect(problems).toEqual([]);
    expect(honestMost).toBe(16_000);
    expect(honestMost).toBeLessThanOrEqual(PHONE_DIGESTS_PER_SECOND);
  });

  describe('one live hold per email and per phone; a payment belongs to its hold token', () => {
    const parent = 'aisyah@example.com';

    /** The parent's own flow: reserve, then initiate with the hold token. */
    const parentPays = async (slot: { id: number; startAt: Date }) => {
      const hold = await reserveFrom(slot.id, parentOf(parent).address);
      const holdToken = (hold.json().data as unknown as { token: string }).token;
      const res = await initiate(ctx, initiateBody(slot, { visitorEmail: parent, holdToken }));
      expect(res.statusCode).toBe(200);
      return { holdToken, session: (res.json().data as unknown as { paymentSession: { id: string; clientReference: string } }).paymentSession };
    };

    it('another slot for the same email or the same phone is refused (409); the first hold and payment are untouched', async () => {
      const [a, b] = await insertSlots(2);
      const { holdToken, session } = await parentPays(a);
      const before = await slotRow(ctx, a.id);
      const sameEmail = await initiate(ctx, initiateBody(b, { visitorEmail: parent, visitorContactNo: '0199999999' }), NEIGHBOUR);
      const samePhone = await initiate(ctx, initiateBody(b, { visitorEmail: 'other@example.com', visitorContactNo: parentOf(parent).visitorContactNo }), NEIGHBOUR);
      for (const res of [sameEmail, samePhone]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ error: ErrorCode.VISITOR_HAS_HOLD, message: HoldMessage.visitorHasHold });
      }
      expect((await slotRow(ctx, b.id)).holdExpiresAt).toBeNull();
      expect(await slotRow(ctx, a.id)).toEqual(before);
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');
      // The parent themselves, with their token, may start again on their own slot: the same session.
      const again = await initiate(ctx, initiateBody(a, { visitorEmail: parent, holdToken }));
      expect((again.json().data as unknown as { paymentSession: { id: string } }).paymentSession.id).toBe(session.id);
      // Once that payment is cancelled (by its id, with its key), the email may hold another slot.
      expect((await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel`, headers: { [PAYMENT_KEY_HEADER]: holdToken } })).statusCode).toBe(200);
      expect((await initiate(ctx, initiateBody(b, { visitorEmail: parent }))).statusCode).toBe(200);
    });

    it("knowing a parent's email and details takes nothing: SLOT_RESERVED, no payment replaced, reused or cancelled", async () => {
      const [a] = await insertSlots(1);
      const { holdToken, session } = await parentPays(a);
      const before = await slotRow(ctx, a.id);
      const exact = await initiate(ctx, initiateBody(a, { visitorEmail: parent }), NEIGHBOUR);
      const otherName = await initiate(ctx, initiateBody(a, { visitorEmail: parent, visitorName: 'Someone Else' }), NEIGHBOUR);
      const guessedToken = await initiate(ctx, initiateBody(a, { visitorEmail: parent, holdToken: 'not-the-token-0123456789' }), NEIGHBOUR);
      for (const res of [exact, otherName, guessedToken]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toBe(ErrorCode.SLOT_RESERVED);
      }
      expect(await ctx.database.db.select().from(payments)).toHaveLength(1);
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');
      expect(await slotRow(ctx, a.id)).toEqual(before);
      // Cancel takes the payment id with the payment's key: the reference on receipts and mails, or the id alone, cancels nothing.
      const byReference = await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.clientReference}/cancel`, headers: { [PAYMENT_KEY_HEADER]: holdToken } });
      expect(byReference.statusCode).toBe(404);
      const byIdAlone = await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel`, remoteAddress: NEIGHBOUR });
      expect(byIdAlone.statusCode).toBe(403);
      expect(byIdAlone.json().data).toBeNull();
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');
      const byOwner = await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel`, headers: { [PAYMENT_KEY_HEADER]: holdToken } });
      expect(byOwner.json().data.payment.status).toBe('cancelled');
    });
  });

  describe('no failure leaves an orphan hold', () => {
    beforeAll(async () => {
      // The payment insert fails for this name, as a bad value reaching the database would.
      await ctx.database.db.execute(sql.raw(`
        CREATE FUNCTION refuse_test_payment() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.visitor_name = 'Insert Fails' THEN RAISE EXCEPTION 'payment insert refused'; END IF;
          RETURN NEW;
        END $$`));
      await ctx.database.db.execute(sql.raw('CREATE TRIGGER refuse_test_payment BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION refuse_test_payment()'));
    });
    afterAll(async () => {
      await ctx.database.db.execute(sql.raw('DROP TRIGGER refuse_test_payment ON payments'));
      await ctx.database.db.execute(sql.raw('DROP FUNCTION refuse_test_payment()'));
    });

    it('a failed payment insert gives back the hold the initiate took', async () => {
      const [slot] = await insertSlots(1);
      const res = await initiate(ctx, initiateBody(slot, { visitorName: 'Insert Fails' }));
      expect(res.statusCode).toBe(500);
      expect(await slotRow(ctx, slot.id)).toMatchObject({ holdExpiresAt: null, holdTokenHash: null });
      expect(await publicIds(ctx)).toContain(slot.id);
    });

    it("a failed payment insert leaves the parent's own hold as it was", async () => {
      const [slot] = await insertSlots(1);
      const hold = await reserveFrom(slot.id, parentOf('own@example.com').address);
      const holdToken = (hold.json().data as unknown as { token: string }).token;
      const before = await slotRow(ctx, slot.id);
      const res = await initiate(ctx, initiateBody(slot, { visitorEmail: 'own@example.com', visitorName: 'Insert Fails', holdToken }));
      expect(res.statusCode).toBe(500);
      expect(await slotRow(ctx, slot.id)).toEqual(before);
    });
  });
});
