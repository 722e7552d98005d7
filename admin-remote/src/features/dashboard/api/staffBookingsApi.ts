// A paid booking as staff see it (its history and refund), staff cancel, and every paid booking for the CSV export.
import { api, type Envelope, type StaffBooking, type StaffBookingRow } from 'shared-api';
import { staffBookingListSchema, staffBookingSchema } from 'shared-api/manage';

export const staffBookingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    staffBooking: build.query<StaffBooking, string>({
      query: (reference) => `/staff/bookings/${encodeURIComponent(reference)}`,
      transformResponse: (response: Envelope<unknown>) => staffBookingSchema.parse(response.data),
    }),
    /** Every paid booking, cancelled ones too (a cancelled booking has freed its slot, so the slot list no longer shows it). */
    staffBookings: build.query<StaffBookingRow[], void>({
      query: () => '/staff/bookings',
      transformResponse: (response: Envelope<unknown>) => staffBookingListSchema.parse(response.data).bookings,
    }),
    cancelStaffBooking: build.mutation<StaffBooking, { reference: string; refund: boolean }>({
      query: ({ reference, refund }) => ({
        url: `/staff/bookings/${encodeURIComponent(reference)}/cancel`,
        method: 'POST',
        body: { refund },
      }),
      transformResponse: (response: Envelope<unknown>) => staffBookingSchema.parse(response.data),
      // The freed slot leaves the booked list and is open to parents again.
      invalidatesTags: ['StaffSlots', 'PublicSlots'],
      // The answer is the booking as it is now: it replaces the one Appointment Details shows (no tag needed).
      async onQueryStarted({ reference }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(staffBookingsApi.util.upsertQueryData('staffBooking', reference, data));
        } catch {
          // A refusal is shown by the caller; the booking is read again there.
        }
      },
    }),
    moveStaffBooking: build.mutation<StaffBooking, { reference: string; slotId: number }>({
      query: ({ reference, slotId }) => ({
        url: `/staff/bookings/${encodeURIComponent(reference)}/move`,
        method: 'POST',
        body: { slotId },
      }),
      transformResponse: (response: Envelope<unknown>) => staffBookingSchema.parse(response.data),
      // One slot freed, another booked: both lists change.
      invalidatesTags: ['StaffSlots', 'PublicSlots'],
      async onQueryStarted({ reference }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(staffBookingsApi.util.upsertQueryData('staffBooking', reference, data));
        } catch {
          // A refusal is shown by the caller.
        }
      },
    }),
  }),
});

export const { useStaffBookingQuery, useLazyStaffBookingsQuery, useCancelStaffBookingMutation, useMoveStaffBookingMutation } = staffBookingsApi;
