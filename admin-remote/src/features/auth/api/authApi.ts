// Staff account endpoints, injected into the one shared API.
import { api, type Envelope, type User } from 'shared-api';

export type LoginRequest = { email: string; password: string };
export type LoginResult = { token: string; expiresAt: string };
export type RegisterRequest = { email: string; username?: string; password: string };

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResult, LoginRequest>({
      // With credentials: the API's HttpOnly known-device cookie lets this browser in ahead of a login flood.
      query: (body) => ({ url: '/auth/login', method: 'POST', body, credentials: 'include' }),
      transformResponse: (response: Envelope<LoginResult>) => response.data,
    }),
    logout: build.mutation<null, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
      transformResponse: () => null,
    }),
    register: build.mutation<{ user: User }, RegisterRequest>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
      transformResponse: (response: Envelope<{ user: User }>) => response.data,
    }),
    currentUser: build.query<User, void>({
      query: () => '/user',
      // The spec reads the current user at data.data.user.
      transformResponse: (response: Envelope<{ data: { user: User } }>) => response.data.data.user,
      providesTags: ['User'],
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation, useRegisterMutation, useCurrentUserQuery } = authApi;
