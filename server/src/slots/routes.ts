import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  createSlotBodySchema,
  deleteSlotBodySchema,
  envelope,
  staffListQuerySchema,
  staffListSchema,
  slotIdParamSchema,
  staffSlotSchema,
} from 'shared-api/contract';
import { recordAudit, auditBy } from '../audit';
import { slotTimes, toStaffSlot } from './present';
import { AppError, ok } from '../base/errors';
import { createSlot, deleteSlot, listStaffSlots } from './slot-service';
import { slotFreed } from '../base/slot-watch';
import { bearerSecurity, errorResponses } from '../base/routes';

export const IdMismatchMessage = 'The slot id in the request body does not match the slot in the address.';

const slotResult = envelope(z.object({ slot: staffSlotSchema }));
const deleteParams = z.object({ slotId: slotIdParamSchema.shape.id });

/** Staff's timetable: list, add and delete slots. */
export const slotRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/slot/list',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['slots (staff)'],
        operationId: 'listStaffSlots',
        summary: 'All live slots with visitor details (read at timeSlots.rows)',
        security: bearerSecurity,
        querystring: staffListQuerySchema,
        response: { 200: envelope(staffListSchema), ...errorResponses(401) },
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
        operationId: 'addSlot',
        summary: 'Create one 30-minute weekday slot (from tomorrow to two years ahead, GMT+8; starting by 11:29 PM; 12-hour or 24-hour times)',
        security: bearerSecurity,
        body: createSlotBodySchema,
        response: { 201: slotResult, ...errorResponses(401, 409) },
      },
    },
    async (request, reply) => {
      const staff = request.staff!;
      const row = await app.db.transaction(async (tx) => {
        const created = await createSlot(tx, request.body);
        await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'slot_created', target: created.id, detail: { ...slotTimes(created), seats: request.body.seats ?? 1 } });
        return created;
      });
      request.log.info({ slotId: row.id, by: request.staff!.id }, 'slot created');
      // A new slot is offered to the waitlist first.
      slotFreed(app.db);
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
        operationId: 'deleteSlot',
        summary: 'Soft-delete an available slot (booked or held slots are refused)',
        security: bearerSecurity,
        params: deleteParams,
        body: deleteSlotBodySchema,
        response: { 200: slotResult, ...errorResponses(401, 404, 409) },
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
};
