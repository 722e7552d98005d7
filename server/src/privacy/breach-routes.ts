import { z } from 'zod';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountMessage, breachExportQuerySchema, breachPeopleFileSchema, breachSchema, envelope, ErrorCode, newBreachSchema, rowIdSchema } from 'shared-api/contract';
import { enabledAdminEmails } from '../auth';
import { auditBy, recordAudit } from '../audit';
import type { DbOrTx } from '../base/db/connection';
import { AppError, ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import { breachPeople, breachPeopleCsv, presentBreach, queueBreachNotices } from './breaches';
import { breaches, type BreachRow } from './tables';

const tags = ['staff'];
const idParam = z.object({ id: rowIdSchema });
const one = envelope(z.object({ breach: breachSchema }));
/** What a step taken once answers: the breach after it, 404 for no such breach, 409 when it was taken. */
const stepAnswer = { 200: one, ...errorResponses(401, 403, 404, 409) };

async function breachOr404(tx: DbOrTx, id: number, lock = false): Promise<BreachRow> {
  const query = tx.select().from(breaches).where(eq(breaches.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError(404, ErrorCode.NOT_FOUND, 'No such breach.');
  return row;
}

/**
 * Records a step that is taken once (the Commissioner notified, the people notified) as done now, claimed by one
 * conditional UPDATE, so two staff pressing at once take it once: 404 for no such breach, 409 `done` when it was taken.
 */
async function takeOnce(tx: DbOrTx, id: number, step: 'commissionerNotifiedAt' | 'peopleNotifiedAt', done: string): Promise<BreachRow> {
  const [row] = await tx
    .update(breaches)
    .set({ [step]: new Date() })
    .where(and(eq(breaches.id, id), isNull(breaches[step])))
    .returning();
  if (row) return row;
  await breachOr404(tx, id);
  throw new AppError(409, ErrorCode.VALIDATION_ERROR, done);
}

/**
 * The breach log (PDPA s. 12B): staff record a breach (when found, what happened, which data, and who it touches as a
 * query over the records), see the 72-hour deadline for the Commissioner and the 7-day one for the people, record the
 * Commissioner's notification, export the people's contacts (JSON or CSV) and send each of them the notice in their
 * booking's language through the outbox. Every action is audited in its transaction.
 */
export const breachRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/breaches',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        operationId: 'listBreaches',
        summary: 'The breach log, latest found first, with each deadline and how many people its query finds',
        security: bearerSecurity,
        response: { 200: envelope(z.object({ breaches: z.array(breachSchema) })), ...errorResponses(401, 403) },
      },
    },
    async () => {
      const rows = await app.db.select().from(breaches).orderBy(desc(breaches.foundAt), desc(breaches.id));
      const list = await Promise.all(rows.map(async (row) => presentBreach(row, (await breachPeople(app.db, row)).length)));
      return ok({ breaches: list }, `${list.length} breach(es)`);
    },
  );

  app.post(
    '/staff/breaches',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'logBreach',
        summary: 'Log a personal data breach: when it was found, what happened, which data, and who it touches (a booking period and/or a school)',
        security: bearerSecurity,
        body: newBreachSchema,
        response: { 200: one, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { foundAt, bookedFrom, bookedTo, school, ...words } = request.body;
      const breach = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(breaches)
          .values({ ...words, foundAt: new Date(foundAt), bookedFrom: bookedFrom ?? null, bookedTo: bookedTo ?? null, school: school ?? null, recordedBy: request.staff!.email })
          .returning();
        const people = await breachPeople(tx, row);
        await recordAudit(tx, {
          ...auditBy(request.staff!, request.ip),
          action: 'breach_logged',
          target: String(row.id),
          detail: { foundAt: row.foundAt.toISOString(), bookedFrom: row.bookedFrom, bookedTo: row.bookedTo, school: row.school, affected: people.length },
        });
        return presentBreach(row, people.length);
      });
      return ok({ breach }, 'Breach logged');
    },
  );

  app.post(
    '/staff/breaches/:id/commissioner-notified',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'breachCommissionerNotified',
        summary: 'Record that the Commissioner was notified (once): the 7 days for the people run from now',
        security: bearerSecurity,
        params: idParam,
        response: stepAnswer,
      },
    },
    async (request) => {
      const breach = await app.db.transaction(async (tx) => {
        const row = await takeOnce(tx, request.params.id, 'commissionerNotifiedAt', 'The Commissioner is already recorded as notified.');
        const presented = presentBreach(row, (await breachPeople(tx, row)).length);
        await recordAudit(tx, { ...auditBy(request.staff!, request.ip), action: 'breach_commissioner_notified', target: String(row.id), detail: { peopleDueAt: presented.peopleDueAt } });
        return presented;
      });
      return ok({ breach }, 'Commissioner notification recorded');
    },
  );

  app.get(
    '/staff/breaches/:id/people',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'exportBreachPeople',
        summary: "The contacts of the people the breach touches (format json or csv), as its query finds them now; the export is audited",
        security: bearerSecurity,
        params: idParam,
        querystring: breachExportQuerySchema,
        response: {
          200: {
            description: 'The file itself, not the {success, data} envelope: JSON (format=json) or CSV (format=csv: UTF-8 with a BOM, a header row, one row per person, phones as text)',
            content: { 'application/json': { schema: breachPeopleFileSchema }, 'text/csv': { schema: z.string() } },
          },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const people = await app.db.transaction(async (tx) => {
        const row = await breachOr404(tx, request.params.id);
        const found = await breachPeople(tx, row);
        await recordAudit(tx, { ...auditBy(request.staff!, request.ip), action: 'breach_people_exported', target: String(row.id), detail: { format, people: found.length } });
        return found;
      });
      reply.header('content-disposition', `attachment; filename="breach-${request.params.id}-people.${format}"`);
      if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(breachPeopleCsv(people));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(breachPeopleFileSchema.parse({ people }), null, 2));
    },
  );

  app.post(
    '/staff/breaches/:id/notify',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags,
        operationId: 'notifyBreachPeople',
        summary:
          'Mail the notice to every person the breach touches, each in their booking language, through the outbox (once). Where the school has two admins or more, the first press asks (202) and a second admin sends',
        security: bearerSecurity,
        params: idParam,
        response: { ...stepAnswer, 202: one },
      },
    },
    async (request, reply) => {
      const staff = request.staff!;
      const asked = await app.db.transaction(async (tx) => {
        const admins = await enabledAdminEmails(tx);
        if (admins.length < 2) return null;
        // The breach's row is the lock: an ask and a confirmation at once are taken one after the other.
        const row = await breachOr404(tx, request.params.id, true);
        if (row.peopleNotifiedAt) throw new AppError(409, ErrorCode.VALIDATION_ERROR, 'The people affected have already been notified.');
        const askedByAnAdmin = row.notifyAskedBy !== null && admins.includes(row.notifyAskedBy);
        if (askedByAnAdmin && row.notifyAskedBy !== staff.email) return null;
        if (askedByAnAdmin) throw new AppError(409, ErrorCode.FORBIDDEN, AccountMessage.notifyNeedsAnotherAdmin).withReason({ rule: 'secondAdmin' });
        const [updated] = await tx.update(breaches).set({ notifyAskedBy: staff.email, notifyAskedAt: new Date() }).where(eq(breaches.id, row.id)).returning();
        const people = await breachPeople(tx, updated);
        await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'breach_notify_asked', target: String(row.id), detail: { people: people.length } });
        return presentBreach(updated, people.length);
      });
      if (asked) {
        reply.code(202);
        return ok({ breach: asked }, AccountMessage.notifyAsked);
      }
      const breach = await app.db.transaction(async (tx) => {
        // Two staff pressing at once send one notice each, not two.
        const claimed = await takeOnce(tx, request.params.id, 'peopleNotifiedAt', 'The people affected have already been notified.');
        const people = await breachPeople(tx, claimed);
        const queued = await queueBreachNotices(tx, claimed, people, app.config.payments.mailFrom);
        const [row] = await tx.update(breaches).set({ peopleNotified: queued }).where(eq(breaches.id, claimed.id)).returning();
        const locales = Object.fromEntries(['en', 'ms', 'zh'].map((l) => [l, people.filter((p) => p.email && p.locale === l).length]));
        const confirmedAsk = row.notifyAskedBy ? { askedBy: row.notifyAskedBy } : {};
        await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'breach_people_notified', target: String(row.id), detail: { mailed: queued, people: people.length, locales, ...confirmedAsk } });
        return presentBreach(row, people.length);
      });
      return ok({ breach }, `${breach.peopleNotified ?? 0} notice(s) queued`);
    },
  );
};
