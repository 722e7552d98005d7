// The admin's second factor (issue 35), injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { RecoveryCodes, SecondFactorEnrolment, SecondFactorStatus } from 'shared-api/accounts';

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
      transformResponse: (response: Envelope<RecoveryCodes>) => response.data,
    }),
    verifySecondFactor: build.mutation<
      { steppedUpUntil: string; recoveryCodesLeft: number },
      { code: string }
    >({
      query: (body) => ({ url: '/auth/second-factor/verify', method: 'POST', body }),
      transformResponse: (response: Envelope<{ steppedUpUntil: string; recoveryCodesLeft: number }>) =>
        response.data,
    }),
  }),
});

export const {
  useSecondFactorStatusQuery,
  useStartSecondFactorEnrolmentMutation,
  useConfirmSecondFactorEnrolmentMutation,
  useVerifySecondFactorMutation,
} = secondFactorApi;
