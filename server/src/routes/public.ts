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
import { listPublicSlots } from '../slots/slot-service';
import { groupByWeek, toPublicSlot } from '../slots/present';
import { errorResponses } from './common';

export const publicRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/public/list',
    {
      schema: {
        tags: ['public'],
        summary: 'Upcoming bookable slots (no visitor data): legacy, flat or grouped by week',
        querystring: publicListQuerySchema,
        response: {
          200: envelope(z.union([publicListLegacySchema, z.array(publicSlotSchema), publicListGroupedSchema])),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { limit, page, format } = request.query;
      const now = new Date();
      const { rows, total } = await listPublicSlots(app.db, { limit, page });
      const list = rows.map((r) => toPublicSlot(r, now));
      reply.header('cache-control', 'no-store');
      const message = total === 0 ? 'No slots found for the requested criteria' : `${total} slot(s) available`;
      if (format === 'flat') return { success: true, data: list, message };
      if (format === 'grouped') return { success: true, data: groupByWeek(list), message };
      return {
        success: true,
        message,
        data: {
          slots: list,
          pagination: { total, page, limit, totalPages: Math.ceil(total / limit) },
          filters: { from: new Date(now.getTime() + BOOKING_LEAD_HOURS * 3_600_000).toISOString(), leadHours: BOOKING_LEAD_HOURS, timezone: TIMEZONE },
        },
      };
    },
  );
};
