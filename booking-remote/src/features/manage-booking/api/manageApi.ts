import { api, PUBLIC_TIMETABLE_LIST_PATH, type Envelope, type ManageLink, type ManageView } from 'shared-api';
import { paymentKeyHeaders } from '../../../lib/paymentKeys';
import type { PaymentLookup } from '../../../lib/paymentStatusApi';

/** One manage call's result as the page uses it: the booking and the server's words for what happened. */
export type ManageResult = { view: ManageView; message: string };

const asResult = (body: Envelope<ManageView>): ManageResult => ({ view: body.data, message: body.message });

// The parent's manage link (issue 13): the success and thank-you pages ask for a link; the manage page reads the
// booking, moves it to another free slot or cancels it. A change answers with the booking as it now is (the page puts
// it in place of the cached one, see hooks/useManagedBooking); the freed slot goes back to the public list.
export const manageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Only for the browser that paid: the payment id with the payment's key. */
    createManageLink: build.mutation<ManageLink, PaymentLookup>({
      query: ({ id, key }) => ({ url: '/api/booking/manage-link', method: 'POST', body: { paymentId: id }, headers: paymentKeyHeaders(key) }),
      transformResponse: (body: Envelope<ManageLink>) => body.data,
    }),
    getManagedBooking: build.query<ManageResult, string>({
      query: (token) => `/api/booking/manage/${encodeURIComponent(token)}`,
      transformResponse: asResult,
    }),
    rescheduleBooking: build.mutation<ManageResult, { token: string; slotId: number }>({
      query: ({ token, slotId }) => ({ url: `/api/booking/manage/${encodeURIComponent(token)}/reschedule`, method: 'POST', body: { slotId } }),
      transformResponse: asResult,
      invalidatesTags: (result) => (result ? ['PublicSlots'] : []),
    }),
    /** `child`: one child of a booking of several (issue 37), the others staying booked. */
    cancelBooking: build.mutation<ManageResult, { token: string; expectedRefundSen: number; child?: number }>({
      query: ({ token, expectedRefundSen, child }) => ({
        url: `/api/booking/manage/${encodeURIComponent(token)}/cancel`,
        method: 'POST',
        body: { expectedRefundSen, ...(child !== undefined && { child }) },
      }),
      transformResponse: asResult,
      invalidatesTags: (result) => (result ? ['PublicSlots'] : []),
    }),
    /** No more WhatsApp messages about this booking (issue 38); email goes on. */
    stopWhatsApp: build.mutation<ManageResult, { token: string }>({
      query: ({ token }) => ({ url: `/api/booking/manage/${encodeURIComponent(token)}/whatsapp-off`, method: 'POST' }),
      transformResponse: asResult,
    }),
    /** The public list the timetable reads (same route, same tag), for picking a new time. */
    getFreeSlots: build.query<unknown, void>({
      query: () => PUBLIC_TIMETABLE_LIST_PATH,
      providesTags: ['PublicSlots'],
    }),
  }),
});

export const { useCreateManageLinkMutation, useGetManagedBookingQuery, useRescheduleBookingMutation, useCancelBookingMutation, useGetFreeSlotsQuery, useStopWhatsAppMutation } =
  manageApi;
