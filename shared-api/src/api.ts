import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { apiConfig } from './config';
import { getToken, removeToken } from './token';

export const REQUEST_TIMEOUT_MS = 15_000;

// The base URL is read per request so that runtime configuration (remotes.json) can set it after import.
const rawBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = (args, api, extra) =>
  fetchBaseQuery({
    baseUrl: apiConfig.baseUrl,
    timeout: REQUEST_TIMEOUT_MS,
    prepareHeaders: (headers) => {
      const token = getToken();
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return headers;
    },
  })(args, api, extra);

/** A 401 on a call that carried a token ends the session: cookie removed, back to /login. */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const hadToken = Boolean(getToken());
  const result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 401 && hadToken) {
    removeToken();
    apiConfig.onUnauthorized();
  }
  return result;
};

/** The one API of the product; remotes add their endpoints with `api.injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['PublicSlots', 'StaffSlots', 'Pricing', 'Payment', 'User', 'Health', 'VisitDay'],
  endpoints: () => ({}),
});
