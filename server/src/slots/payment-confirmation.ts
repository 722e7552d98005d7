import type { VisitorDetails } from 'shared-api/contract';
import type { DbOrTx } from '../db/connection';

export type CompletedPayment = {
  paymentId: string;
  /** Written to the slot as its booking reference, which makes a repeated confirm recognisable. */
  reference: string;
  amountSen: number;
  holdToken: string | null;
  visitor: VisitorDetails;
};

/**
 * The completed payment that lets an anonymous caller confirm this slot with these details, or null.
 * Payments do not exist yet (issue 4 adds them), so no anonymous confirm can succeed until this looks them up;
 * the payments engineer replaces this body (e.g. select from payments where slot_id, status 'completed', details match).
 */
export async function findCompletedPaymentForSlot(
  _db: DbOrTx,
  _query: { slotId: number; paymentId?: string; visitor: VisitorDetails },
): Promise<CompletedPayment | null> {
  return null;
}
