// The waitlist for staff (issue 26): the list per school, move up/down and remove (each with a reason, audited by the
// server), and the dashboard's counts. Injected into the one shared API; answers parsed by the contract's schemas.
import { api, type Envelope } from 'shared-api';
import { staffWaitlistSchema, staffWaitlistSummarySchema, type StaffWaitlist, type StaffWaitlistSummary } from 'shared-api/waitlist';

const parseList = (body: Envelope<unknown>) => staffWaitlistSchema.parse(body.data);

export const staffWaitlistApi = api.injectEndpoints({
  endpoints: (build) => ({
    staffWaitlist: build.query<StaffWaitlist, string>({
      // '' is every school (the list opens on all of them: parents may wait at any).
      query: (school) => (school ? `/staff/waitlist?${new URLSearchParams({ school }).toString()}` : '/staff/waitlist'),
      transformResponse: parseList,
    }),
    moveWaitlistEntry: build.mutation<StaffWaitlist, { id: number; school: string; direction: 'up' | 'down'; reason: string }>({
      query: ({ id, direction, reason }) => ({ url: `/staff/waitlist/${id}/move`, method: 'POST', body: { direction, reason } }),
      transformResponse: parseList,
      // The answer is the list as it now is: put it in place of the cached one.
      async onQueryStarted({ school }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(staffWaitlistApi.util.upsertQueryData('staffWaitlist', school, data));
      },
    }),
    removeWaitlistEntry: build.mutation<StaffWaitlist, { id: number; school: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/staff/waitlist/${id}/remove`, method: 'POST', body: { reason } }),
      transformResponse: parseList,
      async onQueryStarted({ school }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(staffWaitlistApi.util.upsertQueryData('staffWaitlist', school, data));
      },
    }),
    staffWaitlistSummary: build.query<StaffWaitlistSummary, void>({
      query: () => '/staff/waitlist/summary',
      transformResponse: (body: Envelope<unknown>) => staffWaitlistSummarySchema.parse(body.data),
    }),
  }),
});

export const { useStaffWaitlistQuery, useMoveWaitlistEntryMutation, useRemoveWaitlistEntryMutation, useStaffWaitlistSummaryQuery } =
  staffWaitlistApi;
