import type { ManageView } from 'shared-api';

/** A child of a booking of several (issue 37), with what cancelling that child alone would refund now. */
export type ManagedChild = NonNullable<ManageView['children']>[number];

/** The children of a booking of several still booked (none for a booking of one child). */
export const stillBooked = (view: Pick<ManageView, 'children'>): ManagedChild[] => view.children?.filter((child) => !child.cancelled) ?? [];

/** The children a parent may cancel alone: only while another child would stay booked (the last one goes with the booking). */
export const cancellableAlone = (view: Pick<ManageView, 'children'>): ManagedChild[] => {
  const left = stillBooked(view);
  return left.length > 1 ? left : [];
};

/** What the whole cancel concerns: the shares of the children still booked, or the whole payment of a booking of one child. */
export const stillBookedSen = (view: Pick<ManageView, 'children' | 'amountPaidSen'>): number =>
  view.children ? stillBooked(view).reduce((sum, child) => sum + child.amountSen, 0) : view.amountPaidSen;
