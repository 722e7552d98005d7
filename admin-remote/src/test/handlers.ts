// msw handlers that answer as the server's contract does: {success, data, message} and `error` codes on failure.
import { http, HttpResponse } from 'msw';
import { dateInMY, ErrorCode, SlotListError, type StaffSlot } from 'shared-api';
import { createSlotBodySchema, deleteSlotBodySchema, loginBodySchema, registerBodySchema, staffAlertsSchema } from 'shared-api/schemas';
import {
  ManageErrorCode,
  ManageMessage,
  staffBookingListSchema,
  staffBookingSchema,
  staffCancelBodySchema,
  staffMoveBodySchema,
  unconfirmedVisitsQuerySchema,
  unconfirmedVisitsSchema,
  type StaffBooking,
} from 'shared-api/manage';
import { calendarFeedPath, calendarFeedSchema } from 'shared-api/calendar-feed';
import {
  AccountErrorCode,
  AccountMessage,
  passwordResetCheckBodySchema,
  passwordResetConfirmBodySchema,
  passwordResetRequestBodySchema,
  staffAccountListSchema,
  staffRoleBodySchema,
} from 'shared-api/accounts';
import { bookingEvent, db, TEST_RECOVERY_CODES, TEST_TOTP_CODE } from './db';
import { PAGE_PARAMS, staffListPage } from './staffListPage';

export const API = 'http://localhost:4000';
export const DELETE_HELD_MESSAGE =
  'A visitor is paying for this slot right now, so it cannot be deleted. Try again in a few minutes.';

const ok = <T,>(data: T, message = 'OK', status = 200) => HttpResponse.json({ success: true, data, message }, { status });
export const fail = (status: number, error: string, message: string) =>
  HttpResponse.json({ success: false, data: null, message, error }, { status });

/** The bearer token a request carries ('' for none). */
const tokenOf = (request: Request) => {
  const header = request.headers.get('authorization') ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) : '';
};
function bearerUser(request: Request): number | null {
  return db.tokens.get(tokenOf(request)) ?? null;
}
const unauthorized = () => fail(401, ErrorCode.UNAUTHORIZED, SlotListError.unauthorized);
const roleOf = (userId: number | null) => db.accounts.find((a) => a.id === userId)?.role ?? null;
/** As the server's requireAdmin: 401 without a session, 403 ADMIN_ONLY for staff; null when an admin may go on. */
export function adminRefusal(request: Request): Response | null {
  const userId = bearerUser(request);
  if (userId === null) return unauthorized();
  if (roleOf(userId) !== 'admin') return fail(403, AccountErrorCode.ADMIN_ONLY, AccountMessage.adminOnly);
  return null;
}
/** As requireAdminStepUp: also 403 STEP_UP_REQUIRED (with `data.enrolled`) until this session gave the second factor. */
export function stepUpRefusal(request: Request): Response | null {
  const refused = adminRefusal(request);
  if (refused) return refused;
  if (db.steppedUp.has(tokenOf(request))) return null;
  const enrolled = db.enrolled.has(bearerUser(request)!);
  return HttpResponse.json({ success: false, data: { enrolled }, message: AccountMessage.stepUpRequired, error: AccountErrorCode.STEP_UP_REQUIRED }, { status: 403 });
}
/** The server's list of the most common passwords, as far as the tests need it (compared without case). */
export const COMMON_PASSWORDS = ['password', 'qwerty123'];
const isCommonPassword = (password: string) => COMMON_PASSWORDS.includes(password.toLowerCase());
const commonPasswordRefused = () =>
  HttpResponse.json({ success: false, data: null, message: AccountMessage.commonPassword, error: ErrorCode.VALIDATION_ERROR, reason: { rule: 'commonPassword' } }, { status: 400 });
export const BOOKING_NOT_FOUND = 'Booking not found.';
export const BOOKING_OVER = 'This visit is over, so the booking cannot be cancelled.';
export const CHILD_NOT_FOUND = 'This booking has no child at that place.';
export const ONE_CHILD = 'This booking is for one child: move the whole booking.';

/** As the server: the child at `position` of a booking of several, still booked with another (a refusal otherwise). */
function childOf(booking: StaffBooking, position: number) {
  const child = booking.children?.find((c) => c.position === position);
  if (!booking.children) return { refusal: fail(400, ErrorCode.VALIDATION_ERROR, ONE_CHILD) };
  if (!child) return { refusal: fail(404, ErrorCode.NOT_FOUND, CHILD_NOT_FOUND) };
  if (child.cancelled) return { refusal: fail(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.alreadyCancelled) };
  // The last child still booked is the booking itself.
  return { child, alone: booking.children.filter((c) => !c.cancelled).length > 1 };
}
let feedTokensMade = 0;

export const handlers = [
  http.post(`${API}/auth/login`, async ({ request }) => {
    const parsed = loginBodySchema.safeParse(await request.json());
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    const account = db.accounts.find((a) => a.email === parsed.data.email && a.password === parsed.data.password);
    if (!account) return fail(401, ErrorCode.UNAUTHORIZED, 'Invalid email or password.');
    const token = `token-${account.id}-${db.tokens.size + 1}`;
    db.tokens.set(token, account.id);
    return ok({ token, expiresAt: new Date(Date.now() + 8 * 3600_000).toISOString() }, 'Login successful');
  }),

  http.post(`${API}/auth/logout`, ({ request }) => {
    const header = request.headers.get('authorization') ?? '';
    const token = header.replace(/^Bearer /, '');
    if (!db.tokens.has(token)) return unauthorized();
    db.tokens.delete(token);
    return ok(null, 'Logged out');
  }),

  http.get(`${API}/user`, ({ request }) => {
    const userId = bearerUser(request);
    const account = db.accounts.find((a) => a.id === userId);
    if (!account) return unauthorized();
    return ok({ data: { user: { id: account.id, email: account.email, username: account.username, role: account.role } } });
  }),

  http.post(`${API}/auth/register`, async ({ request }) => {
    const refused = stepUpRefusal(request);
    if (refused) return refused;
    const parsed = registerBodySchema.safeParse(await request.json());
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    if (isCommonPassword(parsed.data.password)) return commonPasswordRefused();
    if (db.accounts.some((a) => a.email === parsed.data.email)) {
      return fail(409, ErrorCode.ACCOUNT_EXISTS, 'An account with this email already exists.');
    }
    const user = { id: db.nextUserId++, email: parsed.data.email, username: parsed.data.username ?? null, role: parsed.data.role ?? ('staff' as const) };
    db.accounts.push({ ...user, password: parsed.data.password });
    return ok({ user }, 'Account created', 201);
  }),

  http.get(`${API}/slot/list`, ({ request }) => {
    if (bearerUser(request) === null) return unauthorized();
    const params = new URL(request.url).searchParams;
    if (PAGE_PARAMS.some((name) => params.has(name))) {
      const answer = staffListPage(db.slots, params);
      return 'refusal' in answer ? fail(400, ErrorCode.VALIDATION_ERROR, answer.refusal) : ok(answer.data);
    }
    const isBooked = params.get('isBooked');
    // As the server: isBooked=false lists every unbooked slot, including ones held by a paying visitor.
    const rows: StaffSlot[] = db.slots.filter((s) =>
      isBooked === null ? true : isBooked === 'true' ? s.isBooked : !s.isBooked,
    );
    return ok({ timeSlots: { rows, count: rows.length } });
  }),

  http.post(`${API}/slot/add`, async ({ request }) => {
    if (bearerUser(request) === null) return unauthorized();
    const parsed = createSlotBodySchema.safeParse(await request.json());
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    const { date, startTime, endTime } = parsed.data;
    if (db.slots.some((s) => s.date.startsWith(date) && s.startTime === startTime)) {
      return fail(409, ErrorCode.SLOT_EXISTS, 'A slot already exists at this date and time.');
    }
    const slot: StaffSlot = {
      id: db.nextSlotId++,
      date: `${date}T${startTime}:00+08:00`,
      startTime,
      endTime,
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
    return ok({ slot }, 'Slot created', 201);
  }),

  http.put(`${API}/slot/delete/:slotId`, async ({ request, params }) => {
    if (bearerUser(request) === null) return unauthorized();
    const parsed = deleteSlotBodySchema.safeParse(await request.json());
    if (!parsed.success || parsed.data.slotId !== Number(params.slotId)) {
      return fail(400, ErrorCode.VALIDATION_ERROR, 'slotId must match the path');
    }
    const index = db.slots.findIndex((s) => s.id === parsed.data.slotId);
    if (index < 0) return fail(404, ErrorCode.NOT_FOUND, 'Slot not found. It may have been deleted already.');
    const slot = db.slots[index];
    if (slot.isBooked) return fail(409, ErrorCode.SLOT_NOT_AVAILABLE, 'This slot is booked and cannot be deleted.');
    if (slot.status === 'reserved') {
      return fail(409, ErrorCode.SLOT_RESERVED, DELETE_HELD_MESSAGE);
    }
    db.slots.splice(index, 1);
    return ok({ slot }, 'Slot deleted successfully');
  }),

  http.get(`${API}/staff/alerts`, ({ request }) => {
    if (bearerUser(request) === null) return unauthorized();
    // Parsed by the contract, so a test can only set up what the server could answer.
    const alerts = staffAlertsSchema.parse(db.alerts);
    return ok(alerts, `${alerts.stuckMail.total} stuck mail(s), ${alerts.failingRefunds.total} failing refund(s)`);
  }),

  // Staff bookings, answered through the contract's schemas so a test can only set up what the server could answer.
  http.get(`${API}/staff/bookings`, ({ request }) => {
    if (bearerUser(request) === null) return unauthorized();
    const rows = [...db.bookings]
      .sort((a, b) => Date.parse(b.start) - Date.parse(a.start))
      .map(({ history: _history, ...row }) => row);
    return ok(staffBookingListSchema.parse({ bookings: rows }), `${rows.length} booking(s)`);
  }),

  http.get(`${API}/staff/bookings/:reference`, ({ request, params }) => {
    if (bearerUser(request) === null) return unauthorized();
    const booking = db.bookings.find((b) => b.reference === params.reference);
    if (!booking) return fail(404, ErrorCode.NOT_FOUND, BOOKING_NOT_FOUND);
    return ok(staffBookingSchema.parse(booking));
  }),

  // As the server (issue 38): the day's bookings still booked that no parent confirmed, a booking of several as its children still booked.
  http.get(`${API}/staff/visits/unconfirmed`, ({ request }) => {
    if (bearerUser(request) === null) return unauthorized();
    const day = new URL(request.url).searchParams.get('day') ?? '';
    db.unconfirmedRequests.push(day);
    const query = unconfirmedVisitsQuerySchema.safeParse({ day });
    if (!query.success) return fail(400, ErrorCode.VALIDATION_ERROR, query.error.issues[0].message);
    const visits = db.bookings
      .filter((b) => b.state === 'booked' && !b.confirmedByParentAt && dateInMY(b.start) === day)
      .sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
      .map((b) => ({
        reference: b.reference,
        start: b.start,
        end: b.end,
        visitorName: b.visitorName,
        visitorContactNo: b.visitorContactNo,
        children: b.children ? b.children.filter((c) => !c.cancelled).map((c) => c.childName) : b.childName ? [b.childName] : [],
        paid: b.paymentId !== null,
      }));
    return ok(unconfirmedVisitsSchema.parse({ day, visits }), `${visits.length} visit(s) not confirmed`);
  }),

  // As the server: cancels by the staff member's email, asks for a refund of the amount paid when told to, frees the slot.
  http.post(`${API}/staff/bookings/:reference/cancel`, async ({ request, params }) => {
    const userId = bearerUser(request);
    if (userId === null) return unauthorized();
    const actor = db.accounts.find((a) => a.id === userId)?.email ?? null;
    const reference = String(params.reference);
    const body: unknown = await request.json();
    db.cancelRequests.push({ reference, body, actor });
    const parsed = staffCancelBodySchema.safeParse(body);
    if (!parsed.success || !actor) return fail(400, ErrorCode.VALIDATION_ERROR, 'refund must be true or false');
    const booking = db.bookings.find((b) => b.reference === reference);
    if (!booking) return fail(404, ErrorCode.NOT_FOUND, BOOKING_NOT_FOUND);
    if (booking.state === 'cancelled') return fail(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.alreadyCancelled);
    if (booking.state === 'over') return fail(409, ManageErrorCode.CHANGE_CLOSED, BOOKING_OVER);
    const at = new Date().toISOString();
    if (parsed.data.child !== undefined) {
      // One child of several (issue 37): that child cancelled with their share back or none, the others staying booked.
      const found = childOf(booking, parsed.data.child);
      if (found.refusal) return found.refusal;
      if (found.alone) {
        const childSen = parsed.data.refund ? found.child.amountSen : 0;
        booking.children = booking.children!.map((c) => (c.position === found.child.position ? { ...c, cancelled: true, refundSen: childSen > 0 ? childSen : null } : c));
        booking.history = [...booking.history, bookingEvent({ at, kind: 'child_cancelled', actor, amountSen: childSen > 0 ? childSen : null, childName: found.child.childName })];
        return ok(staffBookingSchema.parse(booking), ManageMessage.staffCancelled);
      }
    }
    const refundSen = parsed.data.refund ? booking.amountPaidSen : 0;
    booking.state = 'cancelled';
    booking.history = [...booking.history, bookingEvent({ at, kind: 'cancelled', actor })];
    if (refundSen > 0) {
      booking.refund = { amountSen: refundSen, state: 'pending' };
      booking.history.push(bookingEvent({ at, kind: 'refund_requested', actor, amountSen: refundSen }));
    }
    const slot = db.slots.find((s) => s.bookingReference === reference);
    if (slot) {
      Object.assign(slot, {
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
      } satisfies Partial<StaffSlot>);
    }
    return ok(staffBookingSchema.parse(booking), ManageMessage.staffCancelled);
  }),

  // Staff move, as the server: the old slot freed, the free target booked, the history told who did it.
  http.post(`${API}/staff/bookings/:reference/move`, async ({ request, params }) => {
    const userId = bearerUser(request);
    if (userId === null) return unauthorized();
    const actor = db.accounts.find((a) => a.id === userId)?.email ?? null;
    const reference = String(params.reference);
    const body: unknown = await request.json();
    db.moveRequests.push({ reference, body, actor });
    const parsed = staffMoveBodySchema.safeParse(body);
    if (!parsed.success || !actor) return fail(400, ErrorCode.VALIDATION_ERROR, 'slotId must be a slot id');
    const booking = db.bookings.find((b) => b.reference === reference);
    if (!booking) return fail(404, ErrorCode.NOT_FOUND, BOOKING_NOT_FOUND);
    if (booking.state === 'cancelled') return fail(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.alreadyCancelled);
    const from = db.slots.find((s) => s.bookingReference === reference);
    const target = db.slots.find((s) => s.id === parsed.data.slotId);
    if (!target || target.isBooked) return fail(409, ErrorCode.SLOT_NOT_AVAILABLE, ManageMessage.slotTaken);
    if (parsed.data.child !== undefined) {
      // One child of several (issue 37): that child alone to the target's time, which the child's line then says.
      const found = childOf(booking, parsed.data.child);
      if (found.refusal) return found.refusal;
      if (found.alone) {
        const toStart = new Date(target.date).toISOString();
        Object.assign(target, { isBooked: true, status: 'booked', bookingReference: reference, visitorName: from?.visitorName ?? null, childName: found.child.childName } satisfies Partial<StaffSlot>);
        const time = { date: target.date.slice(0, 10), startTime: target.startTime, endTime: target.endTime };
        booking.children = booking.children!.map((c) => (c.position === found.child.position ? { ...c, time } : c));
        booking.history = [...booking.history, bookingEvent({ at: new Date().toISOString(), kind: 'rescheduled', actor, fromStart: booking.start, toStart, childName: found.child.childName })];
        return ok(staffBookingSchema.parse(booking), ManageMessage.staffChildMoved);
      }
    }
    const visitor = {
      visitorName: from?.visitorName ?? null,
      visitorEmail: from?.visitorEmail ?? null,
      visitorContactNo: from?.visitorContactNo ?? null,
      selectedSchool: from?.selectedSchool ?? null,
      amountSen: from?.amountSen ?? null,
    };
    if (from) Object.assign(from, { isBooked: false, status: 'available', visitorName: null, visitorEmail: null, visitorContactNo: null, selectedSchool: null, bookingReference: null, amountSen: null } satisfies Partial<StaffSlot>);
    Object.assign(target, { isBooked: true, status: 'booked', bookingReference: reference, ...visitor } satisfies Partial<StaffSlot>);
    // The slot's date carries its start (YYYY-MM-DDTHH:mm+08:00); a visit lasts 30 minutes.
    const toStart = new Date(target.date).toISOString();
    booking.history = [...booking.history, bookingEvent({ at: new Date().toISOString(), kind: 'rescheduled', actor, fromStart: booking.start, toStart })];
    booking.start = toStart;
    booking.end = new Date(Date.parse(toStart) + 30 * 60_000).toISOString();
    return ok(staffBookingSchema.parse(booking), ManageMessage.staffMoved);
  }),

  // The PDPA request log (issue 28): none logged unless a test says otherwise.
  http.get(`${API}/staff/privacy/requests`, ({ request }) => adminRefusal(request) ?? ok({ requests: [] }, '0 request(s)')),
  http.get(`${API}/staff/breaches`, ({ request }) => adminRefusal(request) ?? ok({ breaches: [] }, '0 breach(es)')),

  // The signed-in account's calendar feed, as the server: the URL only in POST's answer (create or regenerate).
  http.get(`${API}/staff/calendar-feed`, ({ request }) => {
    const refused = adminRefusal(request);
    if (refused) return refused;
    const userId = bearerUser(request)!;
    const feed = db.calendarFeeds.get(userId);
    return ok(calendarFeedSchema.parse({ active: !!feed, createdAt: feed?.createdAt ?? null, url: null }), 'Calendar feed');
  }),

  http.post(`${API}/staff/calendar-feed`, ({ request }) => {
    const refused = stepUpRefusal(request);
    if (refused) return refused;
    const userId = bearerUser(request)!;
    // 43 base64url characters, a new one at each regenerate.
    const token = `feed${userId}n${(feedTokensMade += 1)}`.padEnd(43, 'x');
    const feed = { createdAt: new Date().toISOString(), token };
    db.calendarFeeds.set(userId, feed);
    return ok(calendarFeedSchema.parse({ active: true, createdAt: feed.createdAt, url: `${API}${calendarFeedPath(token)}` }), 'Calendar link created');
  }),

  http.delete(`${API}/staff/calendar-feed`, ({ request }) => {
    const refused = stepUpRefusal(request);
    if (refused) return refused;
    const userId = bearerUser(request)!;
    db.calendarFeeds.delete(userId);
    return ok(calendarFeedSchema.parse({ active: false, createdAt: null, url: null }), 'Calendar link turned off');
  }),
  // Staff accounts (issue 15), as the server: logout everywhere, forgot password, colleagues.
  http.post(`${API}/auth/logout-all`, ({ request }) => {
    const userId = bearerUser(request);
    if (userId === null) return unauthorized();
    let revoked = 0;
    for (const [token, id] of db.tokens) if (id === userId && db.tokens.delete(token)) revoked++;
    return ok({ revoked }, AccountMessage.loggedOutEverywhere);
  }),

  http.post(`${API}/auth/password-reset/request`, async ({ request }) => {
    const parsed = passwordResetRequestBodySchema.safeParse(await request.json());
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    db.resetRequests.push(parsed.data.email);
    const account = db.accounts.find((a) => a.email === parsed.data.email && !a.disabledAt);
    if (account) db.resetTokens.set(`reset-${account.id}-${db.resetTokens.size + 1}`.padEnd(43, 'x'), account.id);
    return ok(null, AccountMessage.resetRequested);
  }),

  http.post(`${API}/auth/password-reset/check`, async ({ request }) => {
    const parsed = passwordResetCheckBodySchema.safeParse(await request.json());
    if (!parsed.success || !db.resetTokens.has(parsed.data.token)) return fail(400, ErrorCode.VALIDATION_ERROR, AccountMessage.resetInvalid);
    return ok({ usable: true }, 'This reset link works');
  }),

  http.post(`${API}/auth/password-reset/confirm`, async ({ request }) => {
    const parsed = passwordResetConfirmBodySchema.safeParse(await request.json());
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    if (isCommonPassword(parsed.data.password)) return commonPasswordRefused();
    const account = db.accounts.find((a) => a.id === db.resetTokens.get(parsed.data.token));
    if (!account) return fail(400, ErrorCode.VALIDATION_ERROR, AccountMessage.resetInvalid);
    db.resetTokens.delete(parsed.data.token);
    account.password = parsed.data.password;
    for (const [token, id] of db.tokens) if (id === account.id) db.tokens.delete(token);
    return ok(null, AccountMessage.resetDone);
  }),

  // The admin's second factor (issue 35): TEST_TOTP_CODE is the app's code; the session steps up for 12 hours.
  http.get(`${API}/auth/second-factor`, ({ request }) => {
    const refused = adminRefusal(request);
    if (refused) return refused;
    const steppedUp = db.steppedUp.has(tokenOf(request));
    return ok({ enrolled: db.enrolled.has(bearerUser(request)!), steppedUpUntil: steppedUp ? new Date(Date.now() + 12 * 3600_000).toISOString() : null });
  }),
  http.post(`${API}/auth/second-factor/enrol`, ({ request }) => {
    const refused = adminRefusal(request);
    if (refused) return refused;
    if (db.enrolled.has(bearerUser(request)!)) return fail(409, ErrorCode.VALIDATION_ERROR, AccountMessage.alreadyEnrolled);
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    return ok({ secret, uri: `otpauth://totp/Seri%20Ilmu:staff?secret=${secret}`, qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>' });
  }),
  http.post(`${API}/auth/second-factor/enrol/confirm`, async ({ request }) => {
    const refused = adminRefusal(request);
    if (refused) return refused;
    const { code } = (await request.json()) as { code: string };
    if (code.trim() !== TEST_TOTP_CODE) return HttpResponse.json({ success: false, data: null, message: AccountMessage.codeWrong, error: ErrorCode.VALIDATION_ERROR, reason: { rule: 'codeWrong' } }, { status: 400 });
    db.enrolled.add(bearerUser(request)!);
    db.steppedUp.add(tokenOf(request));
    return ok({ recoveryCodes: TEST_RECOVERY_CODES, steppedUpUntil: new Date(Date.now() + 12 * 3600_000).toISOString() });
  }),
  http.post(`${API}/auth/second-factor/verify`, async ({ request }) => {
    const refused = adminRefusal(request);
    if (refused) return refused;
    const { code } = (await request.json()) as { code: string };
    if (code.trim() !== TEST_TOTP_CODE && !TEST_RECOVERY_CODES.includes(code.trim().toUpperCase()))
      return HttpResponse.json({ success: false, data: null, message: AccountMessage.codeWrong, error: ErrorCode.VALIDATION_ERROR, reason: { rule: 'codeWrong' } }, { status: 400 });
    db.steppedUp.add(tokenOf(request));
    return ok({ steppedUpUntil: new Date(Date.now() + 12 * 3600_000).toISOString(), recoveryCodesLeft: 10 });
  }),

  http.get(`${API}/staff/accounts`, ({ request }) => {
    const refusedAccounts = adminRefusal(request);
    if (refusedAccounts) return refusedAccounts;
    const accounts = db.accounts.map((a) => ({
      id: a.id,
      email: a.email,
      username: a.username,
      role: a.role,
      secondFactor: db.enrolled.has(a.id),
      createdAt: a.createdAt ?? '2026-01-05T01:00:00.000Z',
      lastLoginAt: a.lastLoginAt ?? null,
      disabledAt: a.disabledAt ?? null,
    }));
    return ok(staffAccountListSchema.parse({ accounts }), `${accounts.length} account(s)`);
  }),

  http.post(`${API}/staff/accounts/:id/disable`, ({ request, params }) => {
    const refusedDisable = stepUpRefusal(request);
    if (refusedDisable) return refusedDisable;
    const account = db.accounts.find((a) => a.id === Number(params.id));
    if (!account) return fail(404, ErrorCode.NOT_FOUND, AccountMessage.accountNotFound);
    if (!account.disabledAt) {
      const enabled = db.accounts.filter((a) => !a.disabledAt);
      if (enabled.length <= 1) return fail(409, ErrorCode.FORBIDDEN, AccountMessage.lastActiveAccount);
      if (account.role === 'admin' && enabled.filter((a) => a.role === 'admin').length <= 1) return fail(409, ErrorCode.FORBIDDEN, AccountMessage.lastAdmin);
      account.disabledAt = new Date().toISOString();
      for (const [token, id] of db.tokens) if (id === account.id) db.tokens.delete(token);
    }
    return ok(null, AccountMessage.accountDisabled);
  }),
  // As the server's setRole: the last enabled admin cannot be made staff; the same role again is a no-op.
  http.post(`${API}/staff/accounts/:id/role`, async ({ request, params }) => {
    const refusedRole = stepUpRefusal(request);
    if (refusedRole) return refusedRole;
    const parsed = staffRoleBodySchema.safeParse(await request.json());
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    const account = db.accounts.find((a) => a.id === Number(params.id));
    if (!account) return fail(404, ErrorCode.NOT_FOUND, AccountMessage.accountNotFound);
    if (account.role !== parsed.data.role) {
      const otherAdmins = db.accounts.filter((a) => !a.disabledAt && a.role === 'admin' && a.id !== account.id).length;
      if (account.role === 'admin' && otherAdmins === 0) return fail(409, ErrorCode.FORBIDDEN, AccountMessage.lastAdmin);
      account.role = parsed.data.role;
    }
    return ok(null, AccountMessage.roleChanged);
  }),
  // A colleague's lost phone: never your own (403); 404 when they have none.
  http.post(`${API}/staff/accounts/:id/second-factor/reset`, ({ request, params }) => {
    const refusedReset = stepUpRefusal(request);
    if (refusedReset) return refusedReset;
    const id = Number(params.id);
    if (id === bearerUser(request)) return fail(403, ErrorCode.FORBIDDEN, AccountMessage.ownSecondFactor);
    if (!db.enrolled.delete(id)) return fail(404, ErrorCode.NOT_FOUND, AccountMessage.noSecondFactor);
    // Their sessions give the second factor again (after setting it up) at their next admin action.
    for (const [token, userId] of db.tokens) if (userId === id) db.steppedUp.delete(token);
    return ok(null, 'Second factor reset');
  }),
  // The waitlist's dashboard counts (issue 26); the waitlist page's tests answer its list themselves.
  http.get(`${API}/staff/waitlist/summary`, ({ request }) =>
    bearerUser(request) === null ? unauthorized() : ok({ waiting: 0, offersLive: 0, filledThisWeek: 0 }),
  ),
];
