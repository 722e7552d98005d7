import { api, type Envelope, type PaymentStatusResult } from 'shared-api';

// Payment status is read by the booking dialog's polling and by the result pages.
export const paymentStatusApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentStatus: build.query<PaymentStatusResult, string>({
      query: (id) => `/api/payment/status/${encodeURIComponent(id)}`,
      transformResponse: (body: Envelope<PaymentStatusResult>) => body.data,
      providesTags: (_r, _e, id) => [{ type: 'Payment', id }],
    }),
    getPaymentStatusByReference: build.query<PaymentStatusResult, string>({
      query: (reference) => `/api/payment/status/reference/${encodeURIComponent(reference)}`,
      transformResponse: (body: Envelope<PaymentStatusResult>) => body.data,
      providesTags: (_r, _e, reference) => [{ type: 'Payment', id: `ref:${reference}` }],
    }),
  }),
});

export const { useGetPaymentStatusQuery, useGetPaymentStatusByReferenceQuery } = paymentStatusApi;
