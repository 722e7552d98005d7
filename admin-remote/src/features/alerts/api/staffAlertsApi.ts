// Mail unsent for over an hour and refunds that keep failing, injected into the one shared API.
import { api, type Envelope, type StaffAlerts } from 'shared-api';

/** How often the dashboard asks again while it is open (the server's figures move by the minute, not the second). */
export const STAFF_ALERTS_POLL_MS = 60_000;

export const staffAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    staffAlerts: build.query<StaffAlerts, void>({
      query: () => '/staff/alerts',
      transformResponse: (response: Envelope<StaffAlerts>) => response.data,
    }),
  }),
});

const subscription = { pollingInterval: STAFF_ALERTS_POLL_MS, skipPollingIfUnfocused: true };

/** The alerts, polled while the page is open and in focus. */
export const useStaffAlerts = () => staffAlertsApi.useStaffAlertsQuery(undefined, subscription);

/** Only the refetch, for the dashboard's Refresh: the caller does not re-render when the alerts change. */
export const useRefetchStaffAlerts = () => staffAlertsApi.useStaffAlertsQuery(undefined, { ...subscription, selectFromResult: () => ({}) }).refetch;
