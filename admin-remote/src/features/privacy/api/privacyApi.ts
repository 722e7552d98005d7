// A person's data for an access or portability request (issue 28): GET /staff/privacy/person and its export; the
// request log (/staff/privacy/requests) and corrections of a visitor's details (/staff/privacy/corrections).
import { api, type Envelope } from 'shared-api';
import type { PersonFound, PrivacyRequest, VisitorCorrectionInput, VisitorCorrectionResult } from 'shared-api/contract';

export type PersonLookup = { by: 'email' | 'phone'; value: string };
export type PersonExport = PersonLookup & { format: 'json' | 'csv' | 'html' };
export type NewPrivacyRequest = {
  kind: 'access' | 'correction';
  email?: string;
  phone?: string;
  receivedOn: string;
  note: string;
};

const search = ({ by, value }: PersonLookup) => new URLSearchParams({ [by]: value.trim() }).toString();
const REQUESTS = 'PrivacyRequests' as const;
const requestsOf = (response: Envelope<{ requests: PrivacyRequest[] }>) => response.data.requests;
/** A change's answer: the request as it is now. */
const requestOf = (response: Envelope<{ request: PrivacyRequest }>) => response.data.request;

export const privacyApi = api.enhanceEndpoints({ addTagTypes: [REQUESTS] }).injectEndpoints({
  endpoints: (build) => ({
    person: build.query<PersonFound, PersonLookup>({
      query: (lookup) => `/staff/privacy/person?${search(lookup)}`,
      transformResponse: (response: Envelope<PersonFound>) => response.data,
      // Each look-up is a new audited access: never answered from the cache.
      keepUnusedDataFor: 0,
    }),
    /** Open access and correction requests due within `days` (the dashboard's "coming due"), soonest first. */
    requestsComingDue: build.query<PrivacyRequest[], number>({
      query: (days) => `/staff/privacy/requests?dueWithinDays=${days}`,
      transformResponse: requestsOf,
      providesTags: [REQUESTS],
    }),
    /** The whole request log, soonest due first. */
    privacyRequests: build.query<PrivacyRequest[], void>({
      query: () => '/staff/privacy/requests',
      transformResponse: requestsOf,
      providesTags: [REQUESTS],
    }),
    logPrivacyRequest: build.mutation<PrivacyRequest, NewPrivacyRequest>({
      query: (body) => ({ url: '/staff/privacy/requests', method: 'POST', body }),
      transformResponse: requestOf,
      invalidatesTags: [REQUESTS],
    }),
    changePrivacyRequest: build.mutation<PrivacyRequest, { id: number; change: 'extend' | 'answer' }>({
      query: ({ id, change }) => ({ url: `/staff/privacy/requests/${id}/${change}`, method: 'POST' }),
      transformResponse: requestOf,
      invalidatesTags: [REQUESTS],
    }),
    correctVisitor: build.mutation<VisitorCorrectionResult, VisitorCorrectionInput>({
      query: (body) => ({ url: '/staff/privacy/corrections', method: 'POST', body }),
      transformResponse: (response: Envelope<VisitorCorrectionResult>) => response.data,
    }),
    personExport: build.mutation<string, PersonExport>({
      query: ({ format, ...lookup }) => ({
        url: `/staff/privacy/person/export?${search(lookup)}&format=${format}`,
        responseHandler: 'text',
      }),
    }),
  }),
});

export const {
  useLazyPersonQuery,
  usePersonQuery,
  usePersonExportMutation,
  useRequestsComingDueQuery,
  usePrivacyRequestsQuery,
  useLogPrivacyRequestMutation,
  useChangePrivacyRequestMutation,
  useCorrectVisitorMutation,
} = privacyApi;
