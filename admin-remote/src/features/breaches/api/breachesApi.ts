// The breach log (issue 28, PDPA s. 12B): /staff/breaches, the people's contacts and their notice.
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
    /** 'commissioner-notified': record the Commissioner's notification; 'notify': mail every person the notice. */
    breachStep: build.mutation<Breach, { id: number; step: 'commissioner-notified' | 'notify' }>({
      query: ({ id, step }) => ({ url: `/staff/breaches/${id}/${step}`, method: 'POST' }),
      transformResponse: breachOf,
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

export const { useBreachesQuery, useLogBreachMutation, useBreachStepMutation, useBreachPeopleExportMutation } = breachesApi;
