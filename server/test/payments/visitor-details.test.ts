import { ErrorCode } from 'shared-api/contract';
import { auth, enrolSecondFactor, STAFF } from '../helpers';
import { createUser } from '../../src/auth/accounts';
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
  type PayCtx,
} from './support';

// What a parent or staff member types is stored as the contract cleans it: a Malaysian number in any form as one
// national number (so the one-hold-per-phone rule sees one phone), names without direction tricks or invisible
// characters, cut by characters. The mails, the staff list and the calendar feed show what was stored.
jest.setTimeout(60_000);

/** Bidirectional controls and zero-width characters: none may reach a mail, a CSV or a page. */
const INVISIBLE = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/;

let ctx: PayCtx;
beforeAll(async () => {
  ctx = await startPaymentsApp('pglite');
});
afterAll(() => ctx?.close());

it('a number typed +60 12-345 6789 and a name hiding a right-to-left override: booked, mailed and listed as cleaned', async () => {
  const slot = await insertSlot(ctx.database, 40);
  const typed = { visitorEmail: 'override@example.com', visitorName: '  Tan \u202Egnp.exe\u200B  Mei\u2066 Ling ', visitorContactNo: '+60 12-345 6789' };
  const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, typed));
  expect(await paymentRow(ctx, session.id)).toMatchObject({ visitorName: 'Tan gnp.exe Mei Ling', visitorContactNo: '0123456789' });

  await markSandboxPaid(ctx, sandboxId);
  expect((await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid', amount: 7500 })).status).toBe(200);
  expect(await slotRow(ctx, slot.id)).toMatchObject({ status: 'booked', visitorName: 'Tan gnp.exe Mei Ling', visitorContactNo: '0123456789' });

  const mails = await outboxFor(ctx, session.id);
  const admin = mails.find((m) => m.kind === 'admin_notification')!;
  expect(admin.subject).toMatch(/^New booking: Tan gnp\.exe Mei Ling, /);
  for (const mail of mails) expect([mail.kind, INVISIBLE.test(mail.subject + mail.textBody + mail.htmlBody)]).toEqual([mail.kind, false]);
  expect(admin.textBody).toContain('012-345 6789');

  await createUser(ctx.database.db, STAFF);
  const token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: STAFF })).json().data.token as string;
  const rows = (await ctx.app.inject({ url: '/slot/list?isBooked=true', headers: auth(token) })).json().data.timeSlots.rows;
  expect(rows.find((row: { id: number }) => row.id === slot.id)).toMatchObject({ visitorName: 'Tan gnp.exe Mei Ling', visitorContactNo: '0123456789' });
});

it('the same phone in its international and national forms is one phone: a second hold with it is refused', async () => {
  const [first, second] = [await insertSlot(ctx.database, 41), await insertSlot(ctx.database, 42)];
  await initiateOk(ctx, initiateBody(first, { visitorEmail: 'national@example.com', visitorContactNo: '019-876 5432' }));
  for (const visitorContactNo of ['+60 19-876 5432', '60198765432', '+60 (0)19 876 5432']) {
    const res = await initiate(ctx, initiateBody(second, { visitorEmail: 'international@example.com', visitorContactNo }));
    expect([visitorContactNo, res.statusCode, res.json().error]).toEqual([visitorContactNo, 409, ErrorCode.VISITOR_HAS_HOLD]);
  }
  // Another number is another parent.
  await initiateOk(ctx, initiateBody(second, { visitorEmail: 'international@example.com', visitorContactNo: '+60 19-876 5433' }));
});

it('a name of 300 emoji is cut to 255 characters without splitting one, and only invisible characters are no name', async () => {
  const long = await initiateOk(ctx, initiateBody(await insertSlot(ctx.database, 43), { visitorEmail: 'long@example.com', visitorName: '😀'.repeat(300) }));
  const cut = (await paymentRow(ctx, long.session.id)).visitorName;
  expect(Array.from(cut)).toEqual(Array(255).fill('😀'));
  expect(cut).not.toContain('\uFFFD');

  const blank = await initiate(ctx, initiateBody(await insertSlot(ctx.database, 44), { visitorEmail: 'blank@example.com', visitorName: '\u202E\u200B\uFEFF' }));
  expect([blank.statusCode, blank.json().message]).toEqual([400, 'Name is required']);
});

it('a staff username is cleaned the same way before the colleagues page shows it', async () => {
  await createUser(ctx.database.db, { email: 'lead@example.com', password: 'correct-horse', role: 'admin' });
  const token = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'lead@example.com', password: 'correct-horse' } })).json().data.token as string;
  // Adding a colleague is an admin's action, after the second factor.
  await enrolSecondFactor(ctx, token);
  const added = await ctx.app.inject({
    method: 'POST',
    url: '/auth/register',
    headers: auth(token),
    payload: { email: '\u200Enew.colleague@example.com', username: 'Siti\u202E nimda\u200B', password: 'another-pass' },
  });
  expect(added.statusCode).toBe(201);
  expect(added.json().data.user).toMatchObject({ email: 'new.colleague@example.com', username: 'Siti nimda' });
});
