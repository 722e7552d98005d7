jest.setTimeout(60_000);
// Issue 38: a waitlist offer on WhatsApp for a parent who ticked the box on joining, with the time it is held until;
// "Let it pass" pressed on it passes the offer on at once, as the offer link's decline does.
import { addDays, dateInMY, waitlistOfferPath } from 'shared-api/contract';
import { eq } from 'drizzle-orm';
import { signWebhookBody } from '../../src/whatsapp';
import { whatsappMessages } from '../../src/whatsapp/tables';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { atMY, entries, fixClock, join, liveOffers, offers, parent, slotAt, tomorrowAt, weekdayFrom } from '../waitlist/support';

let ctx: PayCtx;
beforeAll(async () => {
  ctx = await startPaymentsApp('pglite');
});
afterAll(() => ctx?.close());

const offerMessages = () => ctx.database.db.select().from(whatsappMessages).where(eq(whatsappMessages.kind, 'waitlist_offer'));

async function pressed(from: string, payload: string, context: string) {
  const message = { from, id: `wamid.in-${from}-${payload}-${context}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'button', button: { payload, text: payload }, context: { from: '60300000001', id: context } };
  const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '60300000001', phone_number_id: '100000000000001' }, messages: [message] } }] }] });
  const res = await ctx.app.inject({ method: 'POST', url: '/api/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(await ctx.app.whatsapp.appSecret(), body) }, payload: body });
  expect(res.statusCode).toBe(200);
}

test('the offer goes to the parent who opted in (not to one who did not), held until its end; "Let it pass" passes it on', async () => {
  const clock = fixClock(ctx, tomorrowAt('10:00'));
  const today = dateInMY(clock.now);
  const range = { fromDate: today, toDate: addDays(today, 14) };
  const day = weekdayFrom(addDays(today, 2));
  await ctx.app.waitlist.runPass();
  expect((await join(ctx, 1, { ...range, locale: 'zh', privacyConsent: { ...(await import('../waitlist/support')).joinBody(1, range).privacyConsent, whatsapp: true } })).statusCode).toBe(202);
  expect((await join(ctx, 2, range)).statusCode).toBe(202);
  expect((await entries(ctx)).map((e) => e.whatsappOptInAt !== null)).toEqual([true, false]);

  const first = await slotAt(ctx, atMY(day, '09:00'));
  await ctx.app.waitlist.runPass();
  const [offer] = await liveOffers(ctx);
  expect(offer.slotId).toBe(first.id);
  const [message] = await offerMessages();
  expect(message).toMatchObject({ waitlistOfferId: offer.id, locale: 'zh', toE164: `+6${parent(1).phone}`, sendBefore: offer.expiresAt });
  const sent = JSON.stringify(message.requestBody);
  expect(sent).toContain(waitlistOfferPath('').replace(/\/$/, ''));
  expect(sent).toContain('PASS');

  // As the platform accepted it (sending has its own tests): pressed from another phone, nothing happens.
  await ctx.database.db.update(whatsappMessages).set({ wamid: 'wamid.offer-1', state: 'sent' }).where(eq(whatsappMessages.id, message.id));
  await pressed('60199990000', 'PASS', 'wamid.offer-1');
  expect((await liveOffers(ctx)).map((o) => o.id)).toEqual([offer.id]);
  // From the parent's phone: the offer ends declined and the entry waits again; the next in line is offered the time.
  await pressed(`6${parent(1).phone}`, 'PASS', 'wamid.offer-1');
  expect((await offers(ctx)).find((o) => o.id === offer.id)?.outcome).toBe('declined');
  expect((await entries(ctx)).find((e) => e.email === parent(1).email)?.state).toBe('waiting');
  await ctx.app.waitlist.runPass();
  const [next] = await liveOffers(ctx);
  expect(next.slotId).toBe(first.id);
  // The second parent did not opt in: the mail goes, no WhatsApp message.
  expect((await offerMessages()).map((m) => m.waitlistOfferId)).toEqual([offer.id]);
  // The answer, in the parent's language, within the window the reply opened.
  const answers = await ctx.database.db.select().from(whatsappMessages).where(eq(whatsappMessages.kind, 'reply_text'));
  expect(answers).toHaveLength(1);
  expect(answers[0]).toMatchObject({ toE164: `+6${parent(1).phone}`, locale: 'zh' });
});
