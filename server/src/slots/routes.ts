import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  createSlotBodySchema,
  deleteSlotBodySchema,
  envelope,
  setSeatsBodySchema,
  SLOT_MAX_SEATS,
  STAFF_PAGE_MAX,
  STAFF_PAGE_SIZE,
  staffListQuerySchema,
  staffListSchema,
  slotIdParamSchema,
  staffSlotSchema,
} from 'shared-api/contract';
import { recordAudit, auditBy } from '../audit';
import { slotTimes, toStaffSlot } from './present';
import { AppError, ok } from '../base/errors';
import { createSlot, deleteSlot, listStaffSlots, setSeats } from './slot-service';
import { listStaffSlotPage, staffListStats } from './staff-list-page';
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
        summary: `All live slots with visitor details (read at timeSlots.rows); with view, page, limit (up to ${STAFF_PAGE_MAX}) or q, one page of upcoming, past or booked slots with its total and the stat counts`,
        security: bearerSecurity,
        querystring: staffListQuerySchema,
        response: { 200: envelope(staffListSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const { isBooked, view, page, limit, q, sort, direction, school } = request.query;
      const booked = isBooked === undefined ? undefined : isBooked === 'true';
      const now = new Date();
      if (view === undefined && page === undefined && limit === undefined && q === undefined) {
        const rows = await listStaffSlots(app.db, booked);
        return ok({ timeSlots: { rows: rows.map((r) => toStaffSlot(r, now)), count: rows.length } }, `${rows.length} slot(s) found`);
      }
      // Paged (issue 41): the dashboard asks for one page of a view, never the school's whole history.
      const paging = { view: view ?? 'upcoming', page: page ?? 1, limit: limit ?? STAFF_PAGE_SIZE };
      const [{ rows, total, slotCount, schools }, stats] = await Promise.all([
        listStaffSlotPage(app.db, { ...paging, q: q || undefined, isBooked: booked, sort, direction, school }),
        staffListStats(app.db),
      ]);
      return ok(
        {
          timeSlots: { rows: rows.map((r) => toStaffSlot(r, now)), count: slotCount },
          pagination: { total, page: paging.page, limit: paging.limit, totalPages: Math.ceil(total / paging.limit) },
          stats,
          ...(schools && { schools }),
        },
        `${slotCount} slot(s) found`,
      );
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
        await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'slot_created', target: created.id, detail: { ...slotTimes(created), ...(request.body.seats && request.body.seats > 1 ? { seats: request.body.seats } : {}) } });
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
    '/slot/:id/seats',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['slots (staff)'],
        operationId: 'setSlotSeats',
        summary: `How many children a time assesses at once (1 to ${SLOT_MAX_SEATS}): raised with free seats, or lowered by free seats down to the children booked or paying at it (409 below)`,
        security: bearerSecurity,
        params: slotIdParamSchema,
        body: setSeatsBodySchema,
        response: { 200: envelope(z.object({ seats: z.number().int(), slots: z.array(staffSlotSchema) })), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const staff = request.staff!;
      const { before, after } = await app.db.transaction(async (tx) => {
        const changed = await setSeats(tx, request.params.id, request.body.seats);
        const kept = new Set(changed.after.map((row) => row.id));
        const had = new Set(changed.before.map((row) => row.id));
        const seats = changed.after.length;
        // Seats are slot rows: an added seat is recorded as a slot created, a removed one as a slot deleted.
        for (const row of changed.after.filter((row) => !had.has(row.id)))
          await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'slot_created', target: row.id, detail: { ...slotTimes(row), seats } });
        for (const row of changed.before.filter((row) => !kept.has(row.id)))
          await recordAudit(tx, { ...auditBy(staff, request.ip), action: 'slot_deleted', target: row.id, detail: { ...slotTimes(row), seats } });
        return changed;
      });
      // A seat added is offered to the waitlist first.
      if (after.length > before.length) slotFreed(app.db);
      const now = new Date();
      const seatsTaken = after.filter((row) => row.status === 'booked').length;
      const rows = after.map((row) => toStaffSlot(after.length > 1 ? { ...row, seats: after.length, seatsTaken } : row, now));
      return ok({ seats: after.length, slots: rows }, `${after.length} seat(s) at this time`);
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
