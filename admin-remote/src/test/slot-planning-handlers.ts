// msw handlers for slot planning (POST /slot/add-many and its preview), speaking the contract: the same planSlots the
// server runs, against the in-memory slots (part of every test's msw server).
import { http, HttpResponse } from 'msw';
import { ErrorCode, type StaffSlot } from 'shared-api';
import { slotStart } from 'shared-api/time';
import { SlotPlanMessage, planSlots, slotPlanBodySchema, type SlotPlanBody } from 'shared-api/slot-planning';
import { API, fail } from './handlers';
import { db } from './db';

const signedIn = (request: Request) => {
  const header = request.headers.get('authorization') ?? '';
  return db.tokens.has(header.startsWith('Bearer ') ? header.slice(7) : '');
};

/** The public holidays the handlers know (the server reads them from date-holidays); tests set them. */
export const testHolidays = new Map<string, string>();

function planFor(body: SlotPlanBody) {
  const live = db.slots.flatMap((s) => {
    const start = slotStart(s.date, s.startTime);
    const end = slotStart(s.date, s.endTime);
    return start && end ? [{ startMs: start.valueOf(), endMs: end.valueOf() }] : [];
  });
  return planSlots(body, live, Date.now(), testHolidays);
}

async function read(request: Request) {
  if (!signedIn(request)) return { error: fail(401, ErrorCode.UNAUTHORIZED, 'Authentication required. Please log in again.') };
  const parsed = slotPlanBodySchema.safeParse(await request.json());
  if (!parsed.success) return { error: fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message) };
  return { body: parsed.data };
}

/** Every add-many request body the handlers received, in order (tests check what the dialog sent). */
export const addManyRequests: SlotPlanBody[] = [];

export const slotPlanningHandlers = [
  http.post(`${API}/slot/add-many/preview`, async ({ request }) => {
    const { error, body } = await read(request);
    if (error) return error;
    const plan = planFor(body);
    return HttpResponse.json({ success: true, data: plan, message: 'OK' });
  }),
  http.post(`${API}/slot/add-many`, async ({ request }) => {
    const { error, body } = await read(request);
    if (error) return error;
    addManyRequests.push(body);
    const plan = planFor(body);
    if (plan.refused.length > 0)
      return HttpResponse.json({ success: false, data: plan, message: SlotPlanMessage.refused, error: ErrorCode.SLOT_EXISTS }, { status: 409 });
    if (plan.toCreate.length === 0) return fail(400, ErrorCode.VALIDATION_ERROR, SlotPlanMessage.nothingToCreate);
    const created: StaffSlot[] = plan.toCreate.map((item) => {
      const slot: StaffSlot = {
        id: db.nextSlotId++,
        date: `${item.date}T${item.startTime}:00+08:00`,
        startTime: item.startTime,
        endTime: item.endTime,
        isBooked: false,
        status: 'available',
        visitorName: null,
        visitorEmail: null,
        visitorContactNo: null,
        selectedSchool: null,
        childName: null,
        childYear: null,
        bookingReference: null,
        amountSen: null,
      };
      db.slots.push(slot);
      return slot;
    });
    return HttpResponse.json({ success: true, data: { created, count: created.length }, message: SlotPlanMessage.created(created.length) }, { status: 201 });
  }),
];
