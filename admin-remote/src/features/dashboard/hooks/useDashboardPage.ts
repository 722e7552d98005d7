// The dashboard's table as pages from the server (issue 41): the view, search, school, sort and page chosen here, the
// rows, counts and stat cards answered there, so a school's whole history is never loaded.
import { useRef } from 'react';
import { useStaffSlotPageQuery, type StaffPageArgs, type StaffSlotPage } from '../api/staffSlotsApi';
import type { SlotFilter } from './useSlotFilter';
import type { SlotSort } from '../utils/columns';

const EARLIEST_FIRST: SlotSort = { columnId: 'dateTime', direction: 'ascending' };
const LATEST_FIRST: SlotSort = { columnId: 'dateTime', direction: 'descending' };
/**
 * Each view's own order: upcoming slots soonest first, past ones latest first, bookings by start (the same object each
 * time, so the memoised table is not drawn again for it).
 */
export const defaultSortOf = (filter: SlotFilter): SlotSort => (filter === 'past' ? LATEST_FIRST : EARLIEST_FIRST);

export type DashboardPageChoice = { page: number; q: string; school: string; sort: SlotSort };

/**
 * The server's arguments for a view's page: Available is upcoming and not booked; the search, school and visitor
 * columns belong to Booked; a view's own order is left out, so the login's prefetch (page 1, no choice) is the same query.
 */
export function dashboardPageArgs(filter: SlotFilter, choice: Partial<DashboardPageChoice> = {}): StaffPageArgs {
  const args: StaffPageArgs =
    filter === 'available' ? { view: 'upcoming', isBooked: false, page: choice.page ?? 1 } : { view: filter, page: choice.page ?? 1 };
  const own = defaultSortOf(filter);
  const sort = choice.sort && (filter === 'booked' || choice.sort.columnId === 'dateTime') ? choice.sort : own;
  if (sort.columnId !== own.columnId || sort.direction !== own.direction) Object.assign(args, { sort: sort.columnId, direction: sort.direction });
  if (filter === 'booked') {
    if (choice.q?.trim()) args.q = choice.q.trim();
    // A brand school's name, or STAFF_OTHER_SCHOOL (the School filter's values are the server's).
    if (choice.school) args.school = choice.school;
  }
  return args;
}

/**
 * The page shown: while another page, search or order of the same view loads, the last one stays (the table marked
 * busy) rather than blanking; another view starts from its placeholders. The stat cards keep their last counts.
 */
export function useDashboardPage(filter: SlotFilter, choice: DashboardPageChoice) {
  const query = useStaffSlotPageQuery(dashboardPageArgs(filter, choice));
  const last = useRef<{ filter: SlotFilter; page: StaffSlotPage } | null>(null);
  if (query.currentData) last.current = { filter, page: query.currentData };
  const page = query.currentData ?? (last.current?.filter === filter ? last.current.page : undefined);
  return {
    page,
    stats: (query.currentData ?? query.data)?.stats,
    isLoading: page === undefined && !query.isError,
    isError: query.isError,
    isFetching: query.isFetching,
    error: query.error,
    refetch: query.refetch,
  };
}
