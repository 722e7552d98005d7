// Issue 37: brothers and sisters in one checkout: one hold of a seat per child, one payment of the sum (less the
// sibling discount), one reference on every seat booked, every child on the receipt.
import { and, eq, sql } from 'drizzle-orm';
import { BookingMessage, ErrorCode, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { paymentChildren } from '../../src/payments/tables';
import { initiate, initiateBody, initiateOk, markSandboxPaid, parentOf, paymentRow, postSandboxCallback, startPaymentsApp, visitor, waitFor, type PayCtx } from '../payments/support';

jest.setTimeout(60_000);

let ctx: PayCtx;
beforeAll(async () => {
  ctx = await startPaymentsApp('pglite', { sandboxCallbackDrop: true });
  // A timetable of 50 times a week ahead: each network may hold 5 seats for free (the hold limits are tested elsewhere).
  for (let day = 0; day < 50; day++) await seatedTime(24 * 30 + day, 1);
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.database.db.execute(sql`DELETE FROM payment_children`);
});

/** A time `hoursAhead` from now with `seats` seats (rows 1..seats): its seat rows. */
async function seatedTime(hoursAhead: number, seats: number) {
  const start = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 60_000) * 60_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  return ctx.database.db
    .insert(slots)
    .values(Array.from({ length: seats }, (_, i) => ({ startAt: start, endAt: end, seat: i + 1 })))
    .returning();
}

const sister = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };
const reserveFor = (slotId: number, email: string, children?: number) =>
  ctx.app.inject({ method: 'POST', url: `/slot/${slotId}/reserve`, payload: children ? { children } : {}, remoteAddress: parentOf(email).address });
const placesLeft = async (slotIds: number[]) => {
  const listed = (await ctx.app.inject('/public/list?limit=100&page=1')).json().data.slots as { id: number; placesLeft?: number }[];
  return listed.find((entry) => slotIds.includes(entry.id))?.placesLeft ?? 0;
};
const seatsOf = (reference: string) => ctx.database.db.select().from(slots).where(and(eq(slots.bookingReference, reference), eq(slots.status, 'booked')));

test('two children, one Secondary and one Primary, in a 3-seat time: one hold of two seats, one payment of the sum less 10 % off the second, both seats booked under one reference', async () => {
  const seats = await seatedTime(50, 3);
  const ids = seats.map((s) => s.id);
  const email = 'family.one@example.com';
  const held = await reserveFor(ids[0], email);
  expect(held.statusCode).toBe(200);
  const token = held.json().data.token as string;

  const { session, payment, sandboxId } = await initiateOk(ctx, initiateBody(seats[0], { visitorEmail: email, holdToken: token, siblings: [sister] }));
  // Form 1 at Secondary (RM 75.00), then Year 1 at Primary (RM 50.00 less its 10 % sibling discount).
  expect(session).toMatchObject({
    fee: 7500 + 4500,
    children: [
      { position: 1, childName: visitor.childName, childYear: 'Form 1', selectedSchool: 'Seri Ilmu Private Secondary', feeSen: 7500, discountSen: 0, amountSen: 7500, cancelled: false },
      { position: 2, ...sister, feeSen: 5000, discountSen: 500, amountSen: 4500, cancelled: false, refundSen: null },
    ],
  });
  expect(payment.amountSen).toBe(12000);
  // The one hold covers two seats of the time: one place is left on the timetable.
  const heldSeats = await ctx.database.db.select({ id: slots.id }).from(slots).where(sql`${slots.holdTokenHash} IS NOT NULL`);
  expect(heldSeats).toHaveLength(2);
  expect(await placesLeft(ids)).toBe(1);

  await markSandboxPaid(ctx, sandboxId);
  expect((await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid', amount: 12000 })).status).toBe(200);
  await waitFor(async () => (await paymentRow(ctx, payment.id)).status === 'completed');
  const booked = await seatsOf(payment.reference);
  expect(booked.map((s) => [s.childName, s.selectedSchool, s.amountSen]).sort()).toEqual([
    [visitor.childName, 'Seri Ilmu Private Secondary', 7500],
    [sister.childName, sister.selectedSchool, 4500],
  ].sort());
  expect(await placesLeft(ids)).toBe(1);

  const receipt = (await ctx.app.inject({ url: `/api/payment/status/${payment.id}`, headers: { [PAYMENT_KEY_HEADER]: token } })).json().data;
  expect(receipt.booking.confirmed).toBe(true);
  expect(receipt.payment.amount).toBe(12000);
  expect(receipt.booking.children.map((c: { childName: string; amountSen: number }) => [c.childName, c.amountSen])).toEqual([
    [visitor.childName, 7500],
    [sister.childName, 4500],
  ]);
  // A stranger with the reference learns nothing of the children.
  const stranger = (await ctx.app.inject(`/api/payment/status/reference/${payment.reference}`)).json().data;
  expect(stranger.booking.children).toBeUndefined();
});

test('fewer free seats than children: 409 in the product words, and nothing is held or written', async () => {
  const seats = await seatedTime(52, 3);
  const ids = seats.map((s) => s.id);
  expect((await reserveFor(ids[0], 'other.parent@example.com')).statusCode).toBe(200);
  expect((await reserveFor(ids[1], 'third.parent@example.com')).statusCode).toBe(200);
  const before = await ctx.database.db.select().from(slots).where(sql`${slots.id} IN (${sql.join(ids, sql`, `)})`).orderBy(slots.id);

  const asked = await reserveFor(ids[2], 'family.two@example.com', 2);
  expect(asked.statusCode).toBe(409);
  expect(asked.json()).toMatchObject({ error: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.notEnoughPlaces });
  const paid = await initiate(ctx, initiateBody(seats[2], { visitorEmail: 'family.two@example.com', siblings: [sister] }));
  expect(paid.statusCode).toBe(409);
  expect(paid.json().message).toBe(BookingMessage.notEnoughPlaces);
  const after = await ctx.database.db.select().from(slots).where(sql`${slots.id} IN (${sql.join(ids, sql`, `)})`).orderBy(slots.id);
  expect(after).toEqual(before);
  expect(await ctx.database.db.select().from(paymentChildren)).toEqual([]);
});

test('a reserve of 2 children holds two seats under one token; releasing it frees both', async () => {
  const seats = await seatedTime(54, 2);
  const ids = seats.map((s) => s.id);
  const held = (await reserveFor(ids[0], 'family.three@example.com', 2)).json().data;
  expect(held.slotIds.sort()).toEqual([...ids].sort());
  expect(await placesLeft(ids)).toBe(0);
  const released = await ctx.app.inject({ method: 'POST', url: `/slot/${held.slotId}/release`, payload: { token: held.token } });
  expect(released.statusCode).toBe(200);
  expect(await placesLeft(ids)).toBe(2);
});

test('a release naming a seat the token does not hold changes nothing', async () => {
  const seats = await seatedTime(56, 3);
  const ids = seats.map((s) => s.id);
  const held = (await reserveFor(ids[0], 'family.four@example.com', 2)).json().data;
  const free = ids.find((id) => !held.slotIds.includes(id))!;
  const refused = await ctx.app.inject({ method: 'POST', url: `/slot/${free}/release`, payload: { token: held.token } });
  expect(refused.statusCode).toBe(409);
  expect(await placesLeft(ids)).toBe(1);
});
