export const PAYMENT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled', 'refund_pending', 'refunded'] as const;
/** A payment the gateway may still move: the callback or reconciliation decides. */
export const OPEN_STATUSES = ['pending', 'processing'] as const;
