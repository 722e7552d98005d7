import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { inMY, type BookedChild, type SiblingDetails, type VisitorDetails } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { priceOfChildren, type BookInput } from '../checkout';
import { bookedVisitorOf, slots } from '../slots';
import { paymentChildren, payments, type PaymentChildRow, type PaymentRow } from './tables';

// Issue 37: the children of a checkout of several (payment_children). A payment of one child has no rows: its child
// is the payment's own (child_name, child_year, selected_school), the spec's booking.

/** The children of a payment in the parent's order; empty for a payment of one child. */
export const childrenOf = (db: DbOrTx, paymentId: string): Promise<PaymentChildRow[]> =>
  db.select().from(paymentChildren).where(eq(paymentChildren.paymentId, paymentId)).orderBy(asc(paymentChildren.position));

/** The children a checkout asked for, the first being the visitor details' own. */
export const childrenAsked = (visitor: VisitorDetails, siblings: SiblingDetails[] = []) => [
  { childName: visitor.childName, childYear: visitor.childYear, selectedSchool: visitor.selectedSchool },
  ...siblings.map((s) => ({ childName: s.childName, childYear: s.childYear, selectedSchool: s.selectedSchool })),
];

/** The rows a checkout of several children writes with its payment, each on its seat; none for one child. */
export function childRows(paymentId: string, visitor: VisitorDetails, siblings: SiblingDetails[] | undefined, seats: number[]): (typeof paymentChildren.$inferInsert)[] {
  if (!siblings?.length) return [];
  const asked = childrenAsked(visitor, siblings);
  const { lines } = priceOfChildren(asked);
  return asked.map((child, i) => ({
    paymentId,
    position: i + 1,
    slotId: seats[i],
    ...child,
    feeSen: lines[i].feeSen,
    discountSen: lines[i].discountSen,
    amountSen: lines[i].payableSen,
  }));
}

/** Whether stored children are the ones asked for now (a double submit reuses the payment only then). */
export const sameChildren = (stored: PaymentChildRow[], visitor: VisitorDetails, siblings: SiblingDetails[] | undefined): boolean => {
  if (!siblings?.length) return stored.length === 0;
  const asked = childrenAsked(visitor, siblings);
  return stored.length === asked.length && stored.every((row, i) => row.childName === asked[i].childName && row.childYear === asked[i].childYear && row.selectedSchool === asked[i].selectedSchool);
};

/** A child as the receipt, the manage page and the staff see it. */
export const bookedChildOf = (row: PaymentChildRow): BookedChild => ({
  position: row.position,
  childName: row.childName,
  childYear: row.childYear,
  selectedSchool: row.selectedSchool,
  feeSen: row.feeSen,
  discountSen: row.discountSen,
  amountSen: row.amountSen,
  cancelled: row.cancelledAt !== null,
  refundSen: row.refundSen,
});

/** A seat's start and end: where a child of several sits (issue 37). */
export type ChildSeat = { startAt: Date; endAt: Date };

/** The seats of children still booked, by slot id (none asked for a booking of one child). */
export async function seatsOf(db: DbOrTx, children: PaymentChildRow[]): Promise<Map<number, ChildSeat>> {
  const ids = children.filter((c) => c.cancelledAt === null).map((c) => c.slotId);
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: slots.id, startAt: slots.startAt, endAt: slots.endAt }).from(slots).where(inArray(slots.id, ids));
  return new Map(rows.map((r) => [r.id, { startAt: r.startAt, endAt: r.endAt }]));
}

/** The seat of a child still booked whose time is not the booking's (staff moved that child alone), else undefined. */
export const ownSeatOf = (child: PaymentChildRow, seats: Map<number, ChildSeat>, bookingStart: Date): ChildSeat | undefined => {
  const seat = child.cancelledAt === null ? seats.get(child.slotId) : undefined;
  return seat && seat.startAt.getTime() !== bookingStart.getTime() ? seat : undefined;
};

/** Each child as shown, a child at another time than the booking's with its own `time` (GMT+8); one-time bookings keep their shape. */
export const bookedChildrenAt = (children: PaymentChildRow[], seats: Map<number, ChildSeat>, bookingStart: Date): BookedChild[] =>
  children.map((c) => {
    const seat = ownSeatOf(c, seats, bookingStart);
    const time = seat && { date: inMY(seat.startAt).format('YYYY-MM-DD'), startTime: inMY(seat.startAt).format('HH:mm'), endTime: inMY(seat.endAt).format('HH:mm') };
    return { ...bookedChildOf(c), ...(time && { time }) };
  });

/** What the children still booked paid (the whole payment less the children cancelled on their own). */
export const stillBookedSen = (paidSen: number, children: PaymentChildRow[]): number =>
  paidSen - children.filter((c) => c.cancelledAt !== null).reduce((sum, c) => sum + c.amountSen, 0);

/** Each still-booked child of a payment as the checkout books (or moves) them: the parent's details, the child's own, its share. */
export const childBookings = (p: PaymentRow, children: PaymentChildRow[], leadHours: number): (BookInput & { position: number })[] =>
  children
    .filter((c) => c.cancelledAt === null)
    .map((c) => ({
      position: c.position,
      slotId: c.slotId,
      visitor: { ...bookedVisitorOf(p), childName: c.childName, childYear: c.childYear, selectedSchool: c.selectedSchool },
      holdToken: p.holdToken,
      bookingReference: p.reference,
      amountSen: c.amountSen,
      leadHours,
      consentId: p.consentId,
    }));

/**
 * Records the seats the children now have (booked on other seats than held, or moved), and points the payment at its
 * first booked child's seat: the booking's time for every view. Returns the payment as it then is.
 */
export async function recordSeats(tx: DbOrTx, p: PaymentRow, booked: { position: number; slotId: number }[], set: Partial<typeof payments.$inferInsert> = {}): Promise<PaymentRow> {
  for (const { position, slotId } of booked)
    await tx.update(paymentChildren).set({ slotId }).where(and(eq(paymentChildren.paymentId, p.id), eq(paymentChildren.position, position)));
  const [updated] = await tx
    .update(payments)
    .set({ ...set, slotId: booked[0]?.slotId ?? p.slotId, updatedAt: sql`now()` })
    .where(eq(payments.id, p.id))
    .returning();
  return updated;
}

/** Every child of a booking for its mails (issue 37); undefined for one child (the mail names the payment's own). */
export const mailChildrenOf = (children: PaymentChildRow[]) =>
  children.length > 0
    ? children.map((c) => ({ childName: c.childName, childYear: c.childYear, school: c.selectedSchool, amountSen: c.amountSen, cancelled: c.cancelledAt !== null }))
    : undefined;
