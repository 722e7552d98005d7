import { eq, sql } from 'drizzle-orm';
import brandConfig from '../../../brand.config.json';
import { auditLog } from '../../src/audit/table';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { JobEngine } from '../../src/base/jobs/engine';
import { ANONYMISED, applyRetention, RETENTION_CRON, scheduleRetention, type RetentionPolicy } from '../../src/privacy/retention';
import { slots } from '../../src/slots/tables';
import { whatsappMessages, whatsappReplies } from '../../src/whatsapp/tables';
import { createThrowawayPostgres, freshPglite, insertConsent, queryRows } from '../helpers';

// Issue 28 (PDPA retention): with a fixed clock, applyRetention anonymises exactly what the policy says, a second run
// changes nothing more, and two runs at once on PostgreSQL each anonymise a row at most once.
jest.setTimeout(90_000);

const policy: RetentionPolicy = brandConfig.retention;
const NOW = new Date('2034-01-15T02:00:00.000Z');
const DAY = 86_400_000;
const yearsAgo = (years: number, plusDays = 0) => {
  const d = new Date(NOW);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return new Date(d.getTime() - plusDays * DAY);
};
const monthsAgo = (months: number, plusDays = 0) => {
  const d = new Date(NOW);
  d.setUTCMonth(d.getUTCMonth() - months);
  return new Date(d.getTime() - plusDays * DAY);
};

/** A year before the real clock: an audit entry this old may be anonymised (the trail's trigger goes by the database's clock). */
const aYearAgo = () => new Date(Date.now() - 365 * DAY);

let n = 0;
/** A visit at `start` with its payment (status, booking status) and the slot as the booking left it. */
async function visit(database: DatabaseHandle, start: Date, payment: { status: 'completed' | 'failed'; bookingStatus?: 'booked' | 'cancelled' } | null) {
  n += 1;
  const reference = `PAY-RET-${n}`;
  const booked = payment === null || (payment.status === 'completed' && payment.bookingStatus === 'booked');
  const person = { visitorName: `Parent ${n}`, visitorEmail: `parent${n}@example.com`, visitorContactNo: `01234567${String(n).padStart(2, '0')}`, childName: `Child ${n}`, childYear: 'Form 1' };
  const consentId = await insertConsent(database.db);
  const [slot] = await database.db
    .insert(slots)
    .values({
      startAt: start,
      endAt: new Date(start.getTime() + 30 * 60_000),
      ...(booked ? { status: 'booked' as const, ...person, selectedSchool: 'Seri Ilmu Private Secondary', bookingReference: reference, amountSen: payment ? 7500 : null, consentId } : {}),
    })
    .returning();
  if (payment)
    await database.db.insert(payments).values({
      id: `pay_ret_${n}`,
      reference,
      slotId: slot.id,
      status: payment.status,
      bookingStatus: payment.bookingStatus ?? null,
      amountSen: 7500,
      ...person,
      selectedSchool: 'Seri Ilmu Private Secondary',
      holdToken: `hold-${n}`,
      gateway: 'sandbox',
      sessionExpiresAt: start,
      consentId,
    });
  return { slotId: slot.id, paymentId: payment ? `pay_ret_${n}` : null };
}

async function sentMail(database: DatabaseHandle, sentAt: Date | null) {
  n += 1;
  const [row] = await database.db
    .insert(mailOutbox)
    .values({ kind: 'visitor_confirmation', recipient: `mail${n}@example.com`, subject: 'Booking confirmed', textBody: 'Dear Parent', htmlBody: '<p>Dear Parent</p>', ics: 'BEGIN:VCALENDAR', status: sentAt ? 'sent' : 'pending', sentAt, messageId: `<m${n}@test>` })
    .returning();
  return row.id;
}

const paymentOf = async (database: DatabaseHandle, id: string) => (await database.db.select().from(payments).where(eq(payments.id, id)))[0];
const slotOf = async (database: DatabaseHandle, id: number) => (await database.db.select().from(slots).where(eq(slots.id, id)))[0];

describe('applyRetention with a fixed clock', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(() => database?.close());

  it('anonymises exactly what the policy says, keeps amounts and slot times, counts it in the audit trail, and a second run changes nothing', async () => {
    const paidOld = await visit(database, yearsAgo(policy.paidBookingYears, 1), { status: 'completed', bookingStatus: 'booked' });
    const paidRecent = await visit(database, yearsAgo(policy.paidBookingYears, -1), { status: 'completed', bookingStatus: 'booked' });
    const cancelledOld = await visit(database, monthsAgo(policy.unpaidOrCancelledMonths, 1), { status: 'completed', bookingStatus: 'cancelled' });
    const failedOld = await visit(database, monthsAgo(policy.unpaidOrCancelledMonths, 2), { status: 'failed' });
    const failedRecent = await visit(database, monthsAgo(policy.unpaidOrCancelledMonths, -1), { status: 'failed' });
    const directOld = await visit(database, monthsAgo(policy.unpaidOrCancelledMonths, 3), null);
    const directRecent = await visit(database, monthsAgo(policy.unpaidOrCancelledMonths, -2), null);
    const mailOld = await sentMail(database, new Date(NOW.getTime() - (policy.mailBodyDays + 1) * DAY));
    const mailRecent = await sentMail(database, new Date(NOW.getTime() - (policy.mailBodyDays - 1) * DAY));
    const mailUnsent = await sentMail(database, null);
    // What else names the old paid booking's parent: a mail of its payment, and audit entries about the booking and
    // about the parent (a staff look-up by email); an entry about the recent booking names someone kept. The entries
    // are a year old (the owner, as tests run here, may date them): old enough to anonymise (migration 0030).
    const old = await paymentOf(database, paidOld.paymentId!);
    const recent = await paymentOf(database, paidRecent.paymentId!);
    const [paidMail] = await database.db
      .insert(mailOutbox)
      .values({ kind: 'visitor_confirmation', paymentId: old.id, recipient: old.visitorEmail, subject: `Booking confirmed for ${old.childName}`, textBody: 'x', htmlBody: 'x', status: 'sent', sentAt: NOW, messageId: '<paid@test>' })
      .returning();
    const [aboutBooking, aboutPerson, aboutRecent] = await database.db
      .insert(auditLog)
      .values([
        { at: aYearAgo(), actor: 'staff@example.com', action: 'booking_cancelled_by_staff', target: old.reference, detail: { visitor: { name: old.visitorName, email: old.visitorEmail }, child: old.childName, amountSen: 7500 } },
        { at: aYearAgo(), actor: 'staff@example.com', action: 'privacy_person_viewed', target: null, detail: { email: old.visitorEmail, found: { payments: 1 } } },
        { at: aYearAgo(), actor: 'staff@example.com', action: 'booking_cancelled_by_staff', target: recent.reference, detail: { visitor: { name: recent.visitorName, email: recent.visitorEmail } } },
      ])
      .returning();

    const first = await applyRetention(database.db, NOW, policy);
    expect(first).toEqual({ payments: 3, slots: 2, paymentChildren: 0, bookingEvents: 0, mailBodies: 1, mailRecipients: 1, auditEntries: 2, waitlistEntries: 0, privacyRequests: 0, whatsappMessages: 0, whatsappReplies: 0, documentFiles: 0 });
    const entry = async (id: number) => (await database.db.select().from(auditLog).where(eq(auditLog.id, id)))[0];
    // The entries stay (who did what, when), without the parent's data; the kept parent's entry is untouched.
    expect(await entry(aboutBooking.id)).toEqual({ ...aboutBooking, detail: { visitor: { name: ANONYMISED, email: ANONYMISED }, child: ANONYMISED, amountSen: 7500 } });
    expect(await entry(aboutPerson.id)).toEqual({ ...aboutPerson, detail: { email: ANONYMISED, found: { payments: 1 } } });
    expect(await entry(aboutRecent.id)).toEqual(aboutRecent);
    expect((await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, paidMail.id)))[0]).toMatchObject({ recipient: `anonymised-mail-${paidMail.id}@invalid`, subject: ANONYMISED });

    for (const gone of [paidOld, cancelledOld, failedOld]) {
      const p = await paymentOf(database, gone.paymentId!);
      expect(p).toMatchObject({ visitorName: ANONYMISED, visitorEmail: `anonymised-${p.id}@invalid`, visitorContactNo: '', childName: null, childYear: null, amountSen: 7500 });
    }
    for (const kept of [paidRecent, failedRecent]) expect((await paymentOf(database, kept.paymentId!)).visitorName).not.toBe(ANONYMISED);
    // Booked slots: the paid one past 7 years and the direct one past 6 months; times, reference and amount stay.
    const paidSlot = await slotOf(database, paidOld.slotId);
    expect(paidSlot).toMatchObject({ status: 'booked', visitorName: ANONYMISED, visitorEmail: null, visitorContactNo: null, childName: null, amountSen: 7500 });
    expect(paidSlot.bookingReference).toMatch(/^PAY-RET-/);
    expect((await slotOf(database, directOld.slotId)).visitorName).toBe(ANONYMISED);
    expect((await slotOf(database, paidRecent.slotId)).visitorName).not.toBe(ANONYMISED);
    expect((await slotOf(database, directRecent.slotId)).visitorName).not.toBe(ANONYMISED);
    const mails = await database.db.select().from(mailOutbox);
    const byId = new Map(mails.map((m) => [m.id, m]));
    expect(byId.get(mailOld)).toMatchObject({ textBody: '', htmlBody: '', ics: null, recipient: expect.stringMatching(/@example\.com$/) });
    expect(byId.get(mailRecent)!.textBody).toBe('Dear Parent');
    expect(byId.get(mailUnsent)!.textBody).toBe('Dear Parent');

    const audited = await database.db.select().from(auditLog).where(eq(auditLog.action, 'retention_applied'));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actor: 'system', detail: { payments: 3, slots: 2, paymentChildren: 0, bookingEvents: 0, mailBodies: 1, mailRecipients: 1, auditEntries: 2, waitlistEntries: 0, privacyRequests: 0, whatsappMessages: 0, whatsappReplies: 0, asOf: NOW.toISOString() } });

    const everything = async () =>
      JSON.stringify([
        await database.db.select().from(payments).orderBy(payments.id),
        await database.db.select().from(slots).orderBy(slots.id),
        await database.db.select().from(mailOutbox).orderBy(mailOutbox.id),
        await database.db.select().from(auditLog).orderBy(auditLog.id),
      ]);
    const before = await everything();
    expect(await applyRetention(database.db, NOW, policy)).toEqual({ payments: 0, slots: 0, paymentChildren: 0, bookingEvents: 0, mailBodies: 0, mailRecipients: 0, auditEntries: 0, waitlistEntries: 0, privacyRequests: 0, whatsappMessages: 0, whatsappReplies: 0, documentFiles: 0 });
    expect(await everything()).toBe(before);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, 'retention_applied'))).toHaveLength(1);
  });

  it('forgets who asked once a request was answered longer ago than a paid booking is kept; open and recent ones stay', async () => {
    const request = async (person: { email?: string; phone?: string }, answeredAt: Date | null, note: string) => {
      const [row] = await queryRows<{ id: number }>(
        database,
        sql`INSERT INTO privacy_requests (kind, person_email, person_phone, received_on, handled_by, answered_at, note)
            VALUES ('access', ${person.email ?? null}, ${person.phone ?? null}, '2020-01-02', 'staff@example.com', ${answeredAt?.toISOString() ?? null}, ${note})
            RETURNING id`,
      );
      await database.db.insert(auditLog).values({ at: aYearAgo(), actor: 'staff@example.com', action: 'privacy_request_logged', target: String(row.id), detail: { kind: 'access', email: person.email ?? null, phone: person.phone ?? null } });
      return row.id;
    };
    const old = await request({ email: 'asked.long.ago@example.com' }, yearsAgo(policy.paidBookingYears, 1), 'Asked by phone call');
    const oldByPhone = await request({ phone: '0171234567' }, yearsAgo(policy.paidBookingYears, 2), '');
    const recent = await request({ email: 'asked.lately@example.com' }, yearsAgo(policy.paidBookingYears, -1), 'Kept');
    const open = await request({ email: 'still.open@example.com' }, null, 'Not answered');
    const rows = async () =>
      new Map((await queryRows<{ id: number; person_email: string | null; person_phone: string | null; note: string }>(database, sql`SELECT id, person_email, person_phone, note FROM privacy_requests`)).map((r) => [r.id, r]));

    expect(await applyRetention(database.db, NOW, policy)).toMatchObject({ privacyRequests: 2, auditEntries: 2 });
    const after = await rows();
    expect(after.get(old)).toEqual({ id: old, person_email: `anonymised-request-${old}@invalid`, person_phone: null, note: '' });
    expect(after.get(oldByPhone)).toEqual({ id: oldByPhone, person_email: null, person_phone: ANONYMISED, note: '' });
    expect(after.get(recent)).toMatchObject({ person_email: 'asked.lately@example.com', note: 'Kept' });
    expect(after.get(open)).toMatchObject({ person_email: 'still.open@example.com', note: 'Not answered' });
    // The trail keeps that a request was logged, without who asked.
    const logged = await database.db.select().from(auditLog).where(eq(auditLog.action, 'privacy_request_logged'));
    expect(logged.map((e) => e.detail)).toEqual([
      { kind: 'access', email: ANONYMISED, phone: null },
      { kind: 'access', email: null, phone: ANONYMISED },
      { kind: 'access', email: 'asked.lately@example.com', phone: null },
      { kind: 'access', email: 'still.open@example.com', phone: null },
    ]);
    expect(await applyRetention(database.db, NOW, policy)).toMatchObject({ privacyRequests: 0, auditEntries: 0 });
  });
});

describe('the audit trail under retention', () => {
  it.each(['pglite', 'postgres'] as const)('on %s lets through only an update that anonymises string values, and refuses every other change', async (driver) => {
    let database: DatabaseHandle;
    let drop: (() => Promise<void>) | undefined;
    if (driver === 'postgres') {
      const pg = await createThrowawayPostgres('retention_audit');
      drop = pg.drop;
      database = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 2 });
      await migrate(database);
    } else database = await freshPglite();
    try {
      const [row] = await database.db.insert(auditLog).values({ actor: 'staff@example.com', action: 'booking_direct', target: 'a@example.com', detail: { email: 'a@example.com', slotId: 4, list: ['x', 'a@example.com'] } }).returning();
      for (const change of [
        sql`UPDATE audit_log SET actor = 'nobody' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET action = 'login' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET target = 'someone-else' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET detail = '{"email": "b@example.com", "slotId": 4, "list": ["x", "a@example.com"]}' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET detail = '{"email": "[anonymised]", "slotId": 5, "list": ["x", "a@example.com"]}' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET detail = '{"email": "[anonymised]", "list": ["x", "a@example.com"]}' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET detail = '{"email": "[anonymised]", "slotId": 4, "list": ["x"]}' WHERE id = ${row.id}`,
        sql`UPDATE audit_log SET detail = NULL WHERE id = ${row.id}`,
        sql`DELETE FROM audit_log WHERE id = ${row.id}`,
      ])
        await expect(database.db.execute(change)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/append-only/) } });
      expect((await database.db.select().from(auditLog).where(eq(auditLog.id, row.id)))[0]).toEqual(row);
      await database.db.execute(sql`UPDATE audit_log SET target = '[anonymised]', detail = '{"email": "[anonymised]", "slotId": 4, "list": ["x", "[anonymised]"]}' WHERE id = ${row.id}`);
      expect((await database.db.select().from(auditLog).where(eq(auditLog.id, row.id)))[0]).toEqual({ ...row, target: ANONYMISED, detail: { email: ANONYMISED, slotId: 4, list: ['x', ANONYMISED] } });
    } finally {
      await database.close();
      await drop?.();
    }
  });
});

describe('the nightly job on the job queue', () => {
  let database: DatabaseHandle;
  let jobs: JobEngine;
  beforeAll(async () => {
    database = await freshPglite();
    jobs = new JobEngine(database, { info: () => {}, warn: () => {}, error: () => {} }, { supervise: false, schedule: false });
  });
  afterAll(async () => {
    await jobs?.stop();
    await database?.close();
  });

  it('is scheduled every night at 03:30 Malaysia time, and a run of its job applies the policy as of its clock', async () => {
    const paidOld = await visit(database, yearsAgo(policy.paidBookingYears, 1), { status: 'completed', bookingStatus: 'booked' });
    const paidRecent = await visit(database, yearsAgo(policy.paidBookingYears, -1), { status: 'completed', bookingStatus: 'booked' });
    await scheduleRetention(jobs, database.db, policy, () => NOW);

    const { rows } = await database.exec(`SELECT cron, timezone FROM pgboss.schedule WHERE name = 'retention'`);
    expect(rows).toEqual([{ cron: RETENTION_CRON, timezone: 'Asia/Kuala_Lumpur' }]);

    await jobs.send('retention', {});
    expect(await jobs.runDue('retention')).toBe(2); // the old paid booking's payment and its slot
    expect((await paymentOf(database, paidOld.paymentId!)).visitorName).toBe(ANONYMISED);
    expect((await paymentOf(database, paidRecent.paymentId!)).visitorName).not.toBe(ANONYMISED);
  });
});

describe('two runs at once on PostgreSQL', () => {
  let a: DatabaseHandle;
  let b: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const pg = await createThrowawayPostgres('retention_race');
    drop = pg.drop;
    a = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 2 });
    await migrate(a);
    b = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 2 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  it('do not conflict: every due row is anonymised once, and the counts add up to the rows due', async () => {
    for (let i = 0; i < 40; i++) {
      const { paymentId } = await visit(a, yearsAgo(policy.paidBookingYears, 1 + i), { status: 'completed', bookingStatus: 'booked' });
      const p = await paymentOf(a, paymentId!);
      await a.db.insert(auditLog).values({ at: aYearAgo(), actor: 'staff@example.com', action: 'booking_cancelled_by_staff', target: p.reference, detail: { email: p.visitorEmail } });
    }
    const [one, two] = await Promise.all([applyRetention(a.db, NOW, policy), applyRetention(b.db, NOW, policy)]);
    expect(one.payments + two.payments).toBe(40);
    expect(one.slots + two.slots).toBe(40);
    expect(one.auditEntries + two.auditEntries).toBe(40);
    // Twice in a row: the third run finds nothing.
    expect(await applyRetention(b.db, NOW, policy)).toEqual({ payments: 0, slots: 0, paymentChildren: 0, bookingEvents: 0, mailBodies: 0, mailRecipients: 0, auditEntries: 0, waitlistEntries: 0, privacyRequests: 0, whatsappMessages: 0, whatsappReplies: 0, documentFiles: 0 });
    const [{ named }] = await queryRows<{ named: number }>(a, sql`SELECT count(*)::int AS named FROM audit_log WHERE detail->>'email' LIKE '%@example.com'`);
    expect(named).toBe(0);
    const [{ left }] = await queryRows<{ left: number }>(a, sql`SELECT count(*)::int AS left FROM payments WHERE visitor_name <> ${ANONYMISED}`);
    expect(left).toBe(0);
  });
});

describe('applyRetention and WhatsApp (issue 38)', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(() => database?.close());

  it("a message's body goes when a mail body would, its number with its booking's parent; a reply's text and number go; a second run changes nothing", async () => {
    const old = await visit(database, yearsAgo(policy.paidBookingYears, 1), { status: 'completed', bookingStatus: 'booked' });
    const recent = await visit(database, monthsAgo(1), { status: 'completed', bookingStatus: 'booked' });
    const at = (days: number) => new Date(NOW.getTime() - days * DAY);
    const message = (paymentId: string, createdAt: Date, state: 'read' | 'queued' = 'read') => ({
      paymentId,
      kind: 'booking_confirmation',
      toE164: '+60123456701',
      locale: 'en' as const,
      template: 'booking_confirmation_v1',
      requestBody: { template: { components: [{ parameters: [{ text: 'Parent' }] }] } },
      dedupeKey: `ret-${paymentId}-${createdAt.getTime()}-${state}`,
      state,
      createdAt,
    });
    const rows = await database.db
      .insert(whatsappMessages)
      .values([
        message(old.paymentId!, at(10)), // its parent anonymised now: number and body go
        message(recent.paymentId!, at(policy.mailBodyDays + 1)), // old enough: the body goes, the number stays
        message(recent.paymentId!, at(1)), // young: kept whole
        message(recent.paymentId!, at(policy.mailBodyDays + 1), 'queued'), // not sent yet: left for the sender
      ])
      .returning();
    const [oldReply, youngReply] = await database.db
      .insert(whatsappReplies)
      .values([
        { messageId: 'wamid.in-old', fromE164: '+60123456701', text: 'STOP', receivedAt: at(policy.mailBodyDays + 1) },
        { messageId: 'wamid.in-young', fromE164: '+60123456701', text: 'ok', receivedAt: at(1) },
      ])
      .returning();

    const first = await applyRetention(database.db, NOW, policy);
    expect(first).toMatchObject({ whatsappMessages: 2, whatsappReplies: 1 });
    const now = async () => database.db.select().from(whatsappMessages).orderBy(whatsappMessages.id);
    const [a, b, c, d] = await now();
    expect([a.toE164, a.requestBody]).toEqual([ANONYMISED, {}]);
    expect([b.toE164, b.requestBody]).toEqual(['+60123456701', {}]);
    expect(c).toEqual(rows[2]);
    expect(d).toEqual(rows[3]);
    const replies = await database.db.select().from(whatsappReplies).orderBy(whatsappReplies.id);
    expect(replies[0]).toMatchObject({ id: oldReply.id, text: null, fromE164: ANONYMISED });
    expect(replies[1]).toEqual(youngReply);
    expect(await applyRetention(database.db, NOW, policy)).toMatchObject({ whatsappMessages: 0, whatsappReplies: 0, documentFiles: 0 });
  });
});
