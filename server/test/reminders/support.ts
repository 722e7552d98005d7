// What the reminder tests share: paid bookings written straight into the database, and visit times in GMT+8.
import { and, eq } from 'drizzle-orm';
import { dayInMY, inMY } from 'shared-api/contract';
import type { Db } from '../../src/base/db/connection';
import { slots } from '../../src/slots/tables';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { insertConsent, visitor } from '../helpers';

export const MAIL_FROM = '"Seri Ilmu Admissions" <admissions@seriilmu.test>';
export const SITE = 'http://site.test';

/** A GMT+8 day `daysAhead` days after today's (the tests' visits are always ahead of the real clock too). */
export const dayAhead = (daysAhead: number): string => inMY(Date.now() + daysAhead * 86_400_000).format('YYYY-MM-DD');

/** The instant of `HH:mm` GMT+8 on a YYYY-MM-DD day, `dayOffset` days later. */
export function atMY(day: string, time: string, dayOffset = 0): Date {
  const [h, m] = time.split(':').map(Number);
  return dayInMY(day).add(dayOffset, 'day').add(h * 60 + m, 'minute').toDate();
}

export const minutes = (d: Date, n: number): Date => new Date(d.getTime() + n * 60_000);

let counter = 0;

/** A paid, booked visit starting at `start` (30 minutes), booked at `bookedAt`: its payment and slot, as a completed payment leaves them. */
export async function bookedVisit(db: Db, start: Date, options: { bookedAt: Date; visitorName?: string; email?: string }) {
  const n = `${process.pid}-${++counter}`;
  const reference = `PAY-REM-${n}`;
  const visitorName = options.visitorName ?? visitor.visitorName;
  const visitorEmail = options.email ?? `parent-${n}@example.com`;
  const details = { ...visitor, visitorName, visitorEmail };
  const consentId = await insertConsent(db);
  const [slot] = await db
    .insert(slots)
    .values({
      startAt: start,
      endAt: minutes(start, 30),
      status: 'booked',
      ...details,
      bookingReference: reference,
      amountSen: 7500,
      bookedAt: options.bookedAt,
      consentId,
    })
    .returning();
  const [payment] = await db
    .insert(payments)
    .values({
      id: `pay_rem_${n}`,
      reference,
      slotId: slot.id,
      status: 'completed',
      amountSen: 7500,
      paidAmountSen: 7500,
      ...details,
      holdToken: `hold-${n}`,
      gateway: 'sandbox',
      sessionExpiresAt: options.bookedAt,
      completedAt: options.bookedAt,
      bookingStatus: 'booked',
      consentId,
    })
    .returning();
  return { slot, payment };
}

/** Moves a booking to a new slot at `start` as a reschedule does: the new slot booked (at `movedAt`), the old one freed. */
export async function moveBooking(db: Db, paymentId: string, start: Date, movedAt: Date) {
  await db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    const [old] = await tx.select().from(slots).where(eq(slots.id, payment.slotId));
    await tx
      .update(slots)
      .set({ status: 'available', visitorName: null, visitorEmail: null, visitorContactNo: null, selectedSchool: null, bookingReference: null, amountSen: null, bookedAt: null, consentId: null })
      .where(eq(slots.id, old.id));
    const [slot] = await tx
      .insert(slots)
      .values({
        startAt: start,
        endAt: minutes(start, 30),
        status: 'booked',
        visitorName: payment.visitorName,
        visitorEmail: payment.visitorEmail,
        visitorContactNo: payment.visitorContactNo,
        selectedSchool: payment.selectedSchool,
        bookingReference: payment.reference,
        amountSen: old.amountSen,
        bookedAt: movedAt,
        consentId: payment.consentId,
      })
      .returning();
    await tx.update(payments).set({ slotId: slot.id, calendarSequence: payment.calendarSequence + 1 }).where(eq(payments.id, paymentId));
  });
}

/** Cancels a booking as a cancel does: the booking cancelled, its slot freed. */
export async function cancelBooking(db: Db, paymentId: string) {
  await db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    await tx.update(payments).set({ bookingStatus: 'cancelled', cancelledAt: new Date(), cancelledBy: 'parent' }).where(eq(payments.id, paymentId));
    await tx
      .update(slots)
      .set({ status: 'available', visitorName: null, visitorEmail: null, visitorContactNo: null, selectedSchool: null, bookingReference: null, amountSen: null, bookedAt: null, consentId: null })
      .where(eq(slots.id, payment.slotId));
  });
}

/** The reminder mails queued for a payment, oldest first. */
export const remindersFor = (db: Db, paymentId: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.paymentId, paymentId), eq(mailOutbox.kind, 'visitor_reminder')))
    .orderBy(mailOutbox.id);
