jest.setTimeout(120_000);
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import { BookingEventLabel, ManageMessage } from 'shared-api/contract';
import { auditLog } from '../../src/audit/record';
import { slots } from '../../src/slots/tables';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { auth, insertConsent, staffToken } from '../helpers';
import { insertSlot, publicIds, slotRow, startPaymentsApp, type Driver, type PayCtx } from '../payments/support';
import { icsValue } from './support';

const VISITOR = {
  visitorName: 'Nur Aina',
  visitorEmail: 'aina@example.com',
  visitorContactNo: '0165773086',
  selectedSchool: 'Seri Ilmu International',
  childName: 'Adam Firdaus',
  childYear: 'Year 7',
};

describe.each<Driver>(['pglite', 'postgres'])('staff manage bookings with no payment (%s)', (driver) => {
  let ctx: PayCtx;
  let token: string;
  let hours = 200;
  const next = () => (hours += 1);
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    token = await staffToken(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** Staff book a new slot directly (PUT /slot/:id with their token): no payment stands behind it. */
  async function bookDirect(visitor: Partial<typeof VISITOR> = {}) {
    const slot = await insertSlot(ctx.database, next());
    const res = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, payload: { ...VISITOR, ...visitor }, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return { slotId: slot.id, reference: res.json().data.slot.bookingReference as string };
  }
  const get = (reference: string) => ctx.app.inject({ url: `/staff/bookings/${reference}`, headers: auth(token) });
  const move = (reference: string, slotId: number) =>
    ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/move`, payload: { slotId }, headers: auth(token) });
  const cancel = (reference: string, refund = true) =>
    ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/cancel`, payload: { refund }, headers: auth(token) });
  const mailsFor = (reference: string) =>
    ctx.database.db.select().from(mailOutbox).where(like(mailOutbox.messageId, `<${reference}.%`)).orderBy(asc(mailOutbox.id));
  const auditFor = (reference: string) =>
    ctx.database.db.select().from(auditLog).where(eq(auditLog.target, reference)).orderBy(asc(auditLog.id));
  const holders = (reference: string) => ctx.database.db.select().from(slots).where(eq(slots.bookingReference, reference));

  it('lists and shows a direct booking: nothing paid, no payment, its history from the audit trail', async () => {
    const { reference } = await bookDirect();
    const listed = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(token) })).json().data.bookings;
    expect(listed.find((b: { reference: string }) => b.reference === reference)).toMatchObject({ paymentId: null, amountPaidSen: 0, state: 'booked', refund: null });
    const res = await get(reference);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ reference, paymentId: null, amountPaidSen: 0, state: 'booked', visitorName: 'Nur Aina', visitorContactNo: '0165773086' });
    expect(res.json().data.history).toEqual([expect.objectContaining({ kind: 'booked_unpaid', actor: 'staff@example.com' })]);
    expect(BookingEventLabel.booked_unpaid).toBe('Booked by staff, no payment');
  });

  it('moves it to another free slot: the old slot is public again, history and audit say who, the parent is mailed without a manage link', async () => {
    const { slotId, reference } = await bookDirect();
    const target = await insertSlot(ctx.database, next());
    const res = await move(reference, target.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: ManageMessage.staffMoved, data: { reference, state: 'booked', start: target.startAt.toISOString() } });
    expect(res.json().data.history.map((e: { kind: string }) => e.kind)).toEqual(['booked_unpaid', 'rescheduled']);
    expect(await slotRow(ctx, target.id)).toMatchObject({ status: 'booked', bookingReference: reference, visitorEmail: 'aina@example.com' });
    expect(await slotRow(ctx, slotId)).toMatchObject({ status: 'available', bookingReference: null, visitorName: null });
    expect(await publicIds(ctx)).toContain(slotId);
    const moved = (await auditFor(reference)).find((r) => r.action === 'booking_moved_by_staff')!;
    expect(moved).toMatchObject({ actor: 'staff@example.com' });
    expect(moved.detail).toMatchObject({ to: target.startAt.toISOString() });

    const mails = await mailsFor(reference);
    expect(mails.map((m) => [m.kind, m.recipient, m.paymentId])).toEqual([
      ['visitor_rescheduled', 'aina@example.com', null],
      ['admin_rescheduled', ctx.config.payments.adminNotifyEmail, null],
    ]);
    const [visitor, admin] = mails;
    expect(visitor.textBody).not.toMatch(/\/booking\/manage\//);
    expect(visitor.textBody).not.toMatch(/Amount paid/);
    expect(icsValue(visitor.ics!, 'SEQUENCE')).toBe('1');
    expect(admin.textBody).toContain('staff@example.com moved this booking');
    expect(admin.textBody).toContain('Payment: None (booked by staff)');
    // No payment was ever made for it.
    expect(await ctx.database.db.select().from(payments).where(eq(payments.reference, reference))).toEqual([]);
  });

  it('cancels it with nothing refunded (nothing was paid): the slot is public at once, recorded, the parent mailed without refund words', async () => {
    const { slotId, reference } = await bookDirect();
    const res = await cancel(reference, true);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: ManageMessage.staffCancelled, data: { reference, state: 'cancelled', refund: null, amountPaidSen: 0 } });
    expect(res.json().data.history.map((e: { kind: string }) => e.kind)).toEqual(['booked_unpaid', 'cancelled']);
    expect(await slotRow(ctx, slotId)).toMatchObject({ status: 'available', bookingReference: null });
    expect(await publicIds(ctx)).toContain(slotId);
    expect((await auditFor(reference)).map((r) => [r.action, r.actor])).toEqual([
      ['booking_direct', 'staff@example.com'],
      ['booking_cancelled_by_staff', 'staff@example.com'],
    ]);
    const [visitor, admin] = await mailsFor(reference);
    expect(visitor).toMatchObject({ kind: 'visitor_cancelled', recipient: 'aina@example.com' });
    expect(visitor.textBody).not.toMatch(/refund/i);
    expect(icsValue(visitor.ics!, 'METHOD')).toBe('CANCEL');
    expect(admin.textBody).toContain('Refund: Nothing was paid');
    // Still in the bookings list (and so its CSV) as a cancelled paid booking is, with who and when (issue 36).
    const listed = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(token) })).json().data.bookings;
    expect(listed.filter((b: { reference: string }) => b.reference === reference)).toEqual([
      expect.objectContaining({ state: 'cancelled', amountPaidSen: 0, paymentId: null, visitorName: 'Nur Aina', visitorEmail: 'aina@example.com', visitorContactNo: '0165773086' }),
    ]);
    // Nothing left to change: a second cancel finds nothing.
    expect((await cancel(reference)).statusCode).toBe(404);
    expect((await get(reference)).statusCode).toBe(404);
  });

  it('refuses the same slot (400), a taken slot (409) and a visit that is over (409), changing nothing', async () => {
    const { slotId, reference } = await bookDirect();
    expect((await move(reference, slotId)).statusCode).toBe(400);
    const taken = await bookDirect({ visitorEmail: 'other@example.com' });
    const refused = await move(reference, taken.slotId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ManageMessage.slotTaken);
    expect((await holders(reference)).map((s) => s.id)).toEqual([slotId]);
    expect((await holders(taken.reference)).map((s) => s.id)).toEqual([taken.slotId]);

    const over = await insertSlot(ctx.database, -2);
    await ctx.database.db
      .update(slots)
      .set({ ...VISITOR, status: 'booked', bookingReference: `BK-OVER${driver.toUpperCase()}`, consentId: await insertConsent(ctx.database.db) })
      .where(eq(slots.id, over.id));
    const late = await cancel(`BK-OVER${driver.toUpperCase()}`);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(ManageMessage.visitOver);
    expect(await slotRow(ctx, over.id)).toMatchObject({ status: 'booked' });
    expect((await get('BK-NOSUCH')).statusCode).toBe(404);
  });

  it('a booking with no email gets no mail, and is still moved', async () => {
    const slot = await insertSlot(ctx.database, next());
    await ctx.database.db.update(slots).set({ ...VISITOR, visitorEmail: null, status: 'booked', bookingReference: `BK-NOMAIL${driver}`, consentId: await insertConsent(ctx.database.db) }).where(eq(slots.id, slot.id));
    const target = await insertSlot(ctx.database, next());
    expect((await move(`BK-NOMAIL${driver}`, target.id)).statusCode).toBe(200);
    expect(await mailsFor(`BK-NOMAIL${driver}`)).toEqual([]);
  });

  it('two staff changing one booking at once: it ends on exactly one slot, and one cancel of two is done', async () => {
    const { slotId, reference } = await bookDirect();
    const [x, y] = [await insertSlot(ctx.database, next()), await insertSlot(ctx.database, next())];
    const moves = await Promise.all([move(reference, x.id), move(reference, y.id)]);
    expect(moves.some((r) => r.statusCode === 200)).toBe(true);
    const held = await holders(reference);
    expect(held).toHaveLength(1);
    expect([x.id, y.id]).toContain(held[0].id);
    const free = await ctx.database.db.select().from(slots).where(and(inArray(slots.id, [slotId, x.id, y.id]), eq(slots.status, 'available')));
    expect(free).toHaveLength(2);

    const cancels = await Promise.all([cancel(reference), cancel(reference)]);
    expect(cancels.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(await holders(reference)).toEqual([]);
    expect((await auditFor(reference)).filter((r) => r.action === 'booking_cancelled_by_staff')).toHaveLength(1);
  });
});
