// The breach log (issue 28, PDPA s. 12B): /staff/breaches, the people's contacts and their notice.
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { api, type Envelope } from 'shared-api';
import type { Breach, NewBreachInput } from 'shared-api/contract';

const BREACHES = 'Breaches' as const;
/** A change's answer: the breach as it is now. */
const breachOf = (response: Envelope<{ breach: Breach }>) => response.data.breach;

export const breachesApi = api.enhanceEndpoints({ addTagTypes: [BREACHES] }).injectEndpoints({
  endpoints: (build) => ({
    breaches: build.query<Breach[], void>({
      query: () => '/staff/breaches',
      transformResponse: (response: Envelope<{ breaches: Breach[] }>) => response.data.breaches,
      providesTags: [BREACHES],
    }),
    logBreach: build.mutation<Breach, NewBreachInput>({
      query: (body) => ({ url: '/staff/breaches', method: 'POST', body }),
      transformResponse: breachOf,
      invalidatesTags: [BREACHES],
    }),
    /** 'commissioner-notified': record the Commissioner's notification (the people's mailing is notifyBreachPeople). */
    breachStep: build.mutation<Breach, { id: number; step: 'commissioner-notified' }>({
      query: ({ id, step }) => ({ url: `/staff/breaches/${id}/${step}`, method: 'POST' }),
      transformResponse: breachOf,
      invalidatesTags: [BREACHES],
    }),
    /**
     * Mail every person the notice. Where the school has two enabled admins or more, the first press only asks (202,
     * `asked`: nothing mailed, the breach says who asked and when) and a second admin's press sends.
     */
    notifyBreachPeople: build.mutation<{ breach: Breach; asked: boolean }, number>({
      query: (id) => ({ url: `/staff/breaches/${id}/notify`, method: 'POST' }),
      transformResponse: (response: Envelope<{ breach: Breach }>, meta) => ({
        breach: breachOf(response),
        asked: (meta as FetchBaseQueryMeta | undefined)?.response?.status === 202,
      }),
      invalidatesTags: [BREACHES],
    }),
    breachPeopleExport: build.mutation<string, { id: number; format: 'json' | 'csv' }>({
      query: ({ id, format }) => ({
        url: `/staff/breaches/${id}/people?format=${format}`,
        responseHandler: 'text',
      }),
    }),
  }),
});

export const {
  useBreachesQuery,
  useLogBreachMutation,
  useBreachStepMutation,
  useNotifyBreachPeopleMutation,
  useBreachPeopleExportMutation,
} = breachesApi;
