import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuerySchema, envelope } from 'shared-api/contract';
import { listAudit } from './query';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';

/**
 * The audit trail for staff: read only. No route changes or deletes a record (and the table's trigger refuses
 * UPDATE and DELETE); the CSV export is built in the admin remote from these pages.
 */
export const staffAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/audit',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['staff'],
        operationId: 'listAuditTrail',
        summary: 'The audit trail, newest first: filter by person (exact or contains), action and GMT+8 days (inclusive); paged (limit ≤ 100)',
        security: bearerSecurity,
        querystring: auditQuerySchema,
        response: { 200: envelope(auditPageSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const page = await listAudit(app.db, request.query);
      return ok(page, `${page.total} record(s)`);
    },
  );
};
