import { api, type Envelope, type PaymentStatusResult } from 'shared-api';
import { paymentKeyHeaders } from './paymentKeys';

/** A payment to ask about, and its key when this browser started it (without one the answer has no personal data). */
export type PaymentLookup = { id: string; key: string | null };

// Payment status is read by the booking dialog's polling and by the result pages.
export const paymentStatusApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentStatus: build.query<PaymentStatusResult, PaymentLookup>({
      query: ({ id, key }) => ({ url: `/api/payment/status/${encodeURIComponent(id)}`, headers: paymentKeyHeaders(key) }),
      transformResponse: (body: Envelope<PaymentStatusResult>) => body.data,
      providesTags: (_r, _e, { id }) => [{ type: 'Payment', id }],
    }),
    getPaymentStatusByReference: build.query<PaymentStatusResult, PaymentLookup>({
      query: ({ id, key }) => ({ url: `/api/payment/status/reference/${encodeURIComponent(id)}`, headers: paymentKeyHeaders(key) }),
      transformResponse: (body: Envelope<PaymentStatusResult>) => body.data,
      providesTags: (_r, _e, { id }) => [{ type: 'Payment', id: `ref:${id}` }],
    }),
  }),
});

export const { useGetPaymentStatusQuery, useGetPaymentStatusByReferenceQuery } = paymentStatusApi;
