// msw handlers of the staff's day (issue 40) on an in-memory store, as the API answers: the day's visits, Arrived /
// No-show / Undo with the server's rules, the marks of a range, and a child's documents (view, download, mark).
import { http, HttpResponse } from 'msw';
import {
  ATTENDANCE_UNDO_MINUTES,
  attendanceBodySchema,
  attendanceRangeQuerySchema,
  VisitDayErrorCode,
  VisitDayMessage,
  visitDayQuerySchema,
  type DayVisit,
} from 'shared-api/visit-day';
import type { StaffDocumentsView } from 'shared-api/documents';
import { API } from '../../../test/handlers';
import { STAFF_EMAIL } from '../../../test/db';

export const visitDayDb = {
  /** The visits of each GMT+8 day. */
  days: new Map<string, DayVisit[]>(),
  /** The server's time (ISO); null: the real time. */
  now: null as string | null,
  /** Each booking's documents, by reference. */
  documents: new Map<string, StaffDocumentsView>(),
  /** What was asked: 'GET day', 'POST ref state', 'DELETE ref', 'download id', 'mark ref position kind mark'. */
  requests: [] as string[],
};

export function resetVisitDayDb(): void {
  visitDayDb.days.clear();
  visitDayDb.documents.clear();
  visitDayDb.now = null;
  visitDayDb.requests = [];
}

const ok = <T,>(data: T, message = 'OK') => HttpResponse.json({ success: true, data, message });
const fail = (status: number, error: string, message: string) => HttpResponse.json({ success: false, data: null, message, error }, { status });
const nowMs = () => (visitDayDb.now ? Date.parse(visitDayDb.now) : Date.now());
const findVisit = (reference: string, start: string) =>
  [...visitDayDb.days.values()].flat().find((v) => v.reference === reference && Date.parse(v.start) === Date.parse(start));

export const visitDayHandlers = [
  http.get(`${API}/staff/visits/day`, ({ request }) => {
    const query = visitDayQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return fail(400, 'VALIDATION_ERROR', 'Date must be a real day (YYYY-MM-DD)');
    visitDayDb.requests.push(`GET ${query.data.day}`);
    const visits = visitDayDb.days.get(query.data.day) ?? [];
    return ok({ day: query.data.day, now: new Date(nowMs()).toISOString(), visits }, `${visits.length} visit(s)`);
  }),
  http.get(`${API}/staff/visits/attendance`, ({ request }) => {
    const query = attendanceRangeQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return fail(400, 'VALIDATION_ERROR', 'Bad range');
    const records = [...visitDayDb.days.values()].flat().flatMap((v) => (v.attendance ? [{ reference: v.reference, start: v.start, ...v.attendance }] : []));
    return ok({ records });
  }),
  http.post(`${API}/staff/visits/:reference/attendance`, async ({ request, params }) => {
    const body = attendanceBodySchema.safeParse(await request.json());
    if (!body.success) return fail(400, 'VALIDATION_ERROR', 'Bad body');
    const reference = String(params.reference);
    visitDayDb.requests.push(`POST ${reference} ${body.data.state}`);
    const visit = findVisit(reference, body.data.start);
    if (!visit) return fail(404, VisitDayErrorCode.VISIT_NOT_FOUND, VisitDayMessage.notFound);
    if (body.data.state === 'noShow' && nowMs() < Date.parse(visit.start)) return fail(409, VisitDayErrorCode.ATTENDANCE_NOT_YET, VisitDayMessage.noShowTooEarly);
    if (visit.attendance && visit.attendance.state !== body.data.state) return fail(409, VisitDayErrorCode.ATTENDANCE_ALREADY_MARKED, VisitDayMessage.alreadyMarked);
    const at = nowMs();
    visit.attendance ??= { state: body.data.state, at: new Date(at).toISOString(), by: STAFF_EMAIL, undoableUntil: new Date(at + ATTENDANCE_UNDO_MINUTES * 60_000).toISOString() };
    return ok({ reference, start: visit.start, attendance: visit.attendance }, body.data.state === 'arrived' ? VisitDayMessage.arrived : VisitDayMessage.noShow);
  }),
  http.delete(`${API}/staff/visits/:reference/attendance`, ({ request, params }) => {
    const reference = String(params.reference);
    const start = new URL(request.url).searchParams.get('start') ?? '';
    visitDayDb.requests.push(`DELETE ${reference}`);
    const visit = findVisit(reference, start);
    if (!visit?.attendance) return fail(404, VisitDayErrorCode.ATTENDANCE_NOT_MARKED, VisitDayMessage.notMarked);
    if (nowMs() >= Date.parse(visit.attendance.undoableUntil)) return fail(409, VisitDayErrorCode.ATTENDANCE_UNDO_TOO_LATE, VisitDayMessage.undoTooLate);
    visit.attendance = null;
    return ok({ reference, start: visit.start, attendance: null }, VisitDayMessage.undone);
  }),
  http.get(`${API}/staff/bookings/:reference/documents`, ({ params }) => {
    const view = visitDayDb.documents.get(String(params.reference));
    return view ? ok(view, 'Documents') : fail(404, 'NOT_FOUND', 'No such booking.');
  }),
  http.get(`${API}/staff/documents/:id/download`, ({ params }) => {
    visitDayDb.requests.push(`download ${String(params.id)}`);
    return new HttpResponse(new Uint8Array([37, 80, 68, 70]), { headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment' } });
  }),
  http.post(`${API}/staff/bookings/:reference/documents/:position/:kind/mark`, async ({ request, params }) => {
    const reference = String(params.reference);
    const view = visitDayDb.documents.get(reference);
    const { mark } = (await request.json()) as { mark: 'checked' | 'seenOnPaper' | null };
    visitDayDb.requests.push(`mark ${reference} ${String(params.position)} ${String(params.kind)} ${String(mark)}`);
    const item = view?.children.find((c) => c.position === Number(params.position))?.items.find((i) => i.kind === params.kind);
    if (!view || !item) return fail(404, 'DOCUMENT_NOT_FOUND', 'This booking has no child at that place.');
    Object.assign(item, { staffMark: mark, markedBy: mark ? STAFF_EMAIL : null, markedAt: mark ? new Date(nowMs()).toISOString() : null });
    return ok(view, 'Document marked');
  }),
];
