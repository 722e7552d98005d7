import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, personExportQuerySchema, personFoundSchema, personQuerySchema, personRecordsSchema, type PersonQuery } from 'shared-api/contract';
import { auditBy, recordAudit } from '../audit';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import { findPerson, personCsv } from './person';
import { personHtml } from './readable-export';

const tags = ['staff'];
const counts = (records: Awaited<ReturnType<typeof findPerson>>) => ({
  bookings: records.bookings.length,
  payments: records.payments.length,
  consents: records.consents.length,
  mails: records.mails.length,
  auditEntries: records.auditEntries.length,
  waitlistEntries: records.waitlistEntries.length,
});
const fileName = (query: PersonQuery) => `person-${(query.email ?? query.phone ?? '').replace(/[^A-Za-z0-9@.+_-]/g, '_')}`;

/**
 * A person's data for an access or portability request (PDPA): staff only, never cached (no answer of the API is:
 * base/plugins/security-headers.ts), and each look-up and export recorded in the audit trail (who, whose, what was
 * found) in the transaction that reads it.
 */
export const staffPrivacyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/privacy/person',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'findPerson',
        summary: "Every record naming one person (by email or phone, as stored): bookings, payments, consents, mails, audit entries, and the person read from them (summary); the look-up is audited",
        security: bearerSecurity,
        querystring: personQuerySchema,
        response: { 200: envelope(personFoundSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const records = await app.db.transaction(async (tx) => {
        const found = await findPerson(tx, request.query);
        await recordAudit(tx, { ...auditBy(request.staff!, request.ip), action: 'privacy_person_viewed', target: found.person.email ?? found.person.phone, detail: { ...found.person, found: counts(found) } });
        return found;
      });
      return ok(records, 'Person found');
    },
  );

  app.get(
    '/staff/privacy/person/export',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'exportPerson',
        summary: "The same records as a file (format json or csv, every field as held), or as a printable page for the parent (format html: plain words, GMT+8 times, ringgit, no message bodies); each export is audited",
        security: bearerSecurity,
        querystring: personExportQuerySchema,
        response: {
          200: {
            description: "The file itself, not the {success, data} envelope: JSON (format=json, the look-up's records), CSV (format=csv: UTF-8 with a BOM, a `record` column then every field, phones as text) or HTML (format=html: the page for the parent)",
            content: { 'application/json': { schema: personRecordsSchema }, 'text/csv': { schema: z.string() }, 'text/html': { schema: z.string() } },
          },
          ...errorResponses(401, 403),
        },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const records = await app.db.transaction(async (tx) => {
        const found = await findPerson(tx, query);
        await recordAudit(tx, { ...auditBy(request.staff!, request.ip), action: 'privacy_person_exported', target: found.person.email ?? found.person.phone, detail: { ...found.person, format, found: counts(found) } });
        return found;
      });
      reply.header('content-disposition', `attachment; filename="${fileName(query)}.${format}"`);
      if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(personCsv(records));
      if (format === 'html') return reply.type('text/html; charset=utf-8').send(personHtml(records.summary, new Date()));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(personRecordsSchema.parse(records), null, 2));
    },
  );
};
