// Log out everywhere and the forgot-password flow (issue 15), injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { PasswordResetCheckBody, PasswordResetConfirmBody, PasswordResetRequestBody } from 'shared-api/accounts';

export const accountAuthApi = api.injectEndpoints({
  endpoints: (build) => ({
    logoutAll: build.mutation<{ revoked: number }, void>({
      query: () => ({ url: '/auth/logout-all', method: 'POST' }),
      transformResponse: (response: Envelope<{ revoked: number }>) => response.data,
    }),
    requestPasswordReset: build.mutation<string, PasswordResetRequestBody>({
      query: (body) => ({ url: '/auth/password-reset/request', method: 'POST', body }),
      transformResponse: (response: Envelope<null>) => response.message,
    }),
    /** Whether the link still works, asked when its page opens; a 400 says it does not (used, expired or unknown). */
    checkPasswordReset: build.query<true, PasswordResetCheckBody>({
      query: (body) => ({ url: '/auth/password-reset/check', method: 'POST', body }),
      transformResponse: () => true as const,
      keepUnusedDataFor: 0,
    }),
    confirmPasswordReset: build.mutation<string, PasswordResetConfirmBody>({
      query: (body) => ({ url: '/auth/password-reset/confirm', method: 'POST', body }),
      transformResponse: (response: Envelope<null>) => response.message,
    }),
  }),
});

export const { useLogoutAllMutation, useRequestPasswordResetMutation, useCheckPasswordResetQuery, useConfirmPasswordResetMutation } = accountAuthApi;
