// The admin's second factor (issue 35), injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { RecoveryCodes, SecondFactorEnrolment, SecondFactorStatus } from 'shared-api/accounts';

type SteppedUp = { steppedUpUntil: string; recoveryCodesLeft: number };

export const secondFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
    secondFactorStatus: build.query<SecondFactorStatus, void>({
      query: () => '/auth/second-factor',
      transformResponse: (response: Envelope<SecondFactorStatus>) => response.data,
      // Asked afresh each time a gate mounts: a step-up ends after 12 hours, or with a new session.
      keepUnusedDataFor: 0,
    }),
    startSecondFactorEnrolment: build.mutation<SecondFactorEnrolment, void>({
      query: () => ({ url: '/auth/second-factor/enrol', method: 'POST' }),
      transformResponse: (response: Envelope<SecondFactorEnrolment>) => response.data,
    }),
    confirmSecondFactorEnrolment: build.mutation<RecoveryCodes, { code: string }>({
      query: (body) => ({ url: '/auth/second-factor/enrol/confirm', method: 'POST', body }),
      // Not marked stepped up yet: the recovery codes are shown first (the gate's "I have saved" does it, steppedUp).
      transformResponse: (response: Envelope<RecoveryCodes>) => response.data,
    }),
    verifySecondFactor: build.mutation<SteppedUp, { code: string }>({
      query: (body) => ({ url: '/auth/second-factor/verify', method: 'POST', body }),
      transformResponse: (response: Envelope<SteppedUp>) => response.data,
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(({ data }) => void dispatch(steppedUp(data.steppedUpUntil)), () => undefined),
    }),
  }),
});

/** What every gate reads once this session has given the second factor: the next admin page opens at once. */
export const steppedUp = (until: string) =>
  secondFactorApi.util.upsertQueryData('secondFactorStatus', undefined, { enrolled: true, steppedUpUntil: until });

export const { useSecondFactorStatusQuery, useStartSecondFactorEnrolmentMutation, useConfirmSecondFactorEnrolmentMutation, useVerifySecondFactorMutation } =
  secondFactorApi;
