import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BOOKING_LEAD_HOURS,
  TIMEZONE,
  envelope,
  publicListGroupedSchema,
  publicListLegacySchema,
  publicListQuerySchema,
  publicSlotSchema,
} from 'shared-api/contract';
import { listPublicSlots } from './slot-service';
import { groupByWeek, toPublicSlot } from './present';
import { createPublicListCache } from './public-list-cache';
import { errorResponses, publicRoute } from '../base/routes';

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
};
