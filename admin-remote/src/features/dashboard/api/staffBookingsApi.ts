// A paid booking as staff see it (its history and refund), staff cancel, and every paid booking for the CSV export.
import { api, type Envelope, type StaffBooking, type StaffBookingRow, type UnconfirmedVisits } from 'shared-api';
import { staffBookingListSchema, staffBookingSchema, unconfirmedVisitsSchema } from 'shared-api/manage';
import { attendanceListSchema, type AttendanceRecord } from 'shared-api/visit-day';

export const staffBookingsApi = api.injectEndpoints({
  endpoints: (build) => {
    /**
     * A staff change to a booking (POST /staff/bookings/:reference/<action> with the rest of the argument as body). Its
     * answer is the booking as it is now: it replaces the one Appointment Details shows (no tag needed). A slot was
     * freed (and, for a move, another booked), so both slot lists change. A refusal is shown by the caller.
     */
    const bookingChange = <Body extends object>(action: 'cancel' | 'move') =>
      build.mutation<StaffBooking, { reference: string } & Body>({
        query: ({ reference, ...body }) => ({ url: `/staff/bookings/${encodeURIComponent(reference)}/${action}`, method: 'POST', body }),
        transformResponse: (response: Envelope<unknown>) => staffBookingSchema.parse(response.data),
        invalidatesTags: ['StaffSlots', 'PublicSlots'],
        async onQueryStarted({ reference }, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(staffBookingsApi.util.upsertQueryData('staffBooking', reference, data));
          } catch {
            // The caller shows the refusal and reads the booking again.
          }
        },
      });

    return {
      staffBooking: build.query<StaffBooking, string>({
        query: (reference) => `/staff/bookings/${encodeURIComponent(reference)}`,
        transformResponse: (response: Envelope<unknown>) => staffBookingSchema.parse(response.data),
      }),
      /** Every paid booking, cancelled ones too (a cancelled booking has freed its slot, so the slot list no longer shows it). */
      staffBookings: build.query<StaffBookingRow[], void>({
        query: () => '/staff/bookings',
        transformResponse: (response: Envelope<unknown>) => staffBookingListSchema.parse(response.data).bookings,
      }),
      /** A day's visits (GMT+8, YYYY-MM-DD) no parent has confirmed; a staff move or cancel changes the slots, so it is read again. */
      unconfirmedVisits: build.query<UnconfirmedVisits, string>({
        query: (day) => ({ url: '/staff/visits/unconfirmed', params: { day } }),
        transformResponse: (response: Envelope<unknown>) => unconfirmedVisitsSchema.parse(response.data),
        providesTags: ['StaffSlots'],
      }),
      /** Issue 40: the Arrived / No-show marks of the visits of a range of GMT+8 days (the Today view's marks change them). */
      visitAttendance: build.query<AttendanceRecord[], { from: string; to: string }>({
        query: (range) => ({ url: '/staff/visits/attendance', params: range }),
        transformResponse: (response: Envelope<unknown>) => attendanceListSchema.parse(response.data).records,
        providesTags: ['VisitDay'],
      }),
      // `child`: one child of a booking of several (issue 37), the others staying booked.
      cancelStaffBooking: bookingChange<{ refund: boolean; child?: number }>('cancel'),
      moveStaffBooking: bookingChange<{ slotId: number; child?: number }>('move'),
    };
  },
});

export const { useStaffBookingQuery, useLazyStaffBookingsQuery, useCancelStaffBookingMutation, useMoveStaffBookingMutation, useUnconfirmedVisitsQuery, useVisitAttendanceQuery, useLazyVisitAttendanceQuery } = staffBookingsApi;
