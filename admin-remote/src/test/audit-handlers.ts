// msw handlers for the audit trail (GET /staff/audit), speaking the contract: the same query schema the server
// validates with, and the server's filters (person exact or contains, action, GMT+8 days inclusive), newest first,
// paged. Tests add them with server.use(...auditHandlers) and fill auditRecords.
import { http, HttpResponse } from 'msw';
import { ErrorCode } from 'shared-api';
import { dayInMY } from 'shared-api/time';
import { auditQuerySchema, type AuditRecord } from 'shared-api/audit';
import { API, fail } from './handlers';
import { db } from './db';

/** The records GET /staff/audit reads (tests set them; resetAudit empties them). */
export let auditRecords: AuditRecord[] = [];
/** Every query string the handler received, in order (tests check what the page asked for). */
export const auditRequests: URLSearchParams[] = [];

export function resetAudit(records: AuditRecord[] = []): void {
  auditRecords = records;
  auditRequests.length = 0;
}

let nextId = 1;
/** A record with defaults (a staff login from 10.0.0.1). */
export const auditRecord = (over: Partial<AuditRecord> & Pick<AuditRecord, 'at'>): AuditRecord => ({
  id: nextId++,
  actor: 'staff@seriilmu.edu.my',
  action: 'login',
  target: null,
  detail: null,
  ip: '10.0.0.1',
  ...over,
});

const signedIn = (request: Request) => {
  const header = request.headers.get('authorization') ?? '';
  return db.tokens.has(header.startsWith('Bearer ') ? header.slice(7) : '');
};

export const auditHandlers = [
  http.get(`${API}/staff/audit`, ({ request }) => {
    if (!signedIn(request)) return fail(401, ErrorCode.UNAUTHORIZED, 'Authentication required. Please log in again.');
    const search = new URL(request.url).searchParams;
    auditRequests.push(search);
    const parsed = auditQuerySchema.safeParse(Object.fromEntries(search));
    if (!parsed.success) return fail(400, ErrorCode.VALIDATION_ERROR, parsed.error.issues[0].message);
    const q = parsed.data;
    const actor = q.actor?.trim();
    const from = q.from ? dayInMY(q.from).valueOf() : -Infinity;
    const to = q.to ? dayInMY(q.to).add(1, 'day').valueOf() : Infinity;
    const matching = auditRecords
      .filter((r) => !actor || (q.actorMatch === 'exact' ? r.actor === actor : r.actor.toLowerCase().includes(actor.toLowerCase())))
      .filter((r) => !q.action || r.action === q.action)
      .filter((r) => Date.parse(r.at) >= from && Date.parse(r.at) < to)
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || b.id - a.id);
    const rows = matching.slice((q.page - 1) * q.limit, q.page * q.limit);
    return HttpResponse.json({ success: true, data: { rows, total: matching.length, page: q.page, limit: q.limit }, message: `${matching.length} record(s)` });
  }),
];
