import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BookingMessage,
  ErrorCode,
  bookSlotBodySchema,
  createSlotBodySchema,
  deleteSlotBodySchema,
  envelope,
  HOLD_MINUTES,
  releaseBodySchema,
  reservationSchema,
  reserveBodySchema,
  slotIdParamSchema,
  staffListQuerySchema,
  staffListSchema,
  staffSlotSchema,
} from 'shared-api/contract';
import { recordAudit } from '../audit/record';
import { AppError, ok } from '../errors';
import { HoldLimitError, HoldLimits } from '../limits/hold-limits';
import type { SlotRow } from '../db/schema';
import { toStaffSlot } from '../slots/present';
import {
  bookSlot,
  createSlot,
  deleteSlot,
  findSlot,
  HoldInvalidMessage,
  listStaffSlots,
  releaseHold,
  reserveSlot,
  type Refusal,
} from '../slots/slot-service';
import { findCompletedPaymentForSlot } from '../slots/payment-confirmation';
import { bearerSecurity, errorResponses, holdLimitedAnswer } from './common';

/** The audit record's who and from where, for a staff request. */
const auditBy = (staff: { id: number; email: string }, ip: string) => ({ actor: staff.email, actorUserId: staff.id, ip });
const slotTimes = (row: SlotRow) => ({ start: row.startAt.toISOString(), end: row.endAt.toISOString() });

const refuse = (r: Refusal): never => {
  throw new AppError(r.status, r.code, r.message);
};

export const PaymentNotCompletedMessage =
  'This booking cannot be confirmed yet: no completed payment matching these details was found for this slot.';
export const IdMismatchMessage = 'The slot id in the request body does not match the slot in the address.';

const slotResult = envelope(z.object({ slot: staffSlotSchema }));
const deleteParams = z.object({ slotId: slotIdParamSchema.shape.id });

export const slotRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/slot/list',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['slots (staff)'],
        summary: 'All live slots with visitor details (read at timeSlots.rows)',
        security: bearerSecurity,
        querystring: staffListQuerySchema,
        response: { 200: envelope(staffListSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { isBooked } = request.query;
      const rows = await listStaffSlots(app.db, isBooked === undefined ? undefined : isBooked === 'true');
      const now = new Date();
      return ok({ timeSlots: { rows: rows.map((r) => toStaffSlot(r, now)), count: rows.length } }, `${rows.length} slot(s) found`);
    },
  );

  app.post(
    '/slot/add',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['slots (staff)'],
        summary: 'Create one 30-minute weekday slot (from tomorrow, GMT+8; 12-hour or 24-hour times)',
        security: bearerSecurity,
        body: createSlotBodySchema,
        response: { 201: slotResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = request.staff!;
      const row = await app.db.transaction(async (tx) => {
        const created = await createSlot(tx, request.body);
        await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'slot_created', target: created.id, detail: slotTimes(created) });
        return created;
      });
      request.log.info({ slotId: row.id, by: request.staff!.id }, 'slot created');
      reply.code(201);
      return ok({ slot: toStaffSlot(row) }, 'Slot created');
    },
  );

  app.put(
    '/slot/delete/:slotId',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['slots (staff)'],
        summary: 'Soft-delete an available slot (booked or held slots are refused)',
        security: bearerSecurity,
        params: deleteParams,
        body: deleteSlotBodySchema,
        response: { 200: slotResult, ...errorResponses },
      },
    },
    async (request) => {
      if (request.body.slotId !== request.params.slotId) throw new AppError(400, ErrorCode.VALIDATION_ERROR, IdMismatchMessage);
      // The server's clock decides deleted_at; the body's deletedAt is accepted for the spec's payload only.
      const staff = request.staff!;
      const row = await app.db.transaction(async (tx) => {
        const deleted = await deleteSlot(tx, request.params.slotId);
        await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'slot_deleted', target: deleted.id, detail: slotTimes(deleted) });
        return deleted;
      });
      request.log.info({ slotId: row.id, by: request.staff!.id }, 'slot deleted');
      return ok({ slot: toStaffSlot(row) }, 'Slot deleted successfully');
    },
  );

  app.post(
    '/slot/:id/reserve',
    {
      schema: {
        tags: ['slots (public)'],
        summary: `Hold a bookable slot while its visitor pays (default ${HOLD_MINUTES} minutes, at most 30; past the client's free holds, 429 HOLD_LIMIT with a proof-of-work challenge)`,
        params: slotIdParamSchema,
        // No body at all means the default hold.
        body: z.preprocess((v) => v ?? {}, reserveBodySchema),
        response: { 200: envelope(reservationSchema), 429: holdLimitedAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { minutes, proofOfWork } = request.body;
      const limits = await HoldLimits.load(app.db);
      const holder = limits.holder(request.ip);
      try {
        const hold = await app.db.transaction(async (tx) => {
          await limits.lock(tx, holder);
          const taken = await reserveSlot(tx, request.params.id, minutes, { holder });
          // Over the client's free holds, only a valid proof of work keeps it (HoldLimitError rolls it back).
          if (!('ok' in taken)) await limits.admit(tx, holder, proofOfWork);
          return taken;
        });
        if ('ok' in hold) return refuse(hold);
        return ok({ slotId: hold.slotId, token: hold.token, expiresAt: hold.expiresAt.toISOString() }, 'Slot reserved');
      } catch (err) {
        if (!(err instanceof HoldLimitError)) throw err;
        reply.code(429);
        return err.answer();
      }
    },
  );

  app.post(
    '/slot/:id/release',
    {
      schema: {
        tags: ['slots (public)'],
        summary: 'End a hold with its token',
        params: slotIdParamSchema,
        body: releaseBodySchema,
        response: { 200: envelope(z.object({ slotId: z.number().int() })), ...errorResponses },
      },
    },
    async (request) => {
      const released = await releaseHold(app.db, request.params.id, request.body.token);
      if (!released) throw new AppError(409, ErrorCode.HOLD_INVALID, HoldInvalidMessage);
      return ok({ slotId: request.params.id }, 'Slot released');
    },
  );

  app.put(
    '/slot/:id',
    {
      schema: {
        tags: ['slots (public)'],
        summary: 'Book a slot: staff token books directly; anonymous callers confirm a completed payment',
        params: slotIdParamSchema,
        body: bookSlotBodySchema,
        response: { 200: slotResult, ...errorResponses },
      },
    },
    async (request) => {
      const slotId = request.params.id;
      const { id, paymentId, ...visitor } = request.body;
      if (id !== undefined && id !== slotId) throw new AppError(400, ErrorCode.VALIDATION_ERROR, IdMismatchMessage);
      const staff = await app.optionalStaff(request);
      if (request.headers.authorization && !staff) throw new AppError(401, ErrorCode.UNAUTHORIZED, 'Authentication required. Please log in again.');

      if (staff) {
        const result = await app.db.transaction(async (tx) => {
          const booked = await bookSlot(tx, { slotId, visitor });
          if (booked.ok)
            await recordAudit(tx, {
              ...auditBy(staff, request.ip),
              action: 'booking_direct',
              target: booked.slot.bookingReference,
              detail: { slotId, ...slotTimes(booked.slot), school: booked.slot.selectedSchool },
            });
          return booked;
        });
        if (!result.ok) return refuse(result);
        request.log.info({ slotId, by: staff.id }, 'slot booked by staff');
        return ok({ slot: toStaffSlot(result.slot) }, 'Slot booked successfully');
      }

      const payment = await findCompletedPaymentForSlot(app.db, { slotId, paymentId, visitor });
      if (!payment) throw new AppError(402, ErrorCode.PAYMENT_NOT_COMPLETED, PaymentNotCompletedMessage);
      const result = await bookSlot(app.db, {
        slotId,
        visitor: payment.visitor,
        holdToken: payment.holdToken,
        bookingReference: payment.reference,
        amountSen: payment.amountSen,
      });
      if (result.ok) return ok({ slot: toStaffSlot(result.slot) }, BookingMessage.paymentSuccess);
      // Repeating a successful confirm: the slot already carries this payment's reference.
      const current = await findSlot(app.db, slotId);
      if (current && current.status === 'booked' && current.bookingReference === payment.reference)
        return ok({ slot: toStaffSlot(current) }, BookingMessage.paymentSuccess);
      return refuse(result);
    },
  );
};
