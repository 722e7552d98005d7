// Staff accounts for the Colleagues page (issue 15), injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { StaffAccount, StaffAccountList } from 'shared-api/accounts';

export const colleaguesApi = api.injectEndpoints({
  endpoints: (build) => ({
    staffAccounts: build.query<StaffAccount[], void>({
      query: () => '/staff/accounts',
      transformResponse: (response: Envelope<StaffAccountList>) => response.data.accounts,
    }),
    disableAccount: build.mutation<string, number>({
      query: (id) => ({ url: `/staff/accounts/${id}/disable`, method: 'POST' }),
      transformResponse: (response: Envelope<null>) => response.message,
    }),
  }),
});

export const { useStaffAccountsQuery, useDisableAccountMutation } = colleaguesApi;
