import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BOOKING_LEAD_HOURS,
  TIMEZONE,
  envelope,
  publicListGroupedSchema,
  publicListLegacySchema,
  listChangesQuerySchema,
  listVersionSchema,
  publicListQuerySchema,
  publicSlotSchema,
  ErrorCode,
  PUBLIC_LIST_CHANGES_PATH,
} from 'shared-api/contract';
import { listPublicSlots } from './slot-service';
import { groupByWeek, toPublicSlot } from './present';
import { createPublicListCache } from './public-list-cache';
import { createListChanges, ListenerLost, TooManyFromNetwork } from './list-changes';

/** The client network the list's waits are counted by (as holds are): IPv4 /24, IPv6 /56. */
const LIST_CHANGES_NETWORK_BITS: NetworkBits = { v4: 24, v6: 56 };
/** When a network at its waits may ask again (one of its waits ends within 25 s anyway). */
const LIST_CHANGES_NETWORK_RETRY_SECONDS = 5;
import { errorResponses, publicRoute } from '../base/routes';
import { AppError, DatabaseUnavailableMessage, ok } from '../base/errors';
import { networkOf, type NetworkBits } from '../base/client-address';

const listAnswer = envelope(z.union([publicListLegacySchema, z.array(publicSlotSchema), publicListGroupedSchema]));

export const publicRoutes: FastifyPluginAsyncZod = async (app) => {
  // Enrolment day: hundreds of parents read the same list; it is rebuilt only when a slot changed or after 1 s.
  const cache = createPublicListCache(app.db);
  app.get(
    '/public/list',
    {
      schema: {
        tags: ['public'],
        operationId: 'listPublicSlots',
        security: publicRoute,
        summary: 'Upcoming bookable slots (no visitor data): legacy, flat or grouped by week',
        querystring: publicListQuerySchema,
        response: {
          200: listAnswer,
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { limit, page, format } = request.query;
      const body = await cache.get(`${limit}|${page}|${format}`, async () => {
        const now = new Date();
        const { rows, total } = await listPublicSlots(app.db, { limit, page });
        const list = rows.map((r) => toPublicSlot(r, now));
        const message = total === 0 ? 'No slots found for the requested criteria' : `${total} slot(s) available`;
        const answer =
          format === 'flat'
            ? { success: true, data: list, message }
            : format === 'grouped'
              ? { success: true, data: groupByWeek(list), message }
              : {
                  success: true,
                  message,
                  data: {
                    slots: list,
                    pagination: { total, page, limit, totalPages: Math.ceil(total / limit) },
                    filters: { from: new Date(now.getTime() + BOOKING_LEAD_HOURS * 3_600_000).toISOString(), leadHours: BOOKING_LEAD_HOURS, timezone: TIMEZONE },
                  },
                };
        // What the route's response serializer would send (checked against the same schema), kept as text.
        return JSON.stringify(listAnswer.parse(answer));
      });
      reply.header('cache-control', 'no-store').type('application/json; charset=utf-8');
      // Already serialized (and checked): Fastify sends a string as it is, without the response serializer.
      return reply.send(body as unknown as z.infer<typeof listAnswer>);
    },
  );

  // The shell's server keeps one of these waiting, so it reads the list again only when it changed (issue 27).
  const changes = createListChanges(app.database, { waitMs: app.config.listChangesWaitMs });
  app.addHook('onClose', () => changes.close());
  app.get(
    PUBLIC_LIST_CHANGES_PATH,
    {
      schema: {
        tags: ['public'],
        operationId: 'waitForPublicListChange',
        security: publicRoute,
        summary: "The public list's version now; with `after`, once it moved past it (up to 25 s, then the same version); a few waits per client network (429 beyond)",
        querystring: listChangesQuerySchema,
        response: { 200: envelope(listVersionSchema), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      try {
        const version = await changes.next(request.query.after, gone.signal, networkOf(request.ip, LIST_CHANGES_NETWORK_BITS));
        reply.header('cache-control', 'no-store');
        return ok({ version }, 'Public list version');
      } catch (err) {
        if (err instanceof TooManyFromNetwork) throw new AppError(429, ErrorCode.RATE_LIMITED, err.message, LIST_CHANGES_NETWORK_RETRY_SECONDS);
        if (err instanceof ListenerLost) throw new AppError(503, ErrorCode.DATABASE_UNAVAILABLE, DatabaseUnavailableMessage, 1);
        throw err;
      }
    },
  );
};
