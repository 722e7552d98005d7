// The signed-in account's private calendar feed URL: its status, create / regenerate (the URL is in that answer only) and turn off.
import { api, type AppDispatch, type CalendarFeed, type Envelope } from 'shared-api';
import { calendarFeedSchema } from 'shared-api/calendar-feed';

const parse = (response: Envelope<unknown>): CalendarFeed => calendarFeedSchema.parse(response.data);

/** After a change, the feed's status (the calendarFeed query) shows the change's answer, as `shown` keeps it. */
async function showInStatus(dispatch: AppDispatch, answer: Promise<{ data: CalendarFeed }>, shown: (feed: CalendarFeed) => CalendarFeed): Promise<void> {
  try {
    const { data } = await answer;
    dispatch(calendarFeedApi.util.upsertQueryData('calendarFeed', undefined, shown(data)));
  } catch {
    // The caller shows the refusal.
  }
}

export const calendarFeedApi = api.injectEndpoints({
  endpoints: (build) => ({
    calendarFeed: build.query<CalendarFeed, void>({
      query: () => '/staff/calendar-feed',
      transformResponse: parse,
    }),
    /** Creates the feed or regenerates it (the old URL stops working): the answer is the only time its URL is known. */
    createCalendarFeed: build.mutation<CalendarFeed, void>({
      query: () => ({ url: '/staff/calendar-feed', method: 'POST' }),
      transformResponse: parse,
      // The status keeps no URL: the page shows it from this answer only.
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => showInStatus(dispatch, queryFulfilled, (feed) => ({ ...feed, url: null })),
    }),
    deleteCalendarFeed: build.mutation<CalendarFeed, void>({
      query: () => ({ url: '/staff/calendar-feed', method: 'DELETE' }),
      transformResponse: parse,
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => showInStatus(dispatch, queryFulfilled, (feed) => feed),
    }),
  }),
});

export const { useCalendarFeedQuery, useCreateCalendarFeedMutation, useDeleteCalendarFeedMutation } = calendarFeedApi;
