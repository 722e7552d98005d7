jest.setTimeout(60_000);
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config';
import { buildWhatsAppBody, enqueueWhatsApp, listenFakeWhatsApp, postWebhookTo, whatsappMessages, type FakeOutbound, type WhatsAppReplyRow } from '../../src/whatsapp';
import { createWhatsAppApi } from '../../src/whatsapp/cloud/api';
import { queryRows, startTestApp, stopTestApp, type TestContext } from '../helpers';

// The Cloud API adapter against the faithful fake, both over real HTTP: the fake validates the send, answers Meta's
// shapes, then posts signed status webhooks to the API (sent, delivered, read; or failed 131026 / 131047), and a
// button pressed on it reaches the reply handlers once.

const APP_SECRET = 'cloud-api-test-app-secret';
const PHONE_ID = '222333444';
const TOKEN = 'cloud-api-test-token';
const DAYTIME = new Date('2026-03-02T02:00:00Z');
const confirmation = { parentName: 'Nur Aina', school: 'Seri Ilmu', date: 'Isnin, 7 Disember 2026', time: '9:00 PG', bring: 'Sijil kelahiran', manageUrl: 'https://b.example/m/1' };
const reminder = { parentName: 'Nur Aina', children: 'Adam', school: 'Seri Ilmu', date: 'Isnin, 7 Disember 2026', time: '9:00 PG', manageUrl: 'https://b.example/m/1' };

describe('WhatsApp Cloud API adapter against the fake (HTTP)', () => {
  let ctx: TestContext;
  let fake: Awaited<ReturnType<typeof listenFakeWhatsApp>>;
  let webhookUrl = '';
  const replies: WhatsAppReplyRow[] = [];

  beforeAll(async () => {
    fake = await listenFakeWhatsApp({ phoneNumberId: PHONE_ID, accessToken: TOKEN, appSecret: async () => APP_SECRET, postWebhook: (raw, signature) => postWebhookTo(webhookUrl)(raw, signature) });
    const whatsapp = loadConfig({
      WHATSAPP_API: fake.url,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
      WHATSAPP_ACCESS_TOKEN: TOKEN,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify',
      WHATSAPP_RETRY_SECONDS: '1',
    }).whatsapp;
    ctx = await startTestApp({ whatsapp });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    webhookUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/whatsapp/webhook`;
    // Each test works the queue itself (runOnce), so nothing races it.
    await ctx.app.jobs.stopWorking('whatsapp');
    ctx.app.whatsapp.onReply(async (reply) => {
      replies.push(reply);
    });
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await fake.close();
  });

  const enqueue = (key: string, kind: string, to: string, input: Record<string, string>) => {
    // A parent who opted in (a text answers one who just wrote: inside the 24 h window).
    const message = { dedupeKey: key, kind, locale: 'ms' as const, to, input, now: DAYTIME, build: buildWhatsAppBody, optIn: kind === 'reply_text' ? ('replying' as const) : { at: DAYTIME, withdrawnAt: null } };
    return ctx.app.db.transaction((tx) => enqueueWhatsApp(tx, message));
  };
  const row = async (key: string) => (await ctx.app.db.select().from(whatsappMessages).where(eq(whatsappMessages.dedupeKey, key)))[0];
  const sendAndSettle = async () => {
    await ctx.app.whatsapp.queue!.runOnce();
    await fake.cloud.settled();
  };

  it('a confirmation is accepted, shown in Malay on the fake, and its statuses come back signed: sent, delivered, read', async () => {
    await enqueue('booking:ok:confirmation', 'booking_confirmation', '012-345 6789', confirmation);
    await sendAndSettle();
    const sent = await row('booking:ok:confirmation');
    expect(sent).toMatchObject({ state: 'read', template: 'booking_confirmation_v1', errorCode: null });
    const [message] = fake.cloud.conversation('+60123456789') as FakeOutbound[];
    expect(message).toMatchObject({ wamid: sent.wamid, template: 'booking_confirmation_v1', language: 'ms', statuses: [{ status: 'sent' }, { status: 'delivered' }, { status: 'read' }] });
    expect(message.text).toContain('Salam sejahtera Nur Aina, lawatan penilaian anda di Seri Ilmu telah ditempah pada Isnin, 7 Disember 2026 pukul 9:00 PG (GMT+8).');
    const events = await queryRows<{ status: string }>(ctx.database, sql`SELECT status FROM whatsapp_events WHERE wamid = ${sent.wamid} ORDER BY platform_at, status`);
    expect(events.map((e) => e.status)).toEqual(['sent', 'delivered', 'read']);
    // The same over the fake's JSON view.
    const json = await (await fetch(`${fake.url}/messages.json?to=60123456789`)).json();
    expect(json.messages.map((m: { wamid: string }) => m.wamid)).toEqual([sent.wamid]);
  });

  it('a number not on WhatsApp is accepted, then fails by webhook with 131026 and its reason on the message row', async () => {
    await enqueue('booking:nowa:confirmation', 'booking_confirmation', '0123450000', confirmation);
    await sendAndSettle();
    expect(await row('booking:nowa:confirmation')).toMatchObject({ state: 'failed', errorCode: '131026', errorTitle: 'Message undeliverable', wamid: expect.stringMatching(/^wamid\./) });
  });

  it('a 429 is retried: the row back to queued with the reason, then sent once', async () => {
    fake.cloud.refuseNext(1, 429, 130429, 'Rate limit hit');
    await enqueue('booking:busy:confirmation', 'booking_confirmation', '0191112222', confirmation);
    await ctx.app.whatsapp.queue!.runOnce();
    expect(await row('booking:busy:confirmation')).toMatchObject({ state: 'queued', errorCode: '130429', errorTitle: 'Rate limit hit', wamid: null });
    expect(fake.cloud.conversation('+60191112222')).toEqual([]);
    await new Promise((r) => setTimeout(r, 2_100));
    await ctx.app.jobs.runDue('whatsapp');
    await fake.cloud.settled();
    expect(await row('booking:busy:confirmation')).toMatchObject({ state: 'read', attempts: 2, errorCode: null });
    expect(fake.cloud.conversation('+60191112222')).toHaveLength(1);
  });

  it("a button pressed on the fake reaches onReply once with its payload and the template message's wamid, even posted twice", async () => {
    await enqueue('booking:rem:reminder', 'visit_reminder', '0167778888', reminder);
    await sendAndSettle();
    const { wamid } = await row('booking:rem:reminder');
    fake.cloud.options.duplicateWebhooks = true;
    try {
      const before = replies.length;
      const pressed = fake.cloud.pressButton(wamid!, 0);
      await fake.cloud.settled();
      expect(replies.slice(before)).toEqual([expect.objectContaining({ messageId: pressed!.id, fromE164: '+60167778888', payload: 'CONFIRM', text: 'Sahkan saya hadir', contextWamid: wamid })]);
      expect((await queryRows<{ n: number }>(ctx.database, sql`SELECT count(*)::int AS n FROM whatsapp_replies WHERE message_id = ${pressed!.id}`))[0].n).toBe(1);
    } finally {
      fake.cloud.options.duplicateWebhooks = false;
    }
  });

  it('a text outside the 24 h window is refused (failed 131047); after the parent writes, the answer is delivered', async () => {
    await enqueue('reply:cold', 'reply_text', '0135556666', { text: 'Hello' });
    await sendAndSettle();
    expect(await row('reply:cold')).toMatchObject({ state: 'failed', errorCode: '131047' });
    fake.cloud.sendText('+60135556666', 'Hello, is the visit still on?');
    await fake.cloud.settled();
    expect(replies.at(-1)).toMatchObject({ fromE164: '+60135556666', text: 'Hello, is the visit still on?', payload: null });
    await enqueue('reply:warm', 'reply_text', '0135556666', { text: 'Terima kasih. Kami telah mencatatkan bahawa anda akan hadir.' });
    await sendAndSettle();
    expect(await row('reply:warm')).toMatchObject({ state: 'read', errorCode: null });
  });

  it('the adapter: a refusal carries its code, title and whether to retry; a lost connection is retried', async () => {
    const api = createWhatsAppApi({ baseUrl: fake.url, graphVersion: 'v21.0', phoneNumberId: PHONE_ID, accessToken: TOKEN });
    const body = buildWhatsAppBody('booking_confirmation', 'en', '+60123456789', confirmation);
    expect(await api.send({ ...body.body, template: { name: 'nope', language: { code: 'en' } } })).toEqual({
      ok: false,
      retry: false,
      status: 404,
      code: 132001,
      title: 'Template name does not exist in the translation: template name (nope) does not exist in en',
    });
    expect(await createWhatsAppApi({ baseUrl: fake.url, graphVersion: 'v21.0', phoneNumberId: PHONE_ID, accessToken: 'stale' }).send(body.body)).toMatchObject({ ok: false, retry: false, status: 401, code: 190 });
    fake.cloud.refuseNext(1, 400, 131056, '(Business Account, Consumer Account) pair rate limit hit');
    expect(await api.send(body.body)).toMatchObject({ ok: false, retry: true, status: 400, code: 131056 });
    const gone = createWhatsAppApi({ baseUrl: 'http://127.0.0.1:1', graphVersion: 'v21.0', phoneNumberId: PHONE_ID, accessToken: TOKEN });
    expect(await gone.send(body.body)).toMatchObject({ ok: false, retry: true, status: 0 });
  });
});
