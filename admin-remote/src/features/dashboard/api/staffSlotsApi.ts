// The staff slot list (a page of a view, issue 41, or the whole list for a move), deletion and seats, injected into the one shared API.
import { api, type Envelope, type StaffSlot } from 'shared-api';
import { staffListSchema, type StaffListSort, type StaffListStats, type StaffListView } from 'shared-api/schemas';

export type StaffSlotList = { rows: StaffSlot[]; count: number };

/** One page of the dashboard's table; sort, direction, q and school only when they differ from the view's own. */
export type StaffPageArgs = {
  view: StaffListView;
  isBooked?: boolean;
  page: number;
  q?: string;
  sort?: StaffListSort;
  direction?: 'ascending' | 'descending';
  school?: string;
};

/** A page: its rows (the spec's timeSlots.rows), every slot matching, the table's pages, the stat cards and, booked, the schools. */
export type StaffSlotPage = {
  rows: StaffSlot[];
  count: number;
  page: number;
  totalPages: number;
  stats: StaffListStats;
  schools?: Array<{ school: string | null; count: number }>;
};

export const staffSlotsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every live slot (the spec's call): the Move step's free times. */
    staffSlots: build.query<StaffSlotList, { isBooked: boolean }>({
      query: ({ isBooked }) => ({ url: '/slot/list', params: { isBooked: String(isBooked) } }),
      // The spec reads the staff list at timeSlots.rows.
      transformResponse: (response: Envelope<{ timeSlots: StaffSlotList }>) => response.data.timeSlots,
      providesTags: ['StaffSlots'],
    }),
    staffSlotPage: build.query<StaffSlotPage, StaffPageArgs>({
      // fetchBaseQuery leaves undefined params out; dashboardPageArgs gives no empty ones.
      query: ({ isBooked, ...args }) => ({ url: '/slot/list', params: { isBooked: isBooked === undefined ? undefined : String(isBooked), ...args } }),
      transformResponse: (response: Envelope<unknown>) => {
        const { timeSlots, pagination, stats, schools } = staffListSchema.parse(response.data);
        return { rows: timeSlots.rows, count: timeSlots.count, page: pagination?.page ?? 1, totalPages: pagination?.totalPages ?? 1, stats: stats!, schools };
      },
      providesTags: ['StaffSlots'],
    }),
    deleteSlot: build.mutation<null, { slotId: number }>({
      query: ({ slotId }) => ({
        url: `/slot/delete/${slotId}`,
        method: 'PUT',
        body: { slotId, deletedAt: new Date().toISOString() },
      }),
      transformResponse: () => null,
      invalidatesTags: ['StaffSlots', 'PublicSlots'],
    }),
    // A time's seats (issue 37): raised, or lowered down to the children booked or paying (409 in words below that).
    setSlotSeats: build.mutation<{ seats: number }, { slotId: number; seats: number }>({
      query: ({ slotId, seats }) => ({ url: `/slot/${slotId}/seats`, method: 'PUT', body: { seats } }),
      transformResponse: (response: Envelope<{ seats: number }>) => ({ seats: response.data.seats }),
      invalidatesTags: ['StaffSlots', 'PublicSlots'],
    }),
  }),
});

export const { useStaffSlotsQuery, useStaffSlotPageQuery, useDeleteSlotMutation, useSetSlotSeatsMutation } = staffSlotsApi;
