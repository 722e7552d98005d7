jest.setTimeout(60_000);
import { sql } from 'drizzle-orm';
import { AUDIT_PAGE_MAX, ErrorCode, type AuditRecord } from 'shared-api/contract';
import { auditLog } from '../../src/audit/record';
import { auth, queryRows, adminToken, STAFF, weekdayAhead } from '../helpers';
import { insertSlot, startPaymentsApp, visitor, type Driver, type PayCtx } from '../payments/support';
import { bookPaid, cancel, manageGet, reschedule } from '../bookings/support';

const ADDRESS = '203.0.113.7';


describe.each(['pglite', 'postgres'] as Driver[])('audit trail: records and GET /staff/audit (%s)', (driver) => {
  let ctx: PayCtx;
  let token: string;

  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    token = await adminToken(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const allRecords = () => queryRows<{ id: string }>(ctx.database, sql`SELECT id FROM audit_log ORDER BY id`);
  /** The newest records of one action, through the API (a check of the route too). */
  async function latest(action: string, limit = 5): Promise<AuditRecord[]> {
    const res = await ctx.app.inject({ url: `/staff/audit?action=${action}&limit=${limit}`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data.rows;
  }

  it('needs a staff token; nothing about the trail is answered without one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await ctx.app.inject({ url: '/staff/audit', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.UNAUTHORIZED });
    }
  });

  it('no route changes or deletes a record', async () => {
    const before = await allRecords();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/staff/audit', `/staff/audit/${before[0]?.id ?? 1}`]) {
        const res = await ctx.app.inject({ method, url, headers: auth(token), payload: { actor: 'x' } });
        expect(res.statusCode).toBe(404);
      }
    }
    expect(await allRecords()).toEqual(before);
  });

  it('records a login and a failed login (with the address), and a logout', async () => {
    const ok = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF, remoteAddress: ADDRESS });
    expect(ok.statusCode).toBe(200);
    const bad = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'Intruder@Example.com', password: 'guess' }, remoteAddress: ADDRESS });
    expect(bad.statusCode).toBe(401);
    const wrongPassword = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { ...STAFF, password: 'wrong' }, remoteAddress: ADDRESS });
    expect(wrongPassword.statusCode).toBe(401);

    const [login] = await latest('login', 1);
    expect(login).toMatchObject({ actor: STAFF.email, action: 'login', ip: ADDRESS, target: null });
    expect((await latest('login_failed', 2)).map((r) => [r.actor, r.ip])).toEqual([
      [STAFF.email, ADDRESS],
      ['intruder@example.com', ADDRESS],
    ]);

    const session = ok.json().data.token as string;
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(session), remoteAddress: ADDRESS })).statusCode).toBe(200);
    expect((await latest('logout', 1))[0]).toMatchObject({ actor: STAFF.email, action: 'logout', ip: ADDRESS });
  });

  it('records an account added by a colleague (target: its email); a refused one writes nothing', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: `New-${driver}@Example.com`, password: 'secret-pass' },
      headers: auth(token),
      remoteAddress: ADDRESS,
    });
    expect(res.statusCode).toBe(201);
    expect((await latest('account_added', 1))[0]).toMatchObject({ actor: STAFF.email, target: `new-${driver}@example.com`, ip: ADDRESS });
    const before = await allRecords();
    const again = await ctx.app.inject({ method: 'POST', url: '/auth/register', payload: { email: `new-${driver}@example.com`, password: 'secret-pass' }, headers: auth(token) });
    expect(again.statusCode).toBe(409);
    expect(await allRecords()).toEqual(before);
  });

  it('a malformed login (400) writes no record', async () => {
    const before = await allRecords();
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'not-an-email', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(await allRecords()).toEqual(before);
  });

  it('records a slot created and deleted (target: the slot id, with its times); refused ones write nothing', async () => {
    const date = weekdayAhead(20 + (driver === 'postgres' ? 1 : 0));
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/slot/add',
      payload: { date, startTime: '08:30', endTime: '09:00' },
      headers: auth(token),
      remoteAddress: ADDRESS,
    });
    expect(created.statusCode).toBe(201);
    const slot = created.json().data.slot as { id: number };
    const [record] = await latest('slot_created', 1);
    expect(record).toMatchObject({ actor: STAFF.email, target: String(slot.id), ip: ADDRESS });
    expect(record.detail).toEqual({ start: expect.stringMatching(/^\d{4}-.*Z$/), end: expect.stringMatching(/Z$/) });
    expect(record.detail!.start).toBe(new Date(`${date}T00:30:00Z`).toISOString());

    const before = await allRecords();
    const duplicate = await ctx.app.inject({ method: 'POST', url: '/slot/add', payload: { date, startTime: '08:30', endTime: '09:00' }, headers: auth(token) });
    expect(duplicate.statusCode).toBe(409);
    const missing = await ctx.app.inject({ method: 'PUT', url: '/slot/delete/999999', payload: { slotId: 999999 }, headers: auth(token) });
    expect(missing.statusCode).toBe(404);
    expect(await allRecords()).toEqual(before);

    const deleted = await ctx.app.inject({ method: 'PUT', url: `/slot/delete/${slot.id}`, payload: { slotId: slot.id }, headers: auth(token), remoteAddress: ADDRESS });
    expect(deleted.statusCode).toBe(200);
    expect((await latest('slot_deleted', 1))[0]).toMatchObject({ actor: STAFF.email, target: String(slot.id), ip: ADDRESS });
  });

  it('records a direct booking by staff (target: its reference)', async () => {
    const slot = await insertSlot(ctx.database, 400);
    const res = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, payload: visitor, headers: auth(token), remoteAddress: ADDRESS });
    expect(res.statusCode).toBe(200);
    const reference = res.json().data.slot.bookingReference as string;
    expect((await latest('booking_direct', 1))[0]).toMatchObject({
      actor: STAFF.email,
      target: reference,
      ip: ADDRESS,
      detail: expect.objectContaining({ slotId: slot.id, school: visitor.selectedSchool }),
    });
  });

  it('records a staff cancel and its refund; a refused cancel writes nothing', async () => {
    const b = await bookPaid(ctx, 200, `audit-staff-${driver}@example.com`);
    const res = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${b.reference}/cancel`, payload: { refund: true }, headers: auth(token), remoteAddress: ADDRESS });
    expect(res.statusCode).toBe(200);
    expect((await latest('booking_cancelled_by_staff', 1))[0]).toMatchObject({
      actor: STAFF.email,
      target: b.reference,
      ip: ADDRESS,
      detail: { refund: true, refundSen: 7500 },
    });
    expect((await latest('refund', 1))[0]).toMatchObject({ actor: STAFF.email, target: b.reference, detail: expect.objectContaining({ amountSen: 7500 }) });

    const before = await allRecords();
    const again = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${b.reference}/cancel`, payload: { refund: true }, headers: auth(token) });
    expect(again.statusCode).toBe(409);
    expect(await allRecords()).toEqual(before);

    const kept = await bookPaid(ctx, 210, `audit-staff2-${driver}@example.com`);
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${kept.reference}/cancel`, payload: { refund: false }, headers: auth(token) })).statusCode).toBe(200);
    expect((await latest('booking_cancelled_by_staff', 1))[0]).toMatchObject({ target: kept.reference, detail: { refund: false, refundSen: 0 } });
    expect((await latest('refund', 5)).map((r) => r.target)).not.toContain(kept.reference);
  });

  it("records a parent's reschedule (from, to) and cancel (refund), actor 'parent', from the parent's address", async () => {
    const b = await bookPaid(ctx, 100, `audit-parent-${driver}@example.com`);
    const target = await insertSlot(ctx.database, 120);
    const before = await allRecords();
    expect((await reschedule(ctx, b.token, 999999, '10.7.7.7')).statusCode).toBe(404);
    expect(await allRecords()).toEqual(before);

    expect((await reschedule(ctx, b.token, target.id, '10.7.7.7')).statusCode).toBe(200);
    const [moved] = await latest('parent_rescheduled', 1);
    expect(moved).toMatchObject({ actor: 'parent', target: b.reference, ip: '10.7.7.7' });
    expect(moved.detail).toEqual({ from: expect.any(String), to: target.startAt.toISOString() });

    const quote = (await manageGet(ctx, b.token, '10.7.7.7')).json().data.cancelQuote.amountSen as number;
    expect((await cancel(ctx, b.token, quote + 1, '10.7.7.7')).statusCode).toBe(409);
    expect((await latest('parent_cancelled', 5)).map((r) => r.target)).not.toContain(b.reference);
    expect((await cancel(ctx, b.token, quote, '10.7.7.7')).statusCode).toBe(200);
    expect((await latest('parent_cancelled', 1))[0]).toMatchObject({ actor: 'parent', target: b.reference, ip: '10.7.7.7', detail: { refundSen: quote } });
  });

  describe('filters and paging', () => {
    const who = `filter-${driver}@example.com`;
    // GMT+8 days: 2021-03-01 ends at 2021-03-01T16:00Z.
    const instants = ['2021-02-28T15:59:59Z', '2021-02-28T16:00:00Z', '2021-03-01T10:00:00Z', '2021-03-01T15:59:59Z', '2021-03-01T16:00:00Z'];

    beforeAll(async () => {
      for (const [i, at] of instants.entries()) {
        await ctx.database.db.insert(auditLog).values({ at: new Date(at), actor: who, action: i % 2 ? 'slot_deleted' : 'slot_created', target: String(i) });
      }
      await ctx.database.db.insert(auditLog).values({ at: new Date('2021-03-01T12:00:00Z'), actor: `other-${who}`, action: 'slot_created', target: 'other' });
    });

    const get = (query: string) => ctx.app.inject({ url: `/staff/audit?${query}`, headers: auth(token) });

    it('by person (exact, or contains ignoring case), newest first', async () => {
      const exact = (await get(`actor=${encodeURIComponent(who)}&actorMatch=exact`)).json().data;
      expect(exact.total).toBe(5);
      expect(exact.rows.map((r: AuditRecord) => r.target)).toEqual(['4', '3', '2', '1', '0']);
      const contains = (await get(`actor=${encodeURIComponent(`FILTER-${driver}`)}`)).json().data;
      expect(contains.total).toBe(6);
      expect(contains.rows.map((r: AuditRecord) => r.target)).toEqual(['4', '3', 'other', '2', '1', '0']);
      // LIKE wildcards are plain characters.
      expect((await get('actor=%25')).json().data.total).toBe(0);
      expect((await get('actor=f_lter')).json().data.total).toBe(0);
    });

    it('by action and by GMT+8 days, both ends inclusive', async () => {
      const q = `actor=${encodeURIComponent(who)}&actorMatch=exact`;
      const day = (await get(`${q}&from=2021-03-01&to=2021-03-01`)).json().data;
      expect(day.rows.map((r: AuditRecord) => r.target)).toEqual(['3', '2', '1']);
      expect((await get(`${q}&from=2021-03-02`)).json().data.rows.map((r: AuditRecord) => r.target)).toEqual(['4']);
      expect((await get(`${q}&to=2021-02-28`)).json().data.rows.map((r: AuditRecord) => r.target)).toEqual(['0']);
      const deletes = (await get(`${q}&action=slot_deleted&from=2021-02-28&to=2021-03-02`)).json().data;
      expect(deletes.rows.map((r: AuditRecord) => [r.target, r.action])).toEqual([
        ['3', 'slot_deleted'],
        ['1', 'slot_deleted'],
      ]);
    });

    it('pages: {rows, total, page, limit}', async () => {
      const q = `actor=${encodeURIComponent(who)}&actorMatch=exact&limit=2`;
      const pages = await Promise.all([1, 2, 3, 4].map(async (page) => (await get(`${q}&page=${page}`)).json().data));
      expect(pages.map((p) => p.rows.map((r: AuditRecord) => r.target))).toEqual([['4', '3'], ['2', '1'], ['0'], []]);
      expect(pages[1]).toMatchObject({ total: 5, page: 2, limit: 2 });
      const first = (await get('')).json().data;
      expect(first).toMatchObject({ page: 1, limit: 50 });
      expect((await get(`limit=${AUDIT_PAGE_MAX}`)).statusCode).toBe(200);
    });

    it('refuses bad filters with a 400 and writes nothing', async () => {
      const before = await allRecords();
      for (const query of [
        `limit=${AUDIT_PAGE_MAX + 1}`,
        'limit=0',
        'page=0',
        'page=x',
        'page=1.0',
        'limit=%2010',
        'action=dropped_tables',
        'from=2021-02-30',
        'from=01/03/2021',
        'from=2021-03-02&to=2021-03-01',
        'actorMatch=regex',
        `actor=${'a'.repeat(400)}`,
      ]) {
        const res = await get(query);
        expect([query, res.statusCode, res.json().error]).toEqual([query, 400, ErrorCode.VALIDATION_ERROR]);
      }
      expect(await allRecords()).toEqual(before);
    });
  });
});
