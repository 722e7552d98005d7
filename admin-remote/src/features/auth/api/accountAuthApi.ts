// Log out everywhere and the forgot-password flow (issue 15), injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { PasswordResetConfirmBody, PasswordResetRequestBody } from 'shared-api/accounts';

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
    confirmPasswordReset: build.mutation<string, PasswordResetConfirmBody>({
      query: (body) => ({ url: '/auth/password-reset/confirm', method: 'POST', body }),
      transformResponse: (response: Envelope<null>) => response.message,
    }),
  }),
});

export const { useLogoutAllMutation, useRequestPasswordResetMutation, useConfirmPasswordResetMutation } = accountAuthApi;
