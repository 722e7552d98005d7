import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  SlotPlanMessage,
  envelope,
  slotPlanBodySchema,
  slotPlanCreatedSchema,
  slotPlanRefusedEnvelopeSchema,
  slotPlanSchema,
} from 'shared-api/contract';
import { recordAudit } from '../audit';
import { AppError, ok } from '../base/errors';
import { toStaffSlot } from './present';
import { createSlotPlan, previewSlotPlan } from './slot-planning';
import { slotFreed } from '../base/slot-watch';
import { bearerSecurity, errorResponses } from '../base/routes';

const tags = ['slots (staff)'];

/** Several start times a day over a date range: a preview, and the creation of all of them in one transaction. */
export const slotPlanningRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/slot/add-many/preview',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'previewSlotPlan',
        summary: 'What /slot/add-many would create and refuse now (nothing is written)',
        security: bearerSecurity,
        body: slotPlanBodySchema,
        response: { 200: envelope(slotPlanSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const plan = await previewSlotPlan(app.db, request.body);
      const seats = plan.seats === undefined ? '' : ` (${plan.seatsToCreate} seats, ${plan.seats} children at a time)`;
      return ok(plan, `${plan.toCreate.length} slot(s) would be created${seats}, ${plan.refused.length} refused`);
    },
  );

  app.post(
    '/slot/add-many',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'addSlotPlan',
        summary:
          'Create 30-minute slots at several start times on each chosen weekday of a range (Monday to Friday by default), all in one transaction; ' +
          'any refusal (weekend, before tomorrow GMT+8 or more than two years ahead, overlap with a live slot or with another requested time) creates nothing and lists every refused slot; start times by 11:29 PM',
        security: bearerSecurity,
        body: slotPlanBodySchema,
        response: { 201: envelope(slotPlanCreatedSchema), 409: slotPlanRefusedEnvelopeSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const staff = request.staff!;
      const seats = request.body.seats ?? 1;
      const outcome = await createSlotPlan(app.db, request.body, new Date(), (tx, rows) =>
        recordAudit(tx, {
          actor: staff.email,
          actorUserId: staff.id,
          ip: request.ip,
          action: 'slot_created',
          target: rows.map((r) => r.id).join(','),
          detail: {
            count: rows.length / seats,
            seats,
            fromDate: request.body.fromDate,
            toDate: request.body.toDate,
            startTimes: request.body.startTimes,
            slots: rows.map((r) => ({ id: r.id, start: r.startAt.toISOString(), end: r.endAt.toISOString(), ...(seats > 1 ? { seat: r.seat } : {}) })),
          },
        }),
      );
      if (!outcome.ok) {
        if (outcome.plan.refused.length === 0) throw new AppError(400, ErrorCode.VALIDATION_ERROR, SlotPlanMessage.nothingToCreate);
        reply.code(409);
        return { success: false as const, data: outcome.plan, message: SlotPlanMessage.refused, error: ErrorCode.SLOT_EXISTS };
      }
      request.log.info({ count: outcome.created.length, seats, by: staff.id }, 'slots created (add-many)');
      // New slots are offered to the waitlist first.
      slotFreed(app.db);
      reply.code(201);
      // Every seat is new, so none is taken yet; a one-seat time keeps the spec's shape.
      const created = outcome.created.map((row) => toStaffSlot(seats > 1 ? { ...row, seats, seatsTaken: 0 } : row));
      const message = seats > 1 ? SlotPlanMessage.createdSeats(created.length / seats, seats) : SlotPlanMessage.created(created.length);
      return ok({ created, count: created.length }, message);
    },
  );
};
