import { api, type Envelope } from 'shared-api';
import {
  waitlistAcceptSchema,
  waitlistDisownSchema,
  waitlistEntryViewSchema,
  waitlistOfferViewSchema,
  type WaitlistAccept,
  type WaitlistDates,
  type WaitlistDisown,
  type WaitlistEntryView,
  type WaitlistJoinBodyInput,
  type WaitlistOfferView,
} from 'shared-api/waitlist';

const path = (token: string) => encodeURIComponent(token);

// The fair waitlist (issue 26): join (202, the same answer whether new or already on the list), the entry link's page
// (place, dates, change, leave) and the offer link's page (accept: the slot's hold token, then pay as after a reserve).
// Answers are parsed by the contract's schemas: a page never shows what it cannot read.
export const waitlistApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `proofOfWork`: a solved limit challenge, when the first answer was 429 with one (as holds). */
    joinWaitlist: build.mutation<{ mailed: true }, WaitlistJoinBodyInput>({
      query: (body) => ({ url: '/api/waitlist', method: 'POST', body }),
      transformResponse: () => ({ mailed: true as const }),
    }),
    getWaitlistEntry: build.query<WaitlistEntryView, string>({
      query: (token) => `/api/waitlist/entry/${path(token)}`,
      transformResponse: (body: Envelope<unknown>) => waitlistEntryViewSchema.parse(body.data),
    }),
    updateWaitlistEntry: build.mutation<WaitlistEntryView, { token: string; dates: WaitlistDates }>({
      query: ({ token, dates }) => ({ url: `/api/waitlist/entry/${path(token)}`, method: 'PUT', body: dates }),
      transformResponse: (body: Envelope<unknown>) => waitlistEntryViewSchema.parse(body.data),
    }),
    leaveWaitlist: build.mutation<WaitlistEntryView, string>({
      query: (token) => ({ url: `/api/waitlist/entry/${path(token)}/leave`, method: 'POST' }),
      transformResponse: (body: Envelope<unknown>) => waitlistEntryViewSchema.parse(body.data),
    }),
    /** The mail's confirmation: the request joins the list (the answer is the entry, waiting, with its place). */
    confirmWaitlistEntry: build.mutation<WaitlistEntryView, string>({
      query: (token) => ({ url: `/api/waitlist/entry/${path(token)}/confirm`, method: 'POST' }),
      transformResponse: (body: Envelope<unknown>) => waitlistEntryViewSchema.parse(body.data),
    }),
    /** "This wasn't me": the request ends and the address is blocked from joins until `blockedUntil`. */
    disownWaitlistEntry: build.mutation<WaitlistDisown, string>({
      query: (token) => ({ url: `/api/waitlist/entry/${path(token)}/not-me`, method: 'POST' }),
      transformResponse: (body: Envelope<unknown>) => waitlistDisownSchema.parse(body.data),
    }),
    getWaitlistOffer: build.query<WaitlistOfferView, string>({
      query: (token) => `/api/waitlist/offer/${path(token)}`,
      transformResponse: (body: Envelope<unknown>) => waitlistOfferViewSchema.parse(body.data),
    }),
    acceptWaitlistOffer: build.mutation<WaitlistAccept, string>({
      query: (token) => ({ url: `/api/waitlist/offer/${path(token)}/accept`, method: 'POST' }),
      transformResponse: (body: Envelope<unknown>) => waitlistAcceptSchema.parse(body.data),
      invalidatesTags: ['PublicSlots'],
    }),
    declineWaitlistOffer: build.mutation<{ state: 'declined' }, string>({
      query: (token) => ({ url: `/api/waitlist/offer/${path(token)}/decline`, method: 'POST' }),
      transformResponse: () => ({ state: 'declined' as const }),
      invalidatesTags: ['PublicSlots'],
    }),
  }),
});

export const {
  useJoinWaitlistMutation,
  useGetWaitlistEntryQuery,
  useUpdateWaitlistEntryMutation,
  useLeaveWaitlistMutation,
  useConfirmWaitlistEntryMutation,
  useDisownWaitlistEntryMutation,
  useGetWaitlistOfferQuery,
  useAcceptWaitlistOfferMutation,
  useDeclineWaitlistOfferMutation,
} = waitlistApi;
