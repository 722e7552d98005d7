import type { VisitorDetailsInput } from 'shared-api';
import type { BookableSlot } from './slot-list/displayFilter';

/**
 * What a result page hands the home page (in the navigation state) to open the booking dialog on the same time again,
 * with the details the parent already typed: after a payment they cancelled on the gateway.
 */
export type Rebook = { slot: BookableSlot; details?: Partial<VisitorDetailsInput> };

export const rebookState = (rebook: Rebook) => ({ rebook });

/** The rebook a navigation carries, if any. */
export const rebookOf = (state: unknown): Rebook | null => {
  const rebook = (state as { rebook?: Rebook } | null)?.rebook;
  return rebook && typeof rebook.slot?.id === 'number' ? rebook : null;
};
