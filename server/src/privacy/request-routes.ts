import { z } from 'zod';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  ErrorCode,
  inMY,
  newPrivacyRequestSchema,
  privacyRequestListQuerySchema,
  privacyRequestSchema,
  requestDueOn,
  rowIdSchema,
  type PrivacyRequest,
} from 'shared-api/contract';
import { auditBy, recordAudit } from '../audit';
import { AppError, ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import { privacyRequests, type PrivacyRequestRow } from './tables';

const tags = ['staff'];
const idParam = z.object({ id: rowIdSchema });
const one = envelope(z.object({ request: privacyRequestSchema }));

const present = (row: PrivacyRequestRow): PrivacyRequest => ({
  id: row.id,
  kind: row.kind,
  personEmail: row.personEmail,
  personPhone: row.personPhone,
  receivedOn: row.receivedOn,
  dueOn: requestDueOn(row.receivedOn, row.extendedAt !== null),
  extendedAt: row.extendedAt?.toISOString() ?? null,
  handledBy: row.handledBy,
  answeredAt: row.answeredAt?.toISOString() ?? null,
  note: row.note,
});

/**
 * The request log (PDPA access and correction requests): staff log a request with the day it arrived, record an
 * extension notice (35 days instead of 21) and when it was answered; the dashboard asks for open requests coming due.
 * Each change is in the audit trail, in its transaction.
 */
export const privacyRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/privacy/requests',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'listPrivacyRequests',
        summary: 'Access and correction requests, soonest due first; with dueWithinDays only open ones due within that many days (GMT+8)',
        security: bearerSecurity,
        querystring: privacyRequestListQuerySchema,
        response: { 200: envelope(z.object({ requests: z.array(privacyRequestSchema) })), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { dueWithinDays } = request.query;
      const rows = await app.db
        .select()
        .from(privacyRequests)
        .where(dueWithinDays === undefined ? undefined : isNull(privacyRequests.answeredAt))
        .orderBy(asc(privacyRequests.receivedOn), asc(privacyRequests.id));
      const today = inMY(new Date()).format('YYYY-MM-DD');
      const horizon = dueWithinDays === undefined ? null : inMY(new Date()).add(dueWithinDays, 'day').format('YYYY-MM-DD');
      const requests = rows
        .map(present)
        .filter((r) => horizon === null || r.dueOn <= horizon)
        .sort((a, b) => a.dueOn.localeCompare(b.dueOn) || a.id - b.id);
      return ok({ requests }, `${requests.length} request(s)${horizon ? ` due by ${horizon} (today ${today})` : ''}`);
    },
  );

  app.post(
    '/staff/privacy/requests',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'logPrivacyRequest',
        summary: 'Log an access or correction request: the person (email or phone), the GMT+8 day it arrived; the handler is the caller',
        security: bearerSecurity,
        body: newPrivacyRequestSchema,
        response: { 200: one, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { kind, email, phone, receivedOn, note } = request.body;
      const row = await app.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(privacyRequests)
          .values({ kind, personEmail: email ?? null, personPhone: phone ?? null, receivedOn, note, handledBy: request.staff!.email })
          .returning();
        await recordAudit(tx, { ...auditBy(request.staff!, request.ip), action: 'privacy_request_logged', target: String(created.id), detail: { kind, email: email ?? null, phone: phone ?? null, receivedOn } });
        return created;
      });
      return ok({ request: present(row) }, 'Request logged');
    },
  );

  const change = (path: 'extend' | 'answer') =>
    app.post(
      `/staff/privacy/requests/:id/${path}`,
      {
        onRequest: app.requireAdminStepUp,
        schema: {
          tags,
          operationId: path === 'extend' ? 'extendPrivacyRequest' : 'answerPrivacyRequest',
          summary: path === 'extend' ? 'Record the extension notice: due 35 days after receipt instead of 21 (once)' : 'Record that the request was answered (once)',
          security: bearerSecurity,
          params: idParam,
          response: { 200: one, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const { id } = request.params;
        const row = await app.db.transaction(async (tx) => {
          const column = path === 'extend' ? privacyRequests.extendedAt : privacyRequests.answeredAt;
          const [updated] = await tx
            .update(privacyRequests)
            .set(path === 'extend' ? { extendedAt: new Date(), handledBy: request.staff!.email } : { answeredAt: new Date(), handledBy: request.staff!.email })
            .where(and(eq(privacyRequests.id, id), isNull(column), isNull(privacyRequests.answeredAt)))
            .returning();
          if (!updated) {
            const [exists] = await tx.select({ id: privacyRequests.id }).from(privacyRequests).where(eq(privacyRequests.id, id));
            if (!exists) throw new AppError(404, ErrorCode.NOT_FOUND, 'No such request.');
            throw new AppError(409, ErrorCode.VALIDATION_ERROR, path === 'extend' ? 'This request is already extended or answered.' : 'This request is already answered.');
          }
          await recordAudit(tx, {
            ...auditBy(request.staff!, request.ip),
            action: path === 'extend' ? 'privacy_request_extended' : 'privacy_request_answered',
            target: String(id),
            detail: { dueOn: requestDueOn(updated.receivedOn, updated.extendedAt !== null) },
          });
          return updated;
        });
        return ok({ request: present(row) }, path === 'extend' ? 'Request extended' : 'Request answered');
      },
    );
  change('extend');
  change('answer');
};
