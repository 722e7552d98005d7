// Staff accounts for the Colleagues page (issue 15), injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { StaffAccount, StaffAccountList, StaffRoleBody } from 'shared-api/accounts';

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
    /** Make a colleague staff or admin; `self` when it is the signed-in account (its own role is read again). */
    setAccountRole: build.mutation<string, StaffRoleBody & { id: number; self: boolean }>({
      query: ({ id, role }) => ({ url: `/staff/accounts/${id}/role`, method: 'POST', body: { role } }),
      transformResponse: (response: Envelope<null>) => response.message,
      invalidatesTags: (_result, error, { self }) => (self && !error ? ['User'] : []),
    }),
    /** A colleague's lost phone: their second factor is set up again at their next admin action. */
    resetSecondFactor: build.mutation<string, number>({
      query: (id) => ({ url: `/staff/accounts/${id}/second-factor/reset`, method: 'POST' }),
      transformResponse: (response: Envelope<null>) => response.message,
    }),
  }),
});

export const { useStaffAccountsQuery, useDisableAccountMutation, useSetAccountRoleMutation, useResetSecondFactorMutation } =
  colleaguesApi;
