import { and, desc, eq, or } from 'drizzle-orm';
import type { VisitorDetails } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { payments } from './tables';
import { bookedVisitorOf, type BookedVisitor } from '../slots';

export type CompletedPayment = {
  paymentId: string;
  /** Written to the slot as its booking reference, which makes a repeated confirm recognisable. */
  reference: string;
  amountSen: number;
  holdToken: string | null;
  consentId: number;
  visitor: BookedVisitor;
};

/**
 * The completed payment that lets an anonymous caller confirm this slot with these details, or null: the payment
 * must be for this slot, completed (the gateway said paid), and carry exactly these visitor details
 * (and, when given, this payment id or reference).
 */
export async function findCompletedPaymentForSlot(
  db: DbOrTx,
  query: { slotId: number; paymentId?: string; visitor: VisitorDetails },
): Promise<CompletedPayment | null> {
  const { visitor } = query;
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.slotId, query.slotId),
        eq(payments.status, 'completed'),
        // A booking cancelled later (no refund: still 'completed') is not confirmed again.
        eq(payments.bookingStatus, 'booked'),
        eq(payments.visitorEmail, visitor.visitorEmail),
        eq(payments.visitorName, visitor.visitorName),
        eq(payments.visitorContactNo, visitor.visitorContactNo),
        eq(payments.selectedSchool, visitor.selectedSchool),
        eq(payments.childName, visitor.childName),
        eq(payments.childYear, visitor.childYear),
        query.paymentId ? or(eq(payments.id, query.paymentId), eq(payments.reference, query.paymentId)) : undefined,
      ),
    )
    .orderBy(desc(payments.completedAt))
    .limit(1);
  if (!row) return null;
  return {
    paymentId: row.id,
    reference: row.reference,
    amountSen: row.amountSen,
    holdToken: row.holdToken,
    consentId: row.consentId,
    visitor: bookedVisitorOf(row),
  };
}
