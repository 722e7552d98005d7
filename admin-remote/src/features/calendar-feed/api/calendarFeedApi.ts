// The signed-in account's private calendar feed URL: its status, create / regenerate (the URL is in that answer only) and turn off.
import { api, type CalendarFeed, type Envelope } from 'shared-api';
import { calendarFeedSchema } from 'shared-api/calendar-feed';

const parse = (response: Envelope<unknown>): CalendarFeed => calendarFeedSchema.parse(response.data);

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
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(calendarFeedApi.util.upsertQueryData('calendarFeed', undefined, { ...data, url: null }));
        } catch {
          // The caller shows the refusal.
        }
      },
    }),
    deleteCalendarFeed: build.mutation<CalendarFeed, void>({
      query: () => ({ url: '/staff/calendar-feed', method: 'DELETE' }),
      transformResponse: parse,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(calendarFeedApi.util.upsertQueryData('calendarFeed', undefined, data));
        } catch {
          // The caller shows the refusal.
        }
      },
    }),
  }),
});

export const { useCalendarFeedQuery, useCreateCalendarFeedMutation, useDeleteCalendarFeedMutation } =
  calendarFeedApi;
