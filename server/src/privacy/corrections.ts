import { and, asc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ErrorCode, visitorCorrectionResultSchema, visitorCorrectionSchema } from 'shared-api/contract';
import { auditBy, recordAudit } from '../audit';
import { AppError, ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import { mailOutbox } from '../mail';
import { WAITLIST_MAIL_KINDS } from '../waitlist';
import { waitlistEntries } from '../waitlist';
import { privacyRequests } from './tables';

type Changed = { id: string; reference: string; visitor_name: string; visitor_email: string | null; visitor_contact_no: string | null };

/**
 * A correction request (PDPA s. 34): staff correct a visitor's name, email or phone on every payment, booked slot and
 * waitlist entry that names the person (matched exactly as stored, like the look-up). Recorded in the audit trail with
 * what was and what is, in the same transaction. Nothing new is sent (no mail, no gateway call); a message to them not
 * yet sent goes to the corrected address instead of the old one.
 */
export const privacyCorrectionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/staff/privacy/corrections',
    {
      onRequest: app.requireAdminStepUp,
      schema: {
        tags: ['staff'],
        operationId: 'correctVisitor',
        summary:
          "Correct a visitor's name, email or phone on every booking, payment and waitlist entry naming them (by email or phone as stored); audited; nothing new sent, unsent mails to them go to the corrected address",
        security: bearerSecurity,
        body: visitorCorrectionSchema,
        response: { 200: envelope(visitorCorrectionResultSchema), ...errorResponses(401, 403, 404) },
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
        const whoWaiting = email ? eq(waitlistEntries.email, email) : eq(waitlistEntries.phone, phone!);
        const entriesBefore: Changed[] = (
          await tx
            .select({ id: waitlistEntries.id, name: waitlistEntries.name, email: waitlistEntries.email, phone: waitlistEntries.phone })
            .from(waitlistEntries)
            .where(whoWaiting)
            .orderBy(asc(waitlistEntries.id))
            .for('update')
        ).map((e) => ({ id: String(e.id), reference: '', visitor_name: e.name, visitor_email: e.email, visitor_contact_no: e.phone }));
        if (before.rows.length + slotsBefore.rows.length + entriesBefore.length === 0) {
          throw new AppError(404, ErrorCode.NOT_FOUND, 'No booking, payment or waitlist entry names this person.');
        }
        if (before.rows.length > 0) await tx.execute(sql`UPDATE payments SET ${set}, updated_at = now() WHERE ${who}`);
        if (slotsBefore.rows.length > 0) await tx.execute(sql`UPDATE slots SET ${set} WHERE status = 'booked' AND ${who}`);
        if (entriesBefore.length > 0) {
          // One live entry per email and per phone per school: a correction onto another person's live entry is refused.
          const ids = entriesBefore.map((e) => Number(e.id));
          const sameContact = [
            visitorEmail !== undefined ? eq(waitlistEntries.email, visitorEmail) : undefined,
            visitorContactNo !== undefined ? eq(waitlistEntries.phone, visitorContactNo) : undefined,
          ].filter((c) => c !== undefined);
          const [clash] = sameContact.length === 0 ? [] : await tx
            .select({ id: waitlistEntries.id, name: waitlistEntries.name, school: waitlistEntries.school })
            .from(waitlistEntries)
            .where(
              and(
                sql`${waitlistEntries.state} IN ('waiting', 'offered')`,
                notInArray(waitlistEntries.id, ids),
                or(...sameContact),
                sql`${waitlistEntries.school} IN (SELECT school FROM waitlist_entries WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) AND state IN ('waiting', 'offered'))`,
              ),
            )
            .limit(1);
          if (clash)
            throw new AppError(
              409,
              ErrorCode.VALIDATION_ERROR,
              `This correction would give two live waitlist entries at ${clash.school} the same email or phone: entry ${clash.id} (${clash.name}) has it. Nothing was changed.`,
            ).withReason({ rule: 'waitlistEntryClash', params: { entryId: clash.id, school: clash.school } });
          await tx
            .update(waitlistEntries)
            .set({ name: visitorName, email: visitorEmail, phone: visitorContactNo })
            .where(whoWaiting);
        }
        // Their messages not sent yet (waiting, or to be tried again) go to the corrected address: a mistyped address
        // may be a stranger's. Those already sent stay as they were (the record of what went where).
        const oldEmails = [...new Set([...before.rows, ...slotsBefore.rows, ...entriesBefore].map((r) => r.visitor_email))].filter(
          (old): old is string => old !== null && old !== visitorEmail,
        );
        const paymentIds = before.rows.map((r) => r.id);
        const redirected =
          visitorEmail === undefined || oldEmails.length === 0
            ? []
            : await tx
                .update(mailOutbox)
                .set({ recipient: visitorEmail })
                .where(
                  and(
                    inArray(mailOutbox.status, ['pending', 'sending']),
                    inArray(mailOutbox.recipient, oldEmails),
                    or(paymentIds.length > 0 ? inArray(mailOutbox.paymentId, paymentIds) : undefined, inArray(mailOutbox.kind, WAITLIST_MAIL_KINDS)),
                  ),
                )
                .returning({ id: mailOutbox.id });
        const was = (rows: Changed[]) => [...new Set(rows.map((r) => JSON.stringify([r.visitor_name, r.visitor_email, r.visitor_contact_no])))].map((r) => JSON.parse(r) as string[]);
        await recordAudit(tx, {
          ...auditBy(request.staff!, request.ip),
          action: 'privacy_visitor_corrected',
          target: requestId !== undefined ? String(requestId) : (email ?? phone ?? null),
          detail: {
            requestId: requestId ?? null,
            person: { email: email ?? null, phone: phone ?? null },
            was: was([...before.rows, ...slotsBefore.rows, ...entriesBefore]).map(([name, mail, tel]) => ({ name, email: mail, phone: tel })),
            now: { name: visitorName ?? null, email: visitorEmail ?? null, phone: visitorContactNo ?? null },
            references: [...new Set([...before.rows, ...slotsBefore.rows].map((r) => r.reference).filter(Boolean))],
            waitlistEntries: entriesBefore.map((e) => Number(e.id)),
            // In id order: UPDATE … RETURNING gives rows in whatever order PostgreSQL updated them.
            mailsRedirected: redirected.map((m) => m.id).sort((x, y) => x - y),
          },
        });
        return {
          payments: before.rows.length,
          bookings: slotsBefore.rows.length,
          waitlistEntries: entriesBefore.length,
          mailsRedirected: redirected.length,
          person: email ? { email: visitorEmail ?? email, phone: null } : { email: null, phone: visitorContactNo ?? phone ?? null },
        };
      });
      return ok(result, `Corrected ${result.payments} payment(s), ${result.bookings} booking(s) and ${result.waitlistEntries} waitlist entry(ies)`);
    },
  );
};
