import { and, count, eq, sql } from 'drizzle-orm';
import { auditLog } from '../../src/audit/table';
import { createUser } from '../../src/auth/accounts';
import { mailOutbox } from '../../src/mail/tables';
import { auth, STAFF, enrolSecondFactor } from '../helpers';
import { initiateBody, initiateOk, insertSlot, startPaymentsApp, type PayCtx } from '../payments/support';

// Issue 28 (PDPA s. 12B): the breach log. Who a breach touches is a query over the records (every parent who booked
// between two days, and/or at a school); the 72-hour and 7-day deadlines are computed; the people's contacts export
// in one click; each gets the notice in their booking's language through the outbox, once; every action is audited.
jest.setTimeout(90_000);

const SECONDARY = 'Seri Ilmu Private Secondary';
const INTERNATIONAL = 'Seri Ilmu International';
// Parents, the GMT+8 day their booking was made, their language and school.
const PARENTS = [
  { visitorName: 'Aisyah Rahman', visitorEmail: 'aisyah@example.com', bookedAt: '2026-10-01T16:30:00Z' /* 2 Oct 00:30 GMT+8 */, locale: 'ms', school: SECONDARY },
  { visitorName: 'Tan Wei Ming', visitorEmail: 'weiming@example.com', bookedAt: '2026-10-05T04:00:00Z', locale: 'zh', school: INTERNATIONAL },
  { visitorName: 'Priya Raj', visitorEmail: 'priya@example.com', bookedAt: '2026-10-10T15:59:00Z' /* 10 Oct 23:59 GMT+8 */, locale: 'en', school: SECONDARY },
  { visitorName: 'Outside Before', visitorEmail: 'before@example.com', bookedAt: '2026-10-01T15:59:00Z' /* 1 Oct 23:59 GMT+8 */, locale: 'en', school: SECONDARY },
  { visitorName: 'Outside After', visitorEmail: 'after@example.com', bookedAt: '2026-10-10T16:00:00Z' /* 11 Oct 00:00 GMT+8 */, locale: 'en', school: SECONDARY },
] as const;
const childYear = (school: string) => (school === SECONDARY ? 'Form 1' : 'Year 3');

describe.each(['pglite', 'postgres'] as const)('the breach log on %s', (driver) => {
  let ctx: PayCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
    let hours = 60;
    for (const p of PARENTS) {
      const slot = await insertSlot(ctx.database, hours++);
      const body = initiateBody(slot, { visitorName: p.visitorName, visitorEmail: p.visitorEmail, locale: p.locale, selectedSchool: p.school, childYear: childYear(p.school), fee: p.school === SECONDARY ? 7500 : 10000, consent: { noticeVersion: initiateBody(slot).consent.noticeVersion, language: p.locale } });
      const { payment } = await initiateOk(ctx, body);
      await ctx.database.db.execute(sql`UPDATE payments SET created_at = ${p.bookedAt}::timestamptz WHERE id = ${payment.id}`);
    }
    // A booking staff made at the desk within the period (no payment): its language is its consent's.
    const desk = await insertSlot(ctx.database, hours++);
    const direct = { visitorName: 'Desk Parent', visitorEmail: 'desk@example.com', visitorContactNo: '0123400001', selectedSchool: INTERNATIONAL, childName: 'Desk Child', childYear: 'Year 2' };
    const booked = await ctx.app.inject({ method: 'PUT', url: `/slot/${desk.id}`, headers: auth(token), payload: { ...direct, consent: { noticeVersion: initiateBody(desk).consent.noticeVersion, language: 'zh' } } });
    expect(booked.statusCode).toBe(200);
    await ctx.database.db.execute(sql`UPDATE slots SET booked_at = '2026-10-03T02:00:00Z' WHERE id = ${desk.id}`);
  });
  afterAll(() => ctx?.close());

  const post = (url: string, payload?: object, withToken = true) => ctx.app.inject({ method: 'POST', url, headers: withToken ? auth(token) : {}, ...(payload ? { payload } : {}) });
  const breachMails = async (id: number) =>
    (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'breach_notification'))).filter((m) => m.messageId.includes(`breach-${id}.`));
  const FOUND = '2026-11-02T09:00:00+08:00';
  const NEW = { foundAt: FOUND, whatHappened: 'A staff laptop with an export of bookings was stolen.', dataAffected: 'Names, emails and phone numbers of parents.', bookedFrom: '2026-10-02', bookedTo: '2026-10-10' };

  it('logs a breach, computes both deadlines, and finds exactly the parents who booked in the period (days in GMT+8)', async () => {
    const res = await post('/staff/breaches', { ...NEW, whatHappenedMs: 'Komputer riba kakitangan yang mengandungi eksport tempahan telah dicuri.', dataAffectedMs: 'Nama, e-mel dan nombor telefon ibu bapa.' });
    expect(res.statusCode).toBe(200);
    const breach = res.json().data.breach;
    expect(breach).toMatchObject({
      foundAt: '2026-11-02T01:00:00.000Z',
      commissionerDueAt: '2026-11-05T01:00:00.000Z',
      peopleDueAt: '2026-11-12T01:00:00.000Z',
      commissionerNotifiedAt: null,
      peopleNotifiedAt: null,
      affected: 4,
      recordedBy: STAFF.email,
    });
    const people = (await ctx.app.inject({ url: `/staff/breaches/${breach.id}/people`, headers: auth(token) })).json().people;
    expect(people.map((p: { email: string; locale: string; references: string[] }) => [p.email, p.locale, p.references.length])).toEqual([
      ['aisyah@example.com', 'ms', 1],
      ['desk@example.com', 'zh', 1],
      ['priya@example.com', 'en', 1],
      ['weiming@example.com', 'zh', 1],
    ]);
    const csv = (await ctx.app.inject({ url: `/staff/breaches/${breach.id}/people?format=csv`, headers: auth(token) }));
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="breach-${breach.id}-people.csv"`);
    expect(csv.body.startsWith('\uFEFF')).toBe(true); // the BOM (shared-api/csv)
    const lines = csv.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('name,email,phone,locale,school,lastBookedAt,references');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['aisyah@example.com', 'desk@example.com', 'priya@example.com', 'weiming@example.com']);
    expect(csv.body).not.toMatch(/before@|after@/);

    // The Commissioner notified: the people's 7 days run from then.
    const notified = (await post(`/staff/breaches/${breach.id}/commissioner-notified`)).json().data.breach;
    expect(Date.parse(notified.peopleDueAt) - Date.parse(notified.commissionerNotifiedAt)).toBe(7 * 86_400_000);
    expect((await post(`/staff/breaches/${breach.id}/commissioner-notified`)).statusCode).toBe(409);
  });

  it('a school alone, or a school within a period, narrows who is touched', async () => {
    const bySchool = (await post('/staff/breaches', { foundAt: FOUND, whatHappened: 'x', dataAffected: 'y', school: INTERNATIONAL })).json().data.breach;
    expect(bySchool.affected).toBe(2);
    const both = (await post('/staff/breaches', { ...NEW, school: SECONDARY })).json().data.breach;
    const people = (await ctx.app.inject({ url: `/staff/breaches/${both.id}/people`, headers: auth(token) })).json().people;
    expect(people.map((p: { email: string }) => p.email)).toEqual(['aisyah@example.com', 'priya@example.com']);
  });

  it('mails each person the notice once, in their booking language, with the school’s words in that language when given', async () => {
    const breach = (await post('/staff/breaches', { ...NEW, whatHappenedMs: 'Komputer riba dicuri.', dataAffectedMs: 'Nama dan e-mel.' })).json().data.breach;
    const res = await post(`/staff/breaches/${breach.id}/notify`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.breach).toMatchObject({ peopleNotified: 4, affected: 4, peopleNotifiedAt: expect.any(String) });
    const mails = await breachMails(breach.id);
    const byRecipient = Object.fromEntries(mails.map((m) => [m.recipient, m]));
    expect(Object.keys(byRecipient).sort()).toEqual(['aisyah@example.com', 'desk@example.com', 'priya@example.com', 'weiming@example.com']);
    expect(byRecipient['aisyah@example.com']).toMatchObject({ locale: 'ms', status: 'pending', subject: 'Penting: pelanggaran data peribadi di Seri Ilmu' });
    expect(byRecipient['aisyah@example.com'].textBody).toContain('Komputer riba dicuri.');
    expect(byRecipient['aisyah@example.com'].textBody).toContain('Aisyah Rahman');
    expect(byRecipient['weiming@example.com']).toMatchObject({ locale: 'zh', subject: '重要：Seri Ilmu发生个人资料泄露' });
    // No Chinese words given: the school's English words, in the Chinese frame.
    expect(byRecipient['weiming@example.com'].textBody).toContain(NEW.whatHappened);
    expect(byRecipient['priya@example.com']).toMatchObject({ locale: 'en', subject: 'Important: a personal data breach at Seri Ilmu' });
    expect(byRecipient['priya@example.com'].htmlBody).toContain('lang="en"');

    expect((await post(`/staff/breaches/${breach.id}/notify`)).statusCode).toBe(409);
    expect(await breachMails(breach.id)).toHaveLength(4);

    const trail = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.target, String(breach.id)), eq(auditLog.action, 'breach_people_notified')));
    expect(trail).toHaveLength(1);
    expect(trail[0].detail).toMatchObject({ mailed: 4, people: 4, locales: { en: 1, ms: 1, zh: 2 } });
  });

  if (driver === 'postgres')
    it('two staff pressing Notify at once send one notice per person', async () => {
      const breach = (await post('/staff/breaches', NEW)).json().data.breach;
      const codes = (await Promise.all([post(`/staff/breaches/${breach.id}/notify`), post(`/staff/breaches/${breach.id}/notify`)])).map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409]);
      expect(await breachMails(breach.id)).toHaveLength(4);
    });

  it('audits logging and exports, and refuses bad input, an unknown breach and anyone not signed in, changing nothing', async () => {
    const breach = (await post('/staff/breaches', NEW)).json().data.breach;
    await ctx.app.inject({ url: `/staff/breaches/${breach.id}/people?format=csv`, headers: auth(token) });
    const actions = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.target, String(breach.id)))).map((a) => [a.action, a.actor]);
    expect(actions).toEqual([
      ['breach_logged', STAFF.email],
      ['breach_people_exported', STAFF.email],
    ]);
    const size = async () => (await ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM breaches`) as unknown as { rows: { n: number }[] }).rows[0].n;
    const before = await size();
    for (const bad of [
      { ...NEW, whatHappened: '' },
      { ...NEW, bookedTo: undefined },
      { ...NEW, bookedFrom: '2026-10-11' },
      { foundAt: FOUND, whatHappened: 'x', dataAffected: 'y' },
      { ...NEW, foundAt: 'yesterday' },
      { ...NEW, bookedTo: '2026-02-30' },
      { ...NEW, foundAt: '2026-02-30T10:00:00+08:00' },
    ])
      expect((await post('/staff/breaches', bad)).statusCode).toBe(400);
    expect((await post('/staff/breaches', NEW, false)).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/staff/breaches' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: `/staff/breaches/${breach.id}/people` })).statusCode).toBe(401);
    expect((await post(`/staff/breaches/${breach.id}/notify`, undefined, false)).statusCode).toBe(401);
    expect((await post('/staff/breaches/99999/notify')).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/staff/breaches/99999/people', headers: auth(token) })).statusCode).toBe(404);
    expect(await size()).toBe(before);
    const [{ n }] = await ctx.database.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.kind, 'breach_notification'));
    expect(n).toBeGreaterThan(0);
    const list = (await ctx.app.inject({ url: '/staff/breaches', headers: auth(token) })).json().data.breaches;
    expect(list.length).toBe(before);
  });

  // Last: from here the school has two admins.
  it('with two admins, mailing every parent needs both: the first press asks (202, nothing sent), a second admin sends', async () => {
    const SECOND = { email: 'second.admin@example.com', password: 'second-admin-pass' };
    await createUser(ctx.database.db, { ...SECOND, role: 'admin' });
    const second = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: SECOND })).json().data.token as string;
    await enrolSecondFactor(ctx, second);
    const breach = (await post('/staff/breaches', NEW)).json().data.breach;

    const asked = await post(`/staff/breaches/${breach.id}/notify`);
    expect(asked.statusCode).toBe(202);
    expect(asked.json().data.breach).toMatchObject({ notifyAskedBy: STAFF.email, notifyAskedAt: expect.any(String), peopleNotifiedAt: null });
    expect(await breachMails(breach.id)).toHaveLength(0);
    const again = await post(`/staff/breaches/${breach.id}/notify`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'FORBIDDEN', reason: { rule: 'secondAdmin' } });
    expect(await breachMails(breach.id)).toHaveLength(0);

    const sent = await ctx.app.inject({ method: 'POST', url: `/staff/breaches/${breach.id}/notify`, headers: auth(second) });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.breach).toMatchObject({ peopleNotified: 4, peopleNotifiedAt: expect.any(String) });
    expect(await breachMails(breach.id)).toHaveLength(4);
    const trail = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.target, String(breach.id)))).map((a) => [a.action, a.actor]);
    expect(trail).toEqual([
      ['breach_logged', STAFF.email],
      ['breach_notify_asked', STAFF.email],
      ['breach_people_notified', SECOND.email],
    ]);
  });
});
