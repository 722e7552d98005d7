jest.setTimeout(120_000);
import { eq, sql } from 'drizzle-orm';
import { ErrorCode, HoldMessage, type HoldChallenge } from 'shared-api/contract';
import { solveHoldChallenge } from '../../../booking-remote/src/features/booking-dialog/utils/holdChallenge';
import { slots } from '../../src/db/schema';
import { issueHoldChallenge } from '../../src/limits/hold-challenge';
import { holdAllowance, holdCeiling, HoldLimitText } from '../../src/limits/hold-limits';
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

// The attack review: one anonymous script held every listed slot. Now one address holds its free allowance, then
// pays with proof of work per extra hold; emails and phones hold one slot each; a payment belongs to its token holder.

const SCRIPT = '203.0.113.7';
const NEIGHBOUR = '203.0.113.8';

type Answer = { statusCode: number; json: () => { success: boolean; data: { challenge?: HoldChallenge | null } | null; message: string; error?: string } };

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
    ctx.app.inject({ method: 'POST', url: `/slot/${slotId}/reserve`, payload: { minutes: 30, proofOfWork }, remoteAddress: address });
  const challengeOf = (res: Answer): HoldChallenge => {
    expect(res.statusCode).toBe(429);
    const challenge = res.json().data?.challenge;
    if (!challenge) throw new Error(`no challenge in ${JSON.stringify(res.json())}`);
    return challenge;
  };
  const solve = async (challenge: HoldChallenge) => (await solveHoldChallenge(challenge))!;
  const liveHolds = async () =>
    (await ctx.database.db.select().from(slots)).filter((s) => s.status === 'available' && s.holdExpiresAt && s.holdExpiresAt > new Date());

  it('the allowance is 5, or 10 % of the bookable slots (at least 1); the ceiling adds the larger of 20 and half of them', () => {
    expect([0, 5, 9, 10, 30, 50, 81, 6088].map(holdAllowance)).toEqual([1, 1, 1, 1, 3, 5, 5, 5]);
    expect([5, 50, 81, 6088].map(holdCeiling)).toEqual([21, 30, 45, 3049]);
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

  it('refuses an expired solution, one made for another address, and one that is not a solution', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    for (const slot of rows.slice(5, 10)) await reserveFrom(slot.id, NEIGHBOUR);
    const [{ client }] = await ctx.database.db.select({ client: slots.holdClient }).from(slots).where(eq(slots.id, rows[0].id));
    const [{ value: secret }] = await queryRows<{ value: string }>(ctx.database, sql`SELECT value FROM app_secrets WHERE name = 'altcha-hmac'`);
    // Issued ten minutes ago: its two minutes are long over.
    const issuedAt = Date.now() - 10 * 60_000;
    jest.spyOn(Date, 'now').mockReturnValueOnce(issuedAt);
    const expired = await issueHoldChallenge(secret, client!, 1);
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

  it('a challenge solved early cannot buy a hold far later in a run of holds (level at least half the one needed now)', async () => {
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

  it('past the ceiling no challenge is offered at all', async () => {
    const rows = await insertSlots(60);
    for (const slot of rows.slice(0, 5)) await reserveFrom(slot.id, SCRIPT);
    const [{ client }] = await ctx.database.db.select({ client: slots.holdClient }).from(slots).where(eq(slots.id, rows[0].id));
    // As if this address had paid for 30 more holds (5 + max(20, 60 / 2) = 35 in all).
    const extra = rows.slice(5, 35).map((r) => r.id);
    await ctx.database.db.execute(sql`UPDATE slots SET hold_client = ${client}, hold_token_hash = 'x', hold_expires_at = now() + interval '10 minutes' WHERE id IN ${extra}`);
    const res = await reserveFrom(rows[40].id, SCRIPT);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: ErrorCode.HOLD_LIMIT, message: HoldMessage.limit, data: { challenge: null } });
  });

  it('20 reserves at once from one address hold exactly 5', async () => {
    const rows = await insertSlots(60);
    const answers = await Promise.all(rows.slice(0, 20).map((slot) => reserveFrom(slot.id, SCRIPT)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(15);
    expect(await liveHolds()).toHaveLength(5);
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
        expect(res.json()).toMatchObject({ error: ErrorCode.VISITOR_HAS_HOLD, message: HoldLimitText.visitorHasHold });
      }
      expect((await slotRow(ctx, b.id)).holdExpiresAt).toBeNull();
      expect(await slotRow(ctx, a.id)).toEqual(before);
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');
      // The parent themselves, with their token, may start again on their own slot: the same session.
      const again = await initiate(ctx, initiateBody(a, { visitorEmail: parent, holdToken }));
      expect((again.json().data as unknown as { paymentSession: { id: string } }).paymentSession.id).toBe(session.id);
      // Once that payment is cancelled (by its id), the email may hold another slot.
      expect((await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel` })).statusCode).toBe(200);
      expect((await initiate(ctx, initiateBody(b, { visitorEmail: parent }))).statusCode).toBe(200);
    });

    it("knowing a parent's email and details takes nothing: SLOT_RESERVED, no payment replaced, reused or cancelled", async () => {
      const [a] = await insertSlots(1);
      const { session } = await parentPays(a);
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
      // Cancel takes the payment id only: the reference on receipts and mails cancels nothing.
      const byReference = await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.clientReference}/cancel` });
      expect(byReference.statusCode).toBe(404);
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');
      const byId = await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel` });
      expect(byId.json().data.payment.status).toBe('cancelled');
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
