import fp from 'fastify-plugin';

/** The wait a 429 names when its route gave none (a cap, not a window: asking again later is all a client can do). */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** Retry-After's delay-seconds: a whole number of seconds, at least 1. */
export const retryAfterValue = (seconds: number): string => String(Math.max(1, Math.ceil(seconds)));

/**
 * Every 429 says when to ask again: routes name their wait (AppError.retryAfterSeconds, or the header itself), and a
 * 429 sent without one, by any route now or later, gets DEFAULT_RETRY_AFTER_SECONDS here, just before it leaves.
 */
export const retryAfterPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode === 429 && reply.getHeader('retry-after') === undefined) reply.header('retry-after', retryAfterValue(DEFAULT_RETRY_AFTER_SECONDS));
      return payload;
    });
  },
  { name: 'retry-after' },
);
