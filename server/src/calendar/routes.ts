import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calendarFeedSchema, calendarFeedTokenParamSchema, CalendarFeedMessage, envelope } from 'shared-api/contract';
import { createOrRegenerateFeed, deleteFeed, feedForToken, feedStatus } from './feed';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses, publicRoute } from '../base/routes';

const tags = ['calendar feed'];
const feedAnswer = { 200: envelope(calendarFeedSchema), ...errorResponses(401, 403) };

/**
 * The staff's private calendar subscription: each account manages its own feed URL (staff routes), and calendar apps
 * fetch the feed by the URL alone (the token in it is the only key; unknown ones are rate-limited per address).
 */
export const calendarFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/staff/calendar-feed',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'getCalendarFeed',
        summary: "Whether the signed-in account has a calendar feed and since when (its URL is shown only when made)",
        security: bearerSecurity,
        response: feedAnswer,
      },
    },
    async (request) => ok(await feedStatus(app.db, request.staff!.id), CalendarFeedMessage.status),
  );

  app.post(
    '/staff/calendar-feed',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'createCalendarFeed',
        summary: 'Create the calendar feed URL, or regenerate it (the old URL stops working at once): the answer carries the URL, once',
        security: bearerSecurity,
        response: feedAnswer,
      },
    },
    async (request) => ok(await createOrRegenerateFeed(app.db, request.staff!.id, app.config.payments.apiPublicUrl), CalendarFeedMessage.created),
  );

  app.delete(
    '/staff/calendar-feed',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'deleteCalendarFeed',
        summary: 'Turn the calendar feed off (its URL answers 404 from now on)',
        security: bearerSecurity,
        response: feedAnswer,
      },
    },
    async (request) => ok(await deleteFeed(app.db, request.staff!.id), CalendarFeedMessage.turnedOff),
  );

  app.get(
    '/calendar/:token.ics',
    {
      schema: {
        tags,
        operationId: 'getCalendarFeedFile',
        security: publicRoute,
        summary: 'The iCalendar feed of booked visits (GMT+8) a feed URL opens: 404 for an unknown token, 429 after too many',
        params: calendarFeedTokenParamSchema,
        response: { 200: { description: 'The feed (iCalendar, GMT+8)', content: { 'text/calendar': { schema: z.string() } } }, ...errorResponses(404, 429) },
      },
    },
    async (request, reply) => {
      const ics = await feedForToken(app.db, request.params.token, request.ip);
      return reply.type('text/calendar; charset=utf-8').send(ics);
    },
  );
};
