jest.setTimeout(120_000);
// Issue 38, the booking flows on WhatsApp: the opt-in recorded with the consent, the confirmation after paying, the
// reminder with its buttons, what each reply does (and does not do), STOP, and the manage page's "Stop WhatsApp
// messages" — through the API's routes and the in-process fake of the Cloud API (WHATSAPP_API=fake, the default).
import { eq } from 'drizzle-orm';
import { bookingChanges, manageBookingPath } from 'shared-api/contract';
import { runReminders } from '../../src/manage/reminders';
import { paymentForToken } from '../../src/manage/service';
import { slots } from '../../src/slots/tables';
import { payments } from '../../src/payments/tables';
import { enqueueReminderWhatsApp, signWebhookBody } from '../../src/whatsapp';
import { visitWhatsAppOf } from '../../src/payments';
import { useQuietHours } from '../../src/whatsapp/outbox';
import { whatsappMessages, whatsappStops } from '../../src/whatsapp/tables';
import { initiateBody, initiateOk, insertSlot, markSandboxPaid, paymentRow, postSandboxCallback, startPaymentsApp, type PayCtx } from '../payments/support';

let ctx: PayCtx;
beforeAll(async () => {
  ctx = await startPaymentsApp('pglite');
  // Whatever the hour the suite runs at (quiet hours have their own tests in whatsapp.test.ts).
  useQuietHours(false);
});
afterAll(() => ctx?.close());

const messagesOf = (paymentId: string) => ctx.database.db.select().from(whatsappMessages).where(eq(whatsappMessages.paymentId, paymentId)).orderBy(whatsappMessages.id);
const fake = () => ctx.app.whatsapp.fake!;
/** Sends what is due through the fake and waits for its status webhooks. */
const flush = async () => {
  await ctx.app.whatsapp.queue!.runOnce();
  await fake().settled();
};

let n = 0;
/** A parent books and pays (through the sandbox's signed callback); `whatsapp`: the box ticked. */
async function bookAndPay(whatsapp: boolean, extra: Record<string, unknown> = {}, hoursAhead = 72) {
  const slot = await insertSlot(ctx.database, hoursAhead + ++n / 10);
  const email = `wa-parent-${n}@example.com`;
  const body = initiateBody(slot, { visitorEmail: email, locale: 'ms', consent: { ...initiateBody(slot).consent, language: 'ms', whatsapp }, ...extra });
  const { session, sandboxId } = await initiateOk(ctx, body);
  await markSandboxPaid(ctx, sandboxId);
  const res = await postSandboxCallback(ctx, { session_id: sandboxId, reference: session.clientReference, status: 'paid', amount: 7500 });
  expect(res.status).toBe(200);
  return { paymentId: session.id, slot, contact: String(body.visitorContactNo) };
}

/** A parent's reply as the platform posts it, signed with the app secret. */
async function reply(from: string, what: { payload?: string; text?: string; context?: string }) {
  const id = `wamid.in-${Math.random().toString(36).slice(2)}`;
  const message = what.payload
    ? { from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'button', button: { payload: what.payload, text: what.payload }, ...(what.context && { context: { from: '60300000001', id: what.context } }) }
    : { from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: what.text }, ...(what.context && { context: { from: '60300000001', id: what.context } }) };
  const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '60300000001', phone_number_id: '100000000000001' }, messages: [message] } }] }] });
  const res = await ctx.app.inject({ method: 'POST', url: '/api/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(await ctx.app.whatsapp.appSecret(), body) }, payload: body });
  expect(res.statusCode).toBe(200);
  await flush();
}
const visitOf = (payment: typeof payments.$inferSelect) => visitWhatsAppOf(payment, new Date(Date.now() + 86_400_000), [], 'http://site.test/booking/manage/x');
const textTo = (paymentId: string) => async () => {
  const rows = (await messagesOf(paymentId)).filter((m) => m.kind === 'reply_text');
  return rows.map((m) => (m.requestBody as { text: { body: string } }).text.body);
};

it('not ticked: the parent gets the email only, no WhatsApp message is written', async () => {
  const { paymentId } = await bookAndPay(false);
  expect((await paymentRow(ctx, paymentId)).whatsappOptInAt).toBeNull();
  expect(await messagesOf(paymentId)).toEqual([]);
});

it('ticked: the opt-in is recorded with the consent, and the confirmation template goes in the parent\'s language, once', async () => {
  const { paymentId, contact } = await bookAndPay(true);
  const payment = await paymentRow(ctx, paymentId);
  expect(payment.whatsappOptInAt).toBeInstanceOf(Date);
  expect(payment.whatsappOptOutAt).toBeNull();
  await flush();
  const [confirmation, ...rest] = await messagesOf(paymentId);
  expect(rest).toEqual([]);
  expect(confirmation).toMatchObject({ kind: 'booking_confirmation', locale: 'ms', toE164: `+6${contact.replace(/\D/g, '')}` });
  expect(['sent', 'delivered', 'read']).toContain(confirmation.state);
  // The fake received the approved Malay template with the manage link in its parameters.
  const sent = fake().conversation(confirmation.toE164.slice(1)).filter((m) => m.direction === 'out');
  expect(sent).toHaveLength(1);
  expect(JSON.stringify(sent[0])).toContain('"ms"');
  expect(JSON.stringify(confirmation.requestBody)).toContain(manageBookingPath('').replace(/\/$/, ''));
});

describe('the day-before reminder and the replies to it', () => {
  let booking: Awaited<ReturnType<typeof bookAndPay>>;
  let reminder: typeof whatsappMessages.$inferSelect;
  beforeAll(async () => {
    booking = await bookAndPay(true, {}, 40);
    // Booked days ago, and a reminder policy whose time has come (midnight GMT+8 two days before the visit).
    await ctx.database.db.update(slots).set({ bookedAt: new Date(Date.now() - 5 * 86_400_000) }).where(eq(slots.id, booking.slot.id));
    const policy = { ...bookingChanges, reminder: { daysBefore: 2, time: '00:00' } };
    expect(await runReminders(ctx.database.db, { now: new Date(), publicSiteUrl: 'http://site.test', mailFrom: 'School <a@school.test>', policy })).toBe(1);
    await flush();
    [reminder] = (await messagesOf(booking.paymentId)).filter((m) => m.kind === 'visit_reminder');
  });

  it('goes with its three buttons, and never after the visit began', async () => {
    expect(reminder).toMatchObject({ kind: 'visit_reminder', sendBefore: booking.slot.startAt });
    expect(reminder.wamid).toBeTruthy();
    const payloads = JSON.stringify(reminder.requestBody);
    for (const payload of ['CONFIRM', 'CHANGE', 'CANCEL']) expect(payloads).toContain(payload);
  });

  it('"Cancel" answers with a manage link and cancels nothing; the link opens this booking', async () => {
    await reply(reminder.toE164.slice(1), { payload: 'CANCEL', context: reminder.wamid! });
    expect((await paymentRow(ctx, booking.paymentId)).bookingStatus).toBe('booked');
    const [answer] = await textTo(booking.paymentId)();
    const token = /\/booking\/manage\/([A-Za-z0-9_-]{43})/.exec(answer)?.[1];
    expect(token).toBeDefined();
    expect((await paymentForToken(ctx.database.db, token!))?.id).toBe(booking.paymentId);
  });

  it('"Confirm I\'m coming" from another number changes nothing; from the parent\'s, it is recorded for staff', async () => {
    await reply('60199990000', { payload: 'CONFIRM', context: reminder.wamid! });
    expect((await paymentRow(ctx, booking.paymentId)).confirmedByParentAt).toBeNull();
    await reply(reminder.toE164.slice(1), { payload: 'CONFIRM', context: reminder.wamid! });
    expect((await paymentRow(ctx, booking.paymentId)).confirmedByParentAt).toBeInstanceOf(Date);
    const staff = await ctx.app.inject({ method: 'GET', url: `/staff/bookings/${(await paymentRow(ctx, booking.paymentId)).reference}`, headers: { authorization: `Bearer ${await staffTokenOf()}` } });
    expect(staff.json().data.confirmedByParentAt).toEqual(expect.any(String));
  });

  it('STOP: the number gets no later message (a reminder for a later time is written failed with the reason), email goes on', async () => {
    await reply(reminder.toE164.slice(1), { text: 'stop' });
    const payment = await paymentRow(ctx, booking.paymentId);
    expect(payment.whatsappOptOutAt).toBeInstanceOf(Date);
    expect(await ctx.database.db.select().from(whatsappStops).where(eq(whatsappStops.toE164, reminder.toE164))).toHaveLength(1);
    expect((await textTo(booking.paymentId)()).at(-1)).toMatch(/WhatsApp/);
    // A message for the number from an opt-in given before the STOP is written failed with the reason, never sent.
    const before = fake().conversation(reminder.toE164.slice(1)).filter((m) => m.direction === 'out').length;
    const id = await ctx.database.db.transaction((tx) =>
      enqueueReminderWhatsApp(tx, { ...visitOf(payment), whatsappOptOutAt: null, whatsappOptInAt: new Date(Date.now() - 86_400_000), start: new Date(Date.now() + 3 * 86_400_000) }),
    );
    await flush();
    const [stopped] = await ctx.database.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, id!));
    expect(stopped).toMatchObject({ state: 'failed', wamid: null, errorTitle: 'The parent replied STOP: no more WhatsApp messages' });
    expect(fake().conversation(reminder.toE164.slice(1)).filter((m) => m.direction === 'out').length).toBe(before);
    // The same parent ticking the box again on a new booking after the STOP: that booking's messages go.
    const again = await bookAndPay(true, { visitorEmail: `again-${n}@example.com`, visitorContactNo: booking.contact });
    await flush();
    expect((await messagesOf(again.paymentId)).map((m) => [m.kind, m.wamid !== null])).toEqual([['booking_confirmation', true]]);
  });
});

it('"Stop WhatsApp messages" on the manage page: the booking shows off, what was waiting never goes', async () => {
  const { paymentId } = await bookAndPay(true);
  // A message still waiting: written at 23:00 GMT+8 tomorrow, due at the 07:00 after (quiet hours).
  const payment = await paymentRow(ctx, paymentId);
  const night = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000 + 15 * 3_600_000);
  useQuietHours(true);
  const waiting = await ctx.database.db.transaction((tx) => enqueueReminderWhatsApp(tx, { ...visitOf(payment), now: night, start: new Date(night.getTime() + 86_400_000) }));
  useQuietHours(false);
  const manage = await ctx.app.inject({ method: 'POST', url: '/api/booking/manage-link', payload: { paymentId }, headers: { 'x-payment-key': (await paymentRow(ctx, paymentId)).holdToken } });
  expect(manage.statusCode).toBe(200);
  const token = manage.json().data.token as string;
  expect((await ctx.app.inject(`/api/booking/manage/${token}`)).json().data.whatsapp).toBe('on');
  const off = await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${token}/whatsapp-off` });
  expect(off.statusCode).toBe(200);
  expect(off.json().data.whatsapp).toBe('off');
  await flush();
  const [row] = await ctx.database.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, waiting!));
  expect(row).toMatchObject({ state: 'failed', wamid: null, errorTitle: 'The parent turned WhatsApp messages off' });
  // Later messages of the booking are not even written.
  const now = await paymentRow(ctx, paymentId);
  const later = await ctx.database.db.transaction((tx) => enqueueReminderWhatsApp(tx, { ...visitOf(now), start: new Date(Date.now() + 5 * 86_400_000) }));
  expect(later).toBeNull();
});

it('a reminder that could not leave before its visit began never goes (failed, saying why)', async () => {
  const { paymentId } = await bookAndPay(true);
  const payment = await paymentRow(ctx, paymentId);
  const id = await ctx.database.db.transaction((tx) => enqueueReminderWhatsApp(tx, { ...visitOf(payment), start: new Date(Date.now() - 60_000) }));
  await flush();
  const [row] = await ctx.database.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, id!));
  expect(row).toMatchObject({ state: 'failed', wamid: null, errorTitle: 'Not sent in time (the visit began or the offer ended first)' });
});

it('an unknown manage token cannot turn anything off (404), and changes nothing', async () => {
  const res = await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${'x'.repeat(43)}/whatsapp-off` });
  expect(res.statusCode).toBe(404);
});

async function staffTokenOf(): Promise<string> {
  const { staffToken } = await import('../helpers');
  return staffToken({ app: ctx.app, database: ctx.database, config: ctx.config });
}
