import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { currentNoticeVersion, NOTICE_OUTDATED, privacyNotice } from 'shared-api/privacy';
import { auth, createThrowawayPostgres, queryRows, STAFF, enrolSecondFactor } from '../helpers';
import { createUser } from '../../src/auth/accounts';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate, MIGRATIONS_DIR } from '../../src/base/db/migrate';
import { consents } from '../../src/bookings/tables';
import { payments } from '../../src/payments/tables';
import { initiate, initiateBody, initiateOk, insertSlot, markSandboxPaid, postSandboxCallback, slotRow, startPaymentsApp, waitFor, type Driver, type PayCtx } from './../payments/support';

// Issue 28 (PDPA): no booking without the parent's consent to the privacy notice in force, recorded with the payment
// (notice version, language shown, time, channel) in its transaction; an outdated or missing consent stores nothing.
jest.setTimeout(90_000);

const drivers: Driver[] = ['pglite', 'postgres'];

describe.each(drivers)('consent at collection on %s', (driver) => {
  let ctx: PayCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
    await enrolSecondFactor(ctx, token);
  });
  afterAll(() => ctx?.close());
  let hoursAhead = 60;
  const newSlot = () => insertSlot(ctx.database, hoursAhead++);
  const consentCount = async () => (await ctx.database.db.select({ n: count() }).from(consents))[0].n;

  it.each([
    ['no consent', { consent: undefined }, ErrorCode.VALIDATION_ERROR],
    ['a consent without a notice version', { consent: { language: 'en' } }, ErrorCode.VALIDATION_ERROR],
    ['a consent in a language the notice lacks', { consent: { noticeVersion: currentNoticeVersion(), language: 'fr' } }, ErrorCode.VALIDATION_ERROR],
    ['a consent to an older notice', { consent: { noticeVersion: '2020-01-01', language: 'en' } }, NOTICE_OUTDATED],
  ])('refuses %s with 400 and stores nothing: no hold, no payment, no consent', async (_case, change, code) => {
    const slot = await newSlot();
    const before = await consentCount();
    const res = await initiate(ctx, initiateBody(slot, { visitorEmail: 'refused@example.com', ...change }));
    expect([res.statusCode, res.json().error]).toEqual([400, code]);
    if (code === NOTICE_OUTDATED) expect(res.json().message).toMatch(/privacy notice has changed/);
    expect((await slotRow(ctx, slot.id)).holdExpiresAt).toBeNull();
    expect(await ctx.database.db.select().from(payments).where(eq(payments.slotId, slot.id))).toEqual([]);
    expect(await consentCount()).toBe(before);
  });

  it('records the notice version, the language shown, the time and the web channel with the payment, and the booked slot names it', async () => {
    const slot = await newSlot();
    const asked = Date.now();
    const { payment, sandboxId } = await initiateOk(ctx, initiateBody(slot, { locale: 'ms', consent: { noticeVersion: currentNoticeVersion(), language: 'ms' } }));
    const [consent] = await ctx.database.db.select().from(consents).where(eq(consents.id, payment.consentId));
    expect(consent).toMatchObject({ noticeVersion: privacyNotice.version, language: 'ms', channel: 'web' });
    expect(consent.givenAt.getTime()).toBeGreaterThanOrEqual(asked - 1000);
    expect(consent.givenAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
    const booked = await waitFor(async () => ((await slotRow(ctx, slot.id)).status === 'booked' ? slotRow(ctx, slot.id) : undefined));
    expect(booked.consentId).toBe(payment.consentId);
  });

  it('a payment cannot be written without a consent: the database refuses it', async () => {
    const slot = await newSlot();
    await expect(
      ctx.database.db.execute(sql`
        INSERT INTO payments (id, reference, slot_id, amount_sen, visitor_name, visitor_email, visitor_contact_no, selected_school, hold_token, gateway, session_expires_at)
        VALUES ('pay_no_consent', 'PAY-NO-CONSENT', ${slot.id}, 7500, 'No Consent', 'none@example.com', '0123456789', 'Seri Ilmu Private Secondary', 'token', 'sandbox', now())`),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/consent_id/) } });
  });

  it('a booked slot cannot be written without a consent: the database refuses it, by insert and by update (0022)', async () => {
    const free = await newSlot();
    await expect(
      ctx.database.db.execute(sql`UPDATE slots SET status = 'booked', visitor_name = 'No Consent', booking_reference = 'BK-NO-CONSENT' WHERE id = ${free.id}`),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/slots_booked_names_consent/) } });
    expect((await slotRow(ctx, free.id)).status).toBe('available');
    await expect(
      ctx.database.db.execute(sql`
        INSERT INTO slots (start_at, end_at, status, visitor_name, booking_reference)
        VALUES (now() + interval '400 days', now() + interval '400 days 30 minutes', 'booked', 'No Consent', 'BK-NO-CONSENT-2')`),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/slots_booked_names_consent/) } });
    // A consent that does not exist is no consent either (the foreign key).
    await expect(
      ctx.database.db.execute(sql`UPDATE slots SET status = 'booked', visitor_name = 'No Consent', consent_id = 999999 WHERE id = ${free.id}`),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/consent/) } });
    // Freeing a booked slot (a cancel, a move) still works: a free slot names no consent.
    const booked = await newSlot();
    const [consent] = await ctx.database.db.insert(consents).values({ noticeVersion: currentNoticeVersion(), language: 'en', channel: 'staff' }).returning();
    await ctx.database.db.execute(sql`UPDATE slots SET status = 'booked', visitor_name = 'With Consent', consent_id = ${consent.id} WHERE id = ${booked.id}`);
    await ctx.database.db.execute(sql`UPDATE slots SET status = 'available', visitor_name = NULL, consent_id = NULL WHERE id = ${booked.id}`);
    expect((await slotRow(ctx, booked.id)).status).toBe('available');
  });

  it("a staff member's direct booking records a 'staff' consent; an outdated one is refused and books nothing", async () => {
    const direct = {
      visitorName: 'Walk-in Parent',
      visitorEmail: 'walkin@example.com',
      visitorContactNo: '0123456700',
      selectedSchool: 'Seri Ilmu International',
      childName: 'Chloe Lim',
      childYear: 'Year 10',
    };
    const refusedSlot = await newSlot();
    const before = await consentCount();
    const outdated = await ctx.app.inject({ method: 'PUT', url: `/slot/${refusedSlot.id}`, headers: auth(token), payload: { ...direct, consent: { noticeVersion: 'old', language: 'en' } } });
    expect([outdated.statusCode, outdated.json().error]).toEqual([400, NOTICE_OUTDATED]);
    expect((await slotRow(ctx, refusedSlot.id)).status).toBe('available');
    expect(await consentCount()).toBe(before);

    const slot = await newSlot();
    const booked = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, headers: auth(token), payload: { ...direct, consent: { noticeVersion: currentNoticeVersion(), language: 'zh' } } });
    expect(booked.statusCode).toBe(200);
    const row = await slotRow(ctx, slot.id);
    const [consent] = await ctx.database.db.select().from(consents).where(eq(consents.id, row.consentId!));
    expect(consent).toMatchObject({ noticeVersion: currentNoticeVersion(), language: 'zh', channel: 'staff' });

    // A refused direct booking (the slot is taken now) leaves no consent behind.
    const again = await consentCount();
    const taken = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, headers: auth(token), payload: direct });
    expect(taken.statusCode).toBe(409);
    expect(await consentCount()).toBe(again);
  });
});

describe.each(drivers)('migration 0015 on %s', (driver) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-before-0015-'));
  beforeAll(async () => {
    if (driver === 'postgres') {
      const pg = await createThrowawayPostgres('consent_migration');
      drop = pg.drop;
      database = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 2 });
    } else database = await openDatabase({ driver: 'pglite', inMemory: true });
    for (const file of fs.readdirSync(MIGRATIONS_DIR).filter((f) => f < '0015')) fs.copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(before, file));
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    fs.rmSync(before, { recursive: true, force: true });
  });

  it("gives each earlier payment and direct booking a 'legacy' consent of its own, so old rows stay valid and none pretends to a consent", async () => {
    await migrate(database, before);
    await database.db.execute(sql`
      INSERT INTO slots (id, start_at, end_at, status, visitor_name, booking_reference) VALUES
        (1, now() + interval '2 days', now() + interval '2 days 30 minutes', 'booked', 'Paid Parent', 'PAY-OLD'),
        (2, now() + interval '3 days', now() + interval '3 days 30 minutes', 'booked', 'Walk-in Parent', 'BK-OLD'),
        (3, now() + interval '4 days', now() + interval '4 days 30 minutes', 'available', NULL, NULL)`);
    await database.db.execute(sql`
      INSERT INTO payments (id, reference, slot_id, amount_sen, visitor_name, visitor_email, visitor_contact_no, selected_school, hold_token, gateway, session_expires_at, locale, created_at)
      VALUES ('pay_old', 'PAY-OLD', 1, 7500, 'Paid Parent', 'old@example.com', '0123456789', 'Seri Ilmu Private Secondary', 'token', 'sandbox', now(), 'ms', '2026-01-02T03:04:05Z'),
             ('pay_failed', 'PAY-FAILED', 3, 7500, 'Gone Parent', 'gone@example.com', '0123456788', 'Seri Ilmu Private Secondary', 'token2', 'sandbox', now(), 'en', '2026-01-03T03:04:05Z')`);
    expect(await migrate(database)).toEqual(expect.arrayContaining(['0015_consents.sql']));
    const rows = await queryRows<{ owner: string; notice_version: string; language: string; channel: string; given_at: string }>(
      database,
      sql`SELECT p.id AS owner, c.notice_version, c.language, c.channel, c.given_at::text FROM payments p JOIN consents c ON c.id = p.consent_id
          UNION ALL
          SELECT 'slot ' || s.id, c.notice_version, c.language, c.channel, c.given_at::text FROM slots s JOIN consents c ON c.id = s.consent_id
          ORDER BY 1`,
    );
    expect(rows.map(({ given_at: _, ...rest }) => rest)).toEqual([
      { owner: 'pay_failed', notice_version: 'legacy', language: 'en', channel: 'legacy' },
      { owner: 'pay_old', notice_version: 'legacy', language: 'ms', channel: 'legacy' },
      { owner: 'slot 1', notice_version: 'legacy', language: 'ms', channel: 'legacy' },
      { owner: 'slot 2', notice_version: 'legacy', language: 'en', channel: 'legacy' },
    ]);
    // The paid booking's slot names its payment's consent; the free slot names none.
    const [{ same }] = await queryRows<{ same: boolean }>(database, sql`SELECT (SELECT consent_id FROM slots WHERE id = 1) = (SELECT consent_id FROM payments WHERE id = 'pay_old') AS same`);
    expect(same).toBe(true);
    // A new consent does not collide with the ids the migration gave out.
    const [fresh] = await database.db.insert(consents).values({ noticeVersion: currentNoticeVersion(), language: 'en', channel: 'web' }).returning();
    expect(fresh.id).toBeGreaterThan(3);
  });
});
