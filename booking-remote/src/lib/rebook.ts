import type { ConsentInput, VisitorDetailsInput } from 'shared-api';
import type { BookableSlot } from './slot-list/displayFilter';

/**
 * What a result page hands the home page (in the navigation state) to open the booking dialog on the same time again,
 * with the details the parent already typed and the consent they gave: after a payment cancelled or declined.
 */
export type Rebook = { slot: BookableSlot; details?: Partial<VisitorDetailsInput>; consent?: ConsentInput | null };

export const rebookState = (rebook: Rebook) => ({ rebook });

/** The rebook a navigation carries, if any. */
export const rebookOf = (state: unknown): Rebook | null => {
  const rebook = (state as { rebook?: Rebook } | null)?.rebook;
  return rebook && typeof rebook.slot?.id === 'number' ? rebook : null;
};
