jest.setTimeout(120_000);
import { eq } from 'drizzle-orm';
import { ManageMessage } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { insertSlot, paymentRow, publicIds, slotRow, startPaymentsApp, type Driver, type PayCtx } from '../payments/support';
import { bookPaid, cancel, eventsOf, mailsOf, reschedule, type Booked } from './support';

/** The slots carrying a booking's reference: a booking must always hold exactly one. */
const slotsOf = async (ctx: PayCtx, reference: string) =>
  ctx.database.db.select().from(slots).where(eq(slots.bookingReference, reference));

describe.each<Driver>(['pglite', 'postgres'])('reschedule races (%s)', (driver) => {
  let ctx: PayCtx;
  let hours = 100;
  const next = () => (hours += 1);
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('several parents move to one slot at once: exactly one wins, every other keeps their old slot and is told', async () => {
    const parents: Booked[] = [];
    for (let i = 0; i < 6; i++) parents.push(await bookPaid(ctx, next(), `race-${driver}-${i}@example.com`));
    const target = await insertSlot(ctx.database, next());
    const answers = await Promise.all(parents.map((b) => reschedule(ctx, b.token, target.id)));
    const won = answers.flatMap((res, i) => (res.statusCode === 200 ? [parents[i]] : []));
    expect(won).toHaveLength(1);
    for (const [i, res] of answers.entries()) {
      if (parents[i] === won[0]) continue;
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ data: null, message: ManageMessage.slotTaken });
    }
    expect(await slotRow(ctx, target.id)).toMatchObject({ status: 'booked', bookingReference: won[0].reference });
    for (const b of parents) {
      const held = await slotsOf(ctx, b.reference);
      expect(held).toHaveLength(1);
      const payment = await paymentRow(ctx, b.paymentId);
      expect(payment.slotId).toBe(held[0].id);
      if (b === won[0]) {
        expect(held[0].id).toBe(target.id);
        expect(payment.calendarSequence).toBe(1);
      } else {
        expect(held[0].id).toBe(b.slotId);
        expect(payment.calendarSequence).toBe(0);
        expect((await mailsOf(ctx, b.paymentId)).some((m) => m.kind === 'visitor_rescheduled')).toBe(false);
        expect((await eventsOf(ctx, b.paymentId)).map((e) => e.kind)).toEqual(['booked']);
      }
    }
    expect(await publicIds(ctx)).toContain(won[0].slotId);
  });

  it('one parent moves to two slots at once: the booking ends holding exactly one of them, the other and the old slot are free', async () => {
    const b = await bookPaid(ctx, next(), `twice-${driver}@example.com`);
    const [x, y] = [await insertSlot(ctx.database, next()), await insertSlot(ctx.database, next())];
    const answers = await Promise.all([reschedule(ctx, b.token, x.id), reschedule(ctx, b.token, y.id)]);
    expect(answers.some((res) => res.statusCode === 200)).toBe(true);
    const held = await slotsOf(ctx, b.reference);
    expect(held).toHaveLength(1);
    expect([x.id, y.id]).toContain(held[0].id);
    const payment = await paymentRow(ctx, b.paymentId);
    expect(payment.slotId).toBe(held[0].id);
    const free = [b.slotId, x.id, y.id].filter((id) => id !== held[0].id);
    for (const id of free) expect(await slotRow(ctx, id)).toMatchObject({ status: 'available', bookingReference: null });
    const listed = await publicIds(ctx);
    for (const id of free) expect(listed).toContain(id);
    // Each move that happened is one sequence step with its own mails.
    const moves = answers.filter((res) => res.statusCode === 200).length;
    expect(payment.calendarSequence).toBe(moves);
    expect((await mailsOf(ctx, b.paymentId)).filter((m) => m.kind === 'visitor_rescheduled')).toHaveLength(moves);
  });

  it('two parents swap slots at once: no deadlock, no booking loses or doubles its slot', async () => {
    const a = await bookPaid(ctx, next(), `swap-a-${driver}@example.com`);
    const b = await bookPaid(ctx, next(), `swap-b-${driver}@example.com`);
    const answers = await Promise.all([reschedule(ctx, a.token, b.slotId), reschedule(ctx, b.token, a.slotId)]);
    expect(answers.map((res) => res.statusCode)).toEqual([409, 409]);
    expect(await slotsOf(ctx, a.reference)).toEqual([expect.objectContaining({ id: a.slotId })]);
    expect(await slotsOf(ctx, b.reference)).toEqual([expect.objectContaining({ id: b.slotId })]);
  });

  it('a move and a cancel of one booking at once: it ends either cancelled with no slot, or moved and not cancelled', async () => {
    const b = await bookPaid(ctx, next(), `move-cancel-${driver}@example.com`);
    const target = await insertSlot(ctx.database, next());
    await Promise.all([reschedule(ctx, b.token, target.id), cancel(ctx, b.token, 7500)]);
    const payment = await paymentRow(ctx, b.paymentId);
    const held = await slotsOf(ctx, b.reference);
    if (payment.bookingStatus === 'cancelled') expect(held).toEqual([]);
    else expect(held.map((s) => s.id)).toEqual([payment.slotId]);
  });
});
