// The staff's private calendar subscription (issue 15): one secret feed URL per staff account, of every booked visit.
// One contract for the server's routes and the admin remote's Calendar feed panel (lazy chunk, `shared-api/calendar-feed`).
import { z } from 'zod';

/** A feed token as it appears in `/calendar/:token.ics`: 43 base64url characters (32 random bytes). */
export const CALENDAR_FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const calendarFeedTokenParamSchema = z.object({ token: z.string().max(200) });

/** The feed path on the API for a token. */
export const calendarFeedPath = (token: string): string => `/calendar/${token}.ics`;

/** Visits that started longer ago than this are left out of the feed. */
export const CALENDAR_FEED_PAST_DAYS = 30;

/**
 * GET / POST / DELETE /staff/calendar-feed: whether the signed-in account has a feed and since when. Only the token's
 * hash is stored, so `url` is given once, in the answer of POST (create or regenerate); otherwise it is null.
 */
export const calendarFeedSchema = z.object({
  active: z.boolean(),
  /** ISO instant the current URL was made; null without a feed. */
  createdAt: z.string().nullable(),
  url: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

export const CalendarFeedMessage = {
  status: 'Calendar feed',
  created: 'Calendar link created. Copy it now: it is shown only once.',
  turnedOff: 'Calendar link turned off.',
  notFound: 'Calendar feed not found.',
  tooManyTries: 'Too many unknown calendar links from this address. Please try again later.',
} as const;
