import {
  api,
  HOLD_MINUTES,
  type Envelope,
  type InitiateBody,
  type PaymentSession,
  type Pricing,
  type Reservation,
} from 'shared-api';
import { paymentKeyHeaders } from '../../../lib/paymentKeys';
import type { PaymentLookup } from '../../../lib/paymentStatusApi';

export const bookingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPricing: build.query<Pricing['pricing'], void>({
      query: () => '/api/payment/pricing',
      transformResponse: (body: Envelope<Pricing>) => body.data.pricing,
      providesTags: ['Pricing'],
    }),
    /** `proofOfWork`: a solved hold-limit challenge (utils/holdLimit.ts), when the first answer was 429 HOLD_LIMIT. */
    reserveSlot: build.mutation<Reservation, { slotId: number; minutes?: number; proofOfWork?: string }>({
      query: ({ slotId, minutes = HOLD_MINUTES, proofOfWork }) => ({ url: `/slot/${slotId}/reserve`, method: 'POST', body: { minutes, proofOfWork } }),
      transformResponse: (body: Envelope<Reservation>) => body.data,
    }),
    releaseSlot: build.mutation<null, { slotId: number; token: string }>({
      query: ({ slotId, token }) => ({ url: `/slot/${slotId}/release`, method: 'POST', body: { token } }),
      transformResponse: () => null,
      invalidatesTags: ['PublicSlots'],
    }),
    /** The session, or null when the answer carries no usable session (an invalid response). */
    initiatePayment: build.mutation<PaymentSession | null, InitiateBody>({
      query: (body) => ({ url: '/api/payment/initiate', method: 'POST', body }),
      transformResponse: (body: Envelope<{ paymentSession?: PaymentSession }> | null) => {
        const session = body?.data?.paymentSession;
        return session && (session.paymentId || session.id) && session.checkoutUrl ? session : null;
      },
    }),
    /** Only the browser that started the payment can cancel it: it sends the payment's key (the session's holdToken). */
    cancelPayment: build.mutation<null, PaymentLookup>({
      query: ({ id, key }) => ({ url: `/api/payment/${encodeURIComponent(id)}/cancel`, method: 'POST', headers: paymentKeyHeaders(key) }),
      transformResponse: () => null,
    }),
  }),
});

export const {
  useGetPricingQuery,
  useReserveSlotMutation,
  useReleaseSlotMutation,
  useInitiatePaymentMutation,
  useCancelPaymentMutation,
} = bookingApi;
