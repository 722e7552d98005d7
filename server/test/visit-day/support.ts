// Fixtures of the visit-day tests: bookings written straight into the tables (a paid one of one child, of two children,
// a staff booking with no payment, a cancelled one) on a GMT+8 day, and the day's clock.
import { randomUUID } from 'node:crypto';
import { addDays, dateInMY, midnightInMY } from 'shared-api/contract';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { documentFiles, documentMarks } from '../../src/documents/tables';
import { paymentChildren, payments } from '../../src/payments/tables';
import { slots } from '../../src/slots/tables';
import { insertConsent } from '../helpers';

export const PARENT = { visitorName: 'Nurul Huda', visitorEmail: 'nurul.huda@example.com', visitorContactNo: '0127654321' };
export const ADAM = { childName: 'Adam Firdaus', childYear: 'Form 1', selectedSchool: 'Seri Ilmu Private Secondary' };
export const SITI = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };
export const MINUTE = 60_000;

/** A GMT+8 day a month ahead (never today's date), and an instant on it at `hour:minute` (GMT+8). */
export const visitDay = addDays(dateInMY(Date.now()), 30);
export const at = (hour: number, minute = 0, day = visitDay) => new Date(midnightInMY(day) + (hour * 60 + minute) * MINUTE);

const seatRow = (start: Date, seat: number, reference: string, consentId: number, child: typeof ADAM) => ({
  startAt: start,
  endAt: new Date(start.getTime() + 30 * MINUTE),
  seat,
  status: 'booked' as const,
  ...PARENT,
  ...child,
  bookingReference: reference,
  amountSen: 7500,
  bookedAt: new Date(start.getTime() - 30 * 86_400_000),
  consentId,
});

/** A paid booking at `start` of Adam alone, or of Adam and Siti (two seats, payment_children); `cancelled`: booking cancelled. */
export async function paidBooking(database: DatabaseHandle, key: string, start: Date, { two = false, cancelled = false } = {}) {
  const id = `pay_${key}`;
  const reference = `PAY-${key.toUpperCase()}`;
  const consentId = await insertConsent(database.db);
  const [first] = await database.db
    .insert(slots)
    .values(cancelled ? { startAt: start, endAt: new Date(start.getTime() + 30 * MINUTE) } : seatRow(start, 1, reference, consentId, ADAM))
    .returning();
  const [second] = two ? await database.db.insert(slots).values(seatRow(start, 2, reference, consentId, SITI)).returning() : [];
  await database.db.insert(payments).values({
    id,
    reference,
    slotId: first.id,
    status: 'completed',
    bookingStatus: cancelled ? 'cancelled' : 'booked',
    amountSen: two ? 14_250 : 7500,
    ...PARENT,
    ...ADAM,
    holdToken: `hold-${id}`,
    gateway: 'sandbox',
    sessionExpiresAt: start,
    consentId,
  });
  if (two)
    await database.db.insert(paymentChildren).values([
      { paymentId: id, position: 1, slotId: first.id, ...ADAM, feeSen: 7500, discountSen: 0, amountSen: 7500 },
      { paymentId: id, position: 2, slotId: second.id, ...SITI, feeSen: 7500, discountSen: 750, amountSen: 6750 },
    ]);
  return { id, reference, start: start.toISOString() };
}

/** A slot staff booked with no payment behind it. */
export async function staffBooking(database: DatabaseHandle, key: string, start: Date) {
  const reference = `STAFF-${key.toUpperCase()}`;
  await database.db.insert(slots).values(seatRow(start, 1, reference, await insertConsent(database.db), { ...ADAM, childName: 'Lim Jun Hao' }));
  return { reference, start: start.toISOString() };
}

/** A live uploaded file of the child at `position` (the bytes are not needed: the checklist reads the rows). */
export async function uploaded(database: DatabaseHandle, paymentId: string, position: number, kind: (typeof documentFiles.$inferInsert)['kind']) {
  await database.db.insert(documentFiles).values({
    id: randomUUID(),
    paymentId,
    childPosition: position,
    kind,
    objectKey: randomUUID(),
    contentType: 'application/pdf',
    sizeBytes: 1000,
    sha256: '0'.repeat(64),
    originalName: `${kind}.pdf`,
    uploadedBy: 'parent',
  });
}

/** Staff saw the paper of `kind` at the desk. */
export async function seenOnPaper(database: DatabaseHandle, paymentId: string, position: number, kind: (typeof documentMarks.$inferInsert)['kind']) {
  await database.db.insert(documentMarks).values({ paymentId, childPosition: position, kind, mark: 'seenOnPaper', markedBy: 'desk@example.com' });
}
