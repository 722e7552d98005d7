// The staff slot list and deletion, injected into the one shared API.
import { api, type Envelope, type StaffSlot } from 'shared-api';

export type StaffSlotList = { rows: StaffSlot[]; count: number };

export const staffSlotsApi = api.injectEndpoints({
  endpoints: (build) => ({
    staffSlots: build.query<StaffSlotList, { isBooked: boolean }>({
      query: ({ isBooked }) => ({ url: '/slot/list', params: { isBooked: String(isBooked) } }),
      // The spec reads the staff list at timeSlots.rows.
      transformResponse: (response: Envelope<{ timeSlots: StaffSlotList }>) => response.data.timeSlots,
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

export const { useStaffSlotsQuery, useDeleteSlotMutation, useSetSlotSeatsMutation } = staffSlotsApi;
