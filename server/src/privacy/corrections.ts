import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ErrorCode, visitorCorrectionResultSchema, visitorCorrectionSchema } from 'shared-api/contract';
import { auditBy, recordAudit } from '../audit/record';
import { AppError, ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import { privacyRequests } from './tables';

type Changed = { id: string; reference: string; visitor_name: string; visitor_email: string | null; visitor_contact_no: string | null };

/**
 * A correction request (PDPA s. 34): staff correct a visitor's name, email or phone on every payment and booked slot
 * that names the person (matched exactly as stored, like the look-up). Recorded in the audit trail with what was and
 * what is, in the same transaction; nothing is sent anywhere (no mail, no gateway call): the records change, that is all.
 */
export const privacyCorrectionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/staff/privacy/corrections',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        operationId: 'correctVisitor',
        summary: "Correct a visitor's name, email or phone on every booking and payment naming them (by email or phone as stored); audited, sent nowhere",
        security: bearerSecurity,
        body: visitorCorrectionSchema,
        response: { 200: envelope(visitorCorrectionResultSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { email, phone, requestId, visitorName, visitorEmail, visitorContactNo } = request.body;
      const result = await app.db.transaction(async (tx) => {
        if (requestId !== undefined) {
          const [logged] = await tx.select({ id: privacyRequests.id }).from(privacyRequests).where(eq(privacyRequests.id, requestId));
          if (!logged) throw new AppError(404, ErrorCode.NOT_FOUND, 'No such request.');
        }
        const who = email ? sql`visitor_email = ${email}` : sql`visitor_contact_no = ${phone}`;
        const set = sql.join(
          [
            visitorName !== undefined ? sql`visitor_name = ${visitorName}` : null,
            visitorEmail !== undefined ? sql`visitor_email = ${visitorEmail}` : null,
            visitorContactNo !== undefined ? sql`visitor_contact_no = ${visitorContactNo}` : null,
          ].filter((part) => part !== null),
          sql`, `,
        );
        // The rows as they were (for the audit trail), locked, then changed.
        const before = (await tx.execute(sql`
          SELECT id, reference, visitor_name, visitor_email, visitor_contact_no FROM payments WHERE ${who} ORDER BY id FOR UPDATE`)) as unknown as { rows: Changed[] };
        const slotsBefore = (await tx.execute(sql`
          SELECT id::text, booking_reference AS reference, visitor_name, visitor_email, visitor_contact_no FROM slots
          WHERE status = 'booked' AND ${who} ORDER BY id FOR UPDATE`)) as unknown as { rows: Changed[] };
        if (before.rows.length + slotsBefore.rows.length === 0) throw new AppError(404, ErrorCode.NOT_FOUND, 'No booking or payment names this person.');
        if (before.rows.length > 0) await tx.execute(sql`UPDATE payments SET ${set}, updated_at = now() WHERE ${who}`);
        if (slotsBefore.rows.length > 0) await tx.execute(sql`UPDATE slots SET ${set} WHERE status = 'booked' AND ${who}`);
        const was = (rows: Changed[]) => [...new Set(rows.map((r) => JSON.stringify([r.visitor_name, r.visitor_email, r.visitor_contact_no])))].map((r) => JSON.parse(r) as string[]);
        await recordAudit(tx, {
          ...auditBy(request.staff!, request.ip),
          action: 'privacy_visitor_corrected',
          target: requestId !== undefined ? String(requestId) : (email ?? phone ?? null),
          detail: {
            requestId: requestId ?? null,
            person: { email: email ?? null, phone: phone ?? null },
            was: was([...before.rows, ...slotsBefore.rows]).map(([name, mail, tel]) => ({ name, email: mail, phone: tel })),
            now: { name: visitorName ?? null, email: visitorEmail ?? null, phone: visitorContactNo ?? null },
            references: [...new Set([...before.rows, ...slotsBefore.rows].map((r) => r.reference).filter(Boolean))],
          },
        });
        return {
          payments: before.rows.length,
          bookings: slotsBefore.rows.length,
          person: email ? { email: visitorEmail ?? email, phone: null } : { email: null, phone: visitorContactNo ?? phone ?? null },
        };
      });
      return ok(result, `Corrected ${result.payments} payment(s) and ${result.bookings} booking(s)`);
    },
  );
};
