import { eq, inArray } from 'drizzle-orm';
import brandConfig from '../../../brand.config.json';
import { auditLog } from '../../src/audit/table';
import { bookingEvents } from '../../src/bookings/tables';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { paymentChildren, payments } from '../../src/payments/tables';
import { breachPeople } from '../../src/privacy/breaches';
import { findPerson, personCsv } from '../../src/privacy/person';
import { personHtml } from '../../src/privacy/readable-export';
import { ANONYMISED, applyRetention, type RetentionPolicy } from '../../src/privacy/retention';
import { slots } from '../../src/slots/tables';
import { freshPglite, insertConsent } from '../helpers';

// Issue 37 and PDPA: a booking of two children (one payment, its two payment_children rows, two booked seats carrying
// its reference). The parent's look-up and export name both children; retention leaves neither name anywhere.
jest.setTimeout(90_000);

const policy: RetentionPolicy = brandConfig.retention;
const NOW = new Date('2034-01-15T02:00:00.000Z');
const DAY = 86_400_000;
const PARENT = { visitorName: 'Nurul Huda', visitorEmail: 'nurul.huda@example.com', visitorContactNo: '0127654321' };
const ADAM = { childName: 'Adam Firdaus', childYear: 'Form 1', selectedSchool: 'Seri Ilmu Private Secondary' };
const SITI = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };

/** A paid booking of Adam and Siti at `start`; Siti cancelled on her own when `sitiCancelled` (her seat freed, her history named). */
async function bookTwo(database: DatabaseHandle, id: string, start: Date, sitiCancelled = false) {
  const reference = `PAY-${id.toUpperCase()}`;
  const consentId = await insertConsent(database.db);
  const seat = (child: typeof ADAM, place: number) => ({
    startAt: start,
    seat: place,
    endAt: new Date(start.getTime() + 30 * 60_000),
    status: 'booked' as const,
    ...PARENT,
    ...child,
    bookingReference: reference,
    amountSen: 7500,
    bookedAt: new Date(start.getTime() - 30 * DAY),
    consentId,
  });
  const [adamSeat] = await database.db.insert(slots).values(seat(ADAM, 1)).returning();
  // A cancelled child's seat is free again (freeBookedSlotRow): it names nobody.
  const [sitiSeat] = await database.db.insert(slots).values(sitiCancelled ? { startAt: start, seat: 2, endAt: adamSeat.endAt } : seat(SITI, 2)).returning();
  await database.db.insert(payments).values({
    id,
    reference,
    slotId: adamSeat.id,
    status: 'completed',
    bookingStatus: 'booked',
    amountSen: 14_250,
    ...PARENT,
    ...ADAM,
    holdToken: `hold-${id}`,
    gateway: 'sandbox',
    sessionExpiresAt: start,
    consentId,
  });
  await database.db.insert(paymentChildren).values([
    { paymentId: id, position: 1, slotId: adamSeat.id, ...ADAM, feeSen: 7500, discountSen: 0, amountSen: 7500 },
    {
      paymentId: id,
      position: 2,
      slotId: sitiSeat.id,
      ...SITI,
      feeSen: 7500,
      discountSen: 750,
      amountSen: 6750,
      ...(sitiCancelled ? { cancelledAt: new Date(start.getTime() - 7 * DAY), cancelledBy: 'parent', refundSen: 6750, refundState: 'refunded' as const } : {}),
    },
  ]);
  await database.db.insert(bookingEvents).values([
    { paymentId: id, kind: 'booked', actor: 'parent', toStart: start, amountSen: 14_250 },
    ...(sitiCancelled
      ? [
          { paymentId: id, kind: 'child_cancelled' as const, actor: 'parent', childName: SITI.childName, amountSen: 6750 },
          { paymentId: id, kind: 'child_refunded' as const, actor: 'system', childName: SITI.childName, amountSen: 6750 },
        ]
      : []),
  ]);
  return { id, reference, seats: [adamSeat.id, sitiSeat.id] };
}

describe('a booking of two children and the privacy tools', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(() => database?.close());

  it('the person found by email lists both children with their years, and the booking names both; the exports hold both', async () => {
    const booking = await bookTwo(database, 'pay_two_found', new Date(NOW.getTime() + 10 * DAY));
    const found = await findPerson(database.db, { email: PARENT.visitorEmail });

    expect(found.summary.children).toEqual([
      { name: 'Adam Firdaus', year: 'Form 1' },
      { name: 'Siti Hajar', year: 'Year 1' },
    ]);
    // One booking (the two seats share its reference), naming both children.
    expect(found.summary.bookings.map((b) => [b.reference, b.childName, b.amountSen, b.state])).toEqual([[booking.reference, 'Adam Firdaus, Siti Hajar', 14_250, 'paid']]);
    // The records as held: both seats, and the payment with each child as given.
    expect(found.bookings.map((b) => b.childName)).toEqual(['Adam Firdaus', 'Siti Hajar']);
    expect(found.payments).toHaveLength(1);
    expect((found.payments[0].children as { position: number; childName: string; childYear: string; selectedSchool: string; amountSen: number }[]).map((c) => [c.position, c.childName, c.childYear, c.selectedSchool, c.amountSen])).toEqual([
      [1, 'Adam Firdaus', 'Form 1', 'Seri Ilmu Private Secondary', 7500],
      [2, 'Siti Hajar', 'Year 1', 'Seri Ilmu Private Primary', 6750],
    ]);

    const csvPaymentRow = personCsv(found)
      .split('\r\n')
      .find((line) => line.startsWith('payments,'))!;
    expect(csvPaymentRow).toContain('Siti Hajar');
    expect(csvPaymentRow).toContain('Year 1');

    const page = personHtml(found.summary, NOW);
    expect(page).toContain('<dd>Adam Firdaus (Form 1)<br>Siti Hajar (Year 1)</dd>');
    expect(page).toMatch(new RegExp(`<tr><td>${booking.reference}</td><td>[^<]*</td><td>Adam Firdaus, Siti Hajar</td>`));
  });

  it('a breach touching the booking finds the parent once, with its one reference', async () => {
    const touched = await breachPeople(database.db, { bookedFrom: null, bookedTo: null, school: null } as never);
    expect(touched.filter((p) => p.email === PARENT.visitorEmail)).toEqual([expect.objectContaining({ name: PARENT.visitorName, references: ['PAY-PAY_TWO_FOUND'] })]);
  });

  it('retention leaves no child name of the booking anywhere, counts what it anonymised, and a second run changes nothing', async () => {
    // Past the policy's years: due. One child cancelled on her own, with her history.
    const start = new Date(NOW.getTime() - (policy.paidBookingYears * 366 + 2) * DAY);
    const booking = await bookTwo(database, 'pay_two_old', start, true);
    const both = await bookTwo(database, 'pay_two_both', new Date(start.getTime() + 3_600_000));
    // A staff entry about cancelling Siti alone names her by the booking's reference.
    const [entry] = await database.db
      .insert(auditLog)
      .values({ at: new Date(Date.now() - 365 * DAY), actor: 'staff@example.com', action: 'booking_cancelled_by_staff', target: booking.reference, detail: { child: SITI.childName, amountSen: 6750 } })
      .returning();

    const counts = await applyRetention(database.db, NOW, policy);
    expect(counts).toMatchObject({ payments: 2, slots: 3, paymentChildren: 4, bookingEvents: 2, auditEntries: 1 });

    for (const id of [booking.id, both.id]) {
      const [payment] = await database.db.select().from(payments).where(eq(payments.id, id));
      expect(payment).toMatchObject({ visitorName: ANONYMISED, childName: null, childYear: null, amountSen: 14_250 });
      const children = await database.db.select().from(paymentChildren).where(eq(paymentChildren.paymentId, id)).orderBy(paymentChildren.position);
      // Names and years gone; the shares, the cancel and its refund stay (money totals stay right).
      expect(children.map((c) => [c.childName, c.childYear, c.amountSen])).toEqual([
        [ANONYMISED, '', 7500],
        [ANONYMISED, '', 6750],
      ]);
    }
    expect((await database.db.select().from(bookingEvents).where(eq(bookingEvents.paymentId, booking.id))).map((e) => [e.kind, e.childName])).toEqual([
      ['booked', null],
      ['child_cancelled', null],
      ['child_refunded', null],
    ]);
    // Both booked seats of the booking of two: anonymised, time and reference kept.
    const seats = await database.db.select().from(slots).where(eq(slots.bookingReference, both.reference)).orderBy(slots.id);
    expect(seats.map((s) => [s.status, s.visitorName, s.visitorEmail, s.childName, s.childYear])).toEqual([
      ['booked', ANONYMISED, null, null, null],
      ['booked', ANONYMISED, null, null, null],
    ]);
    expect((await database.db.select().from(auditLog).where(eq(auditLog.id, entry.id)))[0].detail).toEqual({ child: ANONYMISED, amountSen: 6750 });

    // Not one of the children's names (nor the parent's) is left in what the booking's rows hold.
    const everything = async () =>
      JSON.stringify([
        await database.db.select().from(payments).where(eq(payments.id, booking.id)),
        await database.db.select().from(payments).where(eq(payments.id, both.id)),
        await database.db.select().from(paymentChildren).where(inArray(paymentChildren.paymentId, [booking.id, both.id])),
        await database.db.select().from(slots).where(eq(slots.bookingReference, booking.reference)),
        await database.db.select().from(slots).where(eq(slots.bookingReference, both.reference)),
        await database.db.select().from(bookingEvents).where(inArray(bookingEvents.paymentId, [booking.id, both.id])),
        await database.db.select().from(auditLog).where(eq(auditLog.id, entry.id)),
      ]);
    const after = await everything();
    for (const name of ['Adam Firdaus', 'Siti Hajar', 'Nurul Huda', 'nurul.huda@example.com']) expect(after).not.toContain(name);

    const again = await applyRetention(database.db, NOW, policy);
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
    expect(await everything()).toBe(after);
  });
});
