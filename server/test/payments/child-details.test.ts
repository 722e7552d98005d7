import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { ErrorCode, ValidationMessage } from 'shared-api/contract';
import { auth, createThrowawayPostgres, queryRows, STAFF } from '../helpers';
import { createUser } from '../../src/auth/accounts';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate, MIGRATIONS_DIR } from '../../src/base/db/migrate';
import { payments } from '../../src/payments/tables';
import {
  initiate,
  initiateBody,
  initiateOk,
  insertSlot,
  markSandboxPaid,
  outboxFor,
  paymentRow,
  postSandboxCallback,
  slotRow,
  startPaymentsApp,
  type Driver,
  type PayCtx,
} from './support';

// Issue 24: an assessment is about a child. The parent gives the child's name and the year or grade applied for (one
// of the school's years in brand.config.json); the server refuses a booking without them, stores them as typed-text
// cleaning leaves them, and shows them to staff (list, bookings, CSV source, feed) and in the mails.
jest.setTimeout(90_000);

const drivers: Driver[] = ['pglite', 'postgres'];

describe.each(drivers)('migration 0014 on %s', (driver) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-before-0014-'));
  beforeAll(async () => {
    if (driver === 'postgres') {
      const pg = await createThrowawayPostgres('child_migration');
      drop = pg.drop;
      database = await openDatabase({ driver: 'postgres', url: pg.url, poolSize: 2 });
    } else database = await openDatabase({ driver: 'pglite', inMemory: true });
    for (const file of fs.readdirSync(MIGRATIONS_DIR).filter((f) => f < '0014')) fs.copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(before, file));
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    fs.rmSync(before, { recursive: true, force: true });
  });

  it('adds the child to payments and slots as nullable text: a booking made before it reads as never asked', async () => {
    await migrate(database, before);
    await database.db.execute(sql`INSERT INTO slots (id, start_at, end_at, status, visitor_name) VALUES (1, now() + interval '2 days', now() + interval '2 days 30 minutes', 'booked', 'Old Parent')`);
    await database.db.execute(sql`
      INSERT INTO payments (id, reference, slot_id, amount_sen, visitor_name, visitor_email, visitor_contact_no, selected_school, hold_token, gateway, session_expires_at)
      VALUES ('pay_old', 'PAY-OLD', 1, 7500, 'Old Parent', 'old@example.com', '0123456789', 'Seri Ilmu Private Secondary', 'token', 'sandbox', now())`);
    expect(await migrate(database)).toEqual(expect.arrayContaining(['0014_child_details.sql']));
    const columns = await queryRows<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      database,
      sql`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
          WHERE column_name IN ('child_name', 'child_year') AND table_name IN ('payments', 'slots') ORDER BY table_name, column_name`,
    );
    expect(columns).toEqual([
      { table_name: 'payments', column_name: 'child_name', data_type: 'text', is_nullable: 'YES' },
      { table_name: 'payments', column_name: 'child_year', data_type: 'text', is_nullable: 'YES' },
      { table_name: 'slots', column_name: 'child_name', data_type: 'text', is_nullable: 'YES' },
      { table_name: 'slots', column_name: 'child_year', data_type: 'text', is_nullable: 'YES' },
    ]);
    const [old] = await database.db.select().from(payments).where(eq(payments.id, 'pay_old'));
    expect(old).toMatchObject({ visitorName: 'Old Parent', childName: null, childYear: null });
  });
});

describe.each(drivers)('the child on %s', (driver) => {
  let ctx: PayCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    await createUser(ctx.database.db, STAFF);
    token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
  });
  afterAll(() => ctx?.close());
  // Each slot starts an hour after the one before (one live slot per start).
  let hoursAhead = 60;
  const newSlot = () => insertSlot(ctx.database, hoursAhead++);

  it.each([
    ['no child name', { childName: undefined }, ValidationMessage.childNameRequired],
    ['an empty child name', { childName: '   ' }, ValidationMessage.childNameRequired],
    ['a child name of only invisible characters', { childName: '\u200B\u202E' }, ValidationMessage.childNameRequired],
    ['a one-letter child name', { childName: ' A ' }, ValidationMessage.childNameTooShort],
    ['no year', { childYear: undefined }, ValidationMessage.childYearRequired],
    ['an empty year', { childYear: '' }, ValidationMessage.childYearRequired],
    ['a year the secondary school does not take', { childYear: 'Year 1' }, ValidationMessage.childYearInvalid],
    ['a year that is no year', { childYear: 'Form 9' }, ValidationMessage.childYearInvalid],
  ])('refuses %s with the form words and holds nothing', async (_case, change, message) => {
    const slot = await newSlot();
    const res = await initiate(ctx, initiateBody(slot, { visitorEmail: 'refused@example.com', ...change }));
    expect([res.statusCode, res.json().error, res.json().message]).toEqual([400, ErrorCode.VALIDATION_ERROR, message]);
    expect((await slotRow(ctx, slot.id)).holdExpiresAt).toBeNull();
    expect(await ctx.database.db.select().from(payments).where(eq(payments.slotId, slot.id))).toEqual([]);
  });

  it('stores the child as cleaned, books the slot with it, and shows it to staff and in both mails', async () => {
    const slot = await newSlot();
    const typed = { visitorEmail: 'child@example.com', childName: '  Nur\u200B  Iman \u202Ebinti Hakim ', childYear: 'Form 2' };
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, typed));
    expect(await paymentRow(ctx, session.id)).toMatchObject({ childName: 'Nur Iman binti Hakim', childYear: 'Form 2' });

    await markSandboxPaid(ctx, sandboxId);
    expect((await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid', amount: 7500 })).status).toBe(200);
    expect(await slotRow(ctx, slot.id)).toMatchObject({ status: 'booked', childName: 'Nur Iman binti Hakim', childYear: 'Form 2' });

    const mails = await outboxFor(ctx, session.id);
    const parent = mails.find((m) => m.kind === 'visitor_confirmation')!;
    const admin = mails.find((m) => m.kind === 'admin_notification')!;
    for (const mail of [parent, admin]) {
      expect(mail.textBody).toContain('Child: Nur Iman binti Hakim\nYear or grade applied for: Form 2');
      expect(mail.htmlBody).toContain('Nur Iman binti Hakim');
      expect(mail.textBody).toContain('Address: 8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala Lumpur');
    }
    expect(parent.textBody).toContain('School phone: 03-2094 7300');
    expect(parent.ics).toMatch(/LOCATION:Seri Ilmu Private Secondary\\, 8 Jalan Setiakasih 5/);

    const listed = (await ctx.app.inject({ url: '/slot/list?isBooked=true', headers: auth(token) })).json().data.timeSlots.rows;
    expect(listed.find((row: { id: number }) => row.id === slot.id)).toMatchObject({ childName: 'Nur Iman binti Hakim', childYear: 'Form 2' });
    const reference = (await paymentRow(ctx, session.id)).reference;
    const bookings = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(token) })).json().data.bookings;
    expect(bookings.find((b: { reference: string }) => b.reference === reference)).toMatchObject({ childName: 'Nur Iman binti Hakim', childYear: 'Form 2' });
    const one = (await ctx.app.inject({ url: `/staff/bookings/${reference}`, headers: auth(token) })).json().data;
    expect(one).toMatchObject({ childName: 'Nur Iman binti Hakim', childYear: 'Form 2' });
  });

  it('a booking moved by staff keeps its child; a cancelled one frees the slot of it', async () => {
    const [from, to] = [await newSlot(), await newSlot()];
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(from, { visitorEmail: 'move@example.com', childName: 'Arjun Raj' }));
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid', amount: 7500 });
    const reference = (await paymentRow(ctx, session.id)).reference;
    const moved = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/move`, headers: auth(token), payload: { slotId: to.id } });
    expect(moved.statusCode).toBe(200);
    expect(await slotRow(ctx, to.id)).toMatchObject({ status: 'booked', childName: 'Arjun Raj', childYear: 'Form 1' });
    expect(await slotRow(ctx, from.id)).toMatchObject({ status: 'available', childName: null, childYear: null });
    await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/cancel`, headers: auth(token), payload: { refund: false } });
    expect(await slotRow(ctx, to.id)).toMatchObject({ status: 'available', childName: null, childYear: null });
  });

  it("a staff member's direct booking needs the child too, and stores it", async () => {
    const slot = await newSlot();
    const direct = { visitorName: 'Walk-in Parent', visitorEmail: 'walkin@example.com', visitorContactNo: '0123456700', selectedSchool: 'Seri Ilmu International' };
    const missing = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, headers: auth(token), payload: direct });
    expect([missing.statusCode, missing.json().message]).toEqual([400, ValidationMessage.childNameRequired]);
    expect((await slotRow(ctx, slot.id)).status).toBe('available');
    const booked = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, headers: auth(token), payload: { ...direct, childName: 'Chloe Lim', childYear: 'Year 10' } });
    expect(booked.statusCode).toBe(200);
    expect(booked.json().data.slot).toMatchObject({ childName: 'Chloe Lim', childYear: 'Year 10' });
    const feedRows = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(token) })).json().data.bookings;
    expect(feedRows.find((b: { visitorEmail: string }) => b.visitorEmail === 'walkin@example.com')).toMatchObject({ childName: 'Chloe Lim', childYear: 'Year 10' });
  });
});
