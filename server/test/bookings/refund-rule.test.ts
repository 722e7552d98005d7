// A move never buys a refund the booking would not have had: the refund is measured from the earliest start the booking
// has had (issue 24: book near, move far, cancel for 100 % must not work).
jest.setTimeout(120_000);
import { ManageErrorCode, ManageMessage, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { BookingManager } from '../../src/manage/service';
import { insertSlot, paymentRow, slotRow, startPaymentsApp, type Driver, type PayCtx } from '../payments/support';
import { bookPaid, cancel, mailsOf, manageGet, reschedule, tokenIn } from './support';

const HOUR = 3_600_000;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each<Driver>(['pglite', 'postgres'])('the refund after a move (%s)', (driver) => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** The booking manager as the API builds it, with its clock `hoursLater` hours ahead of now. */
  const managerLater = (hoursLater: number) =>
    new BookingManager({
      db: ctx.database.db,
      config: ctx.config.payments,
      refund: async (p) => p,
      refundChild: async () => undefined,
      onMailQueued: () => undefined,
      log: silent,
      now: () => new Date(Date.now() + hoursLater * HOUR),
    });

  it('book near (no refund), move far, cancel: still no refund; a cancel asking for the full amount is refused', async () => {
    // 30 h ahead: inside the no-refund time (the full refund ends 48 h before), before the cut-off (24 h).
    const b = await bookPaid(ctx, 30, `near-far-${driver}@example.com`);
    const booked = await slotRow(ctx, b.slotId);
    const far = await insertSlot(ctx.database, 24 * 14);
    expect((await reschedule(ctx, b.token, far.id)).statusCode).toBe(200);

    const view = (await manageGet(ctx, b.token)).json().data;
    expect(view).toMatchObject({ start: far.startAt.toISOString(), refundFrom: booked.startAt.toISOString(), canChange: true, cancelQuote: { percent: 0, amountSen: 0 } });
    // The paying browser's receipt says the same start, for the terms it shows.
    const receipt = await ctx.app.inject({ url: `/api/payment/status/${b.paymentId}`, headers: { [PAYMENT_KEY_HEADER]: b.key } });
    expect(receipt.json().data.booking.refundFrom).toBe(booked.startAt.toISOString());
    const moved = (await mailsOf(ctx, b.paymentId)).find((m) => m.kind === 'visitor_rescheduled')!;
    expect(moved.textBody).toContain('No refund if you cancel; changes until');

    const greedy = await cancel(ctx, b.token, 7500);
    expect(greedy.statusCode).toBe(409);
    expect(greedy.json()).toMatchObject({ message: ManageMessage.quoteChanged, error: ManageErrorCode.QUOTE_CHANGED });
    const res = await cancel(ctx, b.token, 0);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'cancelled', refund: null });
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ status: 'completed', bookingStatus: 'cancelled', refundAmountSen: null });
  });

  it('book early (full refund), move later: the full refund still ends 48 hours before the first time, not the new one', async () => {
    const b = await bookPaid(ctx, 60, `early-later-${driver}@example.com`);
    const first = await slotRow(ctx, b.slotId);
    const later = await insertSlot(ctx.database, 24 * 20);
    const moved = await reschedule(ctx, b.token, later.id);
    expect(moved.json().data).toMatchObject({ refundFrom: first.startAt.toISOString(), cancelQuote: { percent: 100, amountSen: 7500 } });

    // 13 hours on: past 48 hours before the first time (60 h away when booked), weeks before the new one.
    const manager = managerLater(13);
    const token = tokenIn((await mailsOf(ctx, b.paymentId)).filter((m) => m.kind === 'visitor_rescheduled').at(-1)!.textBody);
    expect((await manager.view(token, '10.9.9.9')).cancelQuote).toEqual({ percent: 0, amountSen: 0 });
    await expect(manager.cancel(token, 7500, '10.9.9.9')).rejects.toMatchObject({ statusCode: 409, code: ManageErrorCode.QUOTE_CHANGED });
    expect((await manager.cancel(token, 0, '10.9.9.9')).state).toBe('cancelled');
    expect((await paymentRow(ctx, b.paymentId)).refundAmountSen).toBeNull();
  });

  it('a move to an earlier time brings the refund deadline forward with it', async () => {
    const b = await bookPaid(ctx, 70, `earlier-${driver}@example.com`);
    const sooner = await insertSlot(ctx.database, 40);
    const moved = (await reschedule(ctx, b.token, sooner.id)).json().data;
    expect(moved).toMatchObject({ refundFrom: sooner.startAt.toISOString(), cancelQuote: { percent: 0, amountSen: 0 } });
  });

  it('a move far and a full-refund cancel at the same moment: the cancel is refused whichever runs first', async () => {
    const b = await bookPaid(ctx, 31, `together-${driver}@example.com`);
    const far = await insertSlot(ctx.database, 24 * 15);
    const [move, greedy] = await Promise.all([reschedule(ctx, b.token, far.id), cancel(ctx, b.token, 7500)]);
    expect(move.statusCode).toBe(200);
    expect(greedy.statusCode).toBe(409);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ status: 'completed', bookingStatus: 'booked', refundAmountSen: null });
  });
});
