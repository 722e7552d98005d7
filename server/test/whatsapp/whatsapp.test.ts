jest.setTimeout(60_000);
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config';
import { enqueueWhatsApp, sendAfterFor, signWebhookBody, whatsappMessages, type WhatsAppReplyRow } from '../../src/whatsapp';
import { queryRows, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { buttonReplyBody, startStandIn, statusesBody, type StandInAnswer } from './support';

const APP_SECRET = 'test-whatsapp-app-secret';
const VERIFY = 'test-verify-token';
// A fixed moment inside sending hours: 10:00 GMT+8 on a Monday.
const DAYTIME = new Date('2026-03-02T02:00:00Z');

describe('WhatsApp outbox, queue and webhook (PGlite)', () => {
  let ctx: TestContext;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  let answers: (n: number) => StandInAnswer = () => ({ status: 200 });
  const replies: WhatsAppReplyRow[] = [];

  beforeAll(async () => {
    standIn = await startStandIn((n) => answers(n));
    const whatsapp = loadConfig({
      WHATSAPP_API: standIn.url,
      WHATSAPP_PHONE_NUMBER_ID: '123456',
      WHATSAPP_ACCESS_TOKEN: 'token-1',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY,
      WHATSAPP_RETRY_SECONDS: '1',
    }).whatsapp;
    ctx = await startTestApp({ whatsapp });
    // The workers stay off: each test works the queue itself (runOnce), so nothing races it.
    await ctx.app.jobs.stopWorking('whatsapp');
    ctx.app.whatsapp.onReply(async (reply) => {
      replies.push(reply);
    });
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await standIn.close();
  });

  // A confirmation's parameters as the catalogue names them (their wording has its own tests).
  const CONFIRMATION = { parentName: 'Nur Aina', school: 'Seri Ilmu', date: 'Isnin, 2 Mac 2026', time: '10:00 pagi', bring: 'IC', manageUrl: 'http://site.test/booking/manage/x' };
  const enqueue = (key: string, now = DAYTIME) =>
    ctx.app.db.transaction((tx) => enqueueWhatsApp(tx, { dedupeKey: key, kind: 'booking_confirmation', locale: 'ms', to: '012-345 6789', input: CONFIRMATION, paymentId: 'pay-1', now, optIn: { at: new Date(0), withdrawnAt: null } }));
  const row = async (key: string) => (await ctx.app.db.select().from(whatsappMessages).where(eq(whatsappMessages.dedupeKey, key)))[0];
  const post = (body: unknown, signature?: string | null) => {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== null) headers['x-hub-signature-256'] = signature ?? signWebhookBody(APP_SECRET, payload);
    return ctx.app.inject({ method: 'POST', url: '/api/whatsapp/webhook', headers, payload });
  };
  const tables = () =>
    queryRows<{ m: string; e: number; r: number }>(
      ctx.database,
      sql`SELECT (SELECT string_agg(state || ':' || coalesce(wamid, '-') || ':' || coalesce(to_char(state_at, 'HH24:MI:SS'), '-'), ',' ORDER BY id) FROM whatsapp_messages) AS m,
                 (SELECT count(*)::int FROM whatsapp_events) AS e, (SELECT count(*)::int FROM whatsapp_replies) AS r`,
    );

  it('quiet hours: due at once between 07:00 and 22:00 GMT+8, else at the next 07:00 GMT+8', () => {
    expect(sendAfterFor(DAYTIME)).toEqual(DAYTIME);
    expect(sendAfterFor(new Date('2026-03-01T23:00:00Z'))).toEqual(new Date('2026-03-01T23:00:00Z')); // 07:00 GMT+8
    expect(sendAfterFor(new Date('2026-03-02T13:59:59Z'))).toEqual(new Date('2026-03-02T13:59:59Z')); // 21:59:59
    expect(sendAfterFor(new Date('2026-03-02T14:00:00Z'))).toEqual(new Date('2026-03-02T23:00:00Z')); // 22:00 → 07:00 next day
    expect(sendAfterFor(new Date('2026-03-02T17:30:00Z'))).toEqual(new Date('2026-03-02T23:00:00Z')); // 01:30 → 07:00 same day
    expect(sendAfterFor(new Date('2026-03-02T22:59:00Z'))).toEqual(new Date('2026-03-02T23:00:00Z')); // 06:59 → 07:00
  });

  it('a number that cannot be a phone number is written failed with its reason, and never sent', async () => {
    const before = standIn.received.length;
    await ctx.app.db.transaction((tx) =>
      enqueueWhatsApp(tx, { dedupeKey: 'booking:bad:confirmation', kind: 'booking_confirmation', locale: 'en', to: '12ab', input: CONFIRMATION, paymentId: 'pay-2', now: DAYTIME, optIn: { at: new Date(0), withdrawnAt: null } }),
    );
    expect(await row('booking:bad:confirmation')).toMatchObject({ state: 'failed', errorTitle: 'Not a valid phone number for WhatsApp' });
    await ctx.app.whatsapp.queue!.runOnce();
    expect(standIn.received.length).toBe(before);
  });

  it('a message written at 23:30 GMT+8 is due at 07:00 GMT+8 and its job waits until then', async () => {
    // A fixed clock years ahead, so the job's start is still to come whenever the test runs.
    await enqueue('booking:quiet:confirmation', new Date('2099-03-02T15:30:00Z'));
    expect((await row('booking:quiet:confirmation')).sendAfter).toEqual(new Date('2099-03-02T23:00:00Z'));
    expect((await row('booking:quiet:confirmation')).toE164).toBe('+60123456789');
    const before = standIn.received.length;
    await ctx.app.whatsapp.queue!.runOnce();
    expect(standIn.received.length).toBe(before);
    expect((await row('booking:quiet:confirmation')).state).toBe('queued');
  });

  it('sends once: the stand-in receives the template once, the row keeps its wamid; a repeat of the key is ignored', async () => {
    const before = standIn.received.length;
    expect(await enqueue('booking:a:confirmation')).not.toBeNull();
    expect(await enqueue('booking:a:confirmation')).toBeNull();
    await ctx.app.whatsapp.queue!.runOnce();
    await ctx.app.whatsapp.queue!.runOnce();
    const sent = standIn.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v21.0/123456/messages');
    expect(sent[0].auth).toBe('Bearer token-1');
    expect(sent[0].body).toMatchObject({ messaging_product: 'whatsapp', to: '60123456789', type: 'template' });
    const r = await row('booking:a:confirmation');
    expect(r).toMatchObject({ state: 'sent', wamid: sent[0].wamid, attempts: 1 });
  });

  it('a 429 is retried (the row back to queued with the reason), then sent; a refusal (not on WhatsApp) fails with its code and title', async () => {
    let calls = 0;
    answers = () => (++calls === 1 ? { status: 429, code: 130429, title: 'Rate limit hit' } : { status: 200 });
    await enqueue('booking:b:confirmation');
    await ctx.app.whatsapp.queue!.runOnce();
    expect(await row('booking:b:confirmation')).toMatchObject({ state: 'queued', errorCode: '130429', errorTitle: 'Rate limit hit', wamid: null });
    await new Promise((r) => setTimeout(r, 2_100));
    await ctx.app.jobs.runDue('whatsapp');
    expect(await row('booking:b:confirmation')).toMatchObject({ state: 'sent', attempts: 2, errorCode: null });

    answers = () => ({ status: 400, code: 131026, title: 'Message undeliverable' });
    await enqueue('booking:c:confirmation');
    await ctx.app.whatsapp.queue!.runOnce();
    expect(await row('booking:c:confirmation')).toMatchObject({ state: 'failed', errorCode: '131026', errorTitle: 'Message undeliverable', wamid: null });
    answers = () => ({ status: 200 });
  });

  it('a 503 past WHATSAPP_GIVE_UP_HOURS after it was due fails with the last error instead of another retry', async () => {
    answers = () => ({ status: 503, code: 131000, title: 'Something went wrong' });
    await enqueue('booking:old:confirmation');
    await ctx.database.db.execute(sql`UPDATE whatsapp_messages SET created_at = now() - interval '25 hours', send_after = now() - interval '25 hours' WHERE dedupe_key = 'booking:old:confirmation'`);
    await ctx.app.whatsapp.queue!.runOnce();
    expect(await row('booking:old:confirmation')).toMatchObject({ state: 'failed', errorCode: '131000', errorTitle: 'Something went wrong', attempts: 1 });
    answers = () => ({ status: 200 });
  });

  it('config: a real API URL needs its ids, token, secret and verify token; fake needs none', () => {
    expect(() => loadConfig({ WHATSAPP_API: 'https://graph.facebook.com' })).toThrow('WHATSAPP_PHONE_NUMBER_ID');
    expect(() => loadConfig({ WHATSAPP_API: 'sometimes' })).toThrow('WHATSAPP_API must be');
    expect(loadConfig({}).whatsapp).toMatchObject({ api: 'fake', graphVersion: 'v21.0', appSecret: undefined, giveUpHours: 24 });
  });

  it('GET handshake: the challenge back for subscribe with the right token, 403 otherwise', async () => {
    const good = await ctx.app.inject({ method: 'GET', url: `/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444` });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('1158201444');
    for (const query of [`hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`, `hub.mode=unsubscribe&hub.verify_token=${VERIFY}&hub.challenge=1`, 'hub.challenge=1'])
      expect((await ctx.app.inject({ method: 'GET', url: `/api/whatsapp/webhook?${query}` })).statusCode).toBe(403);
  });

  it('statuses duplicated and out of order: recorded once each, the message ends read at the read time', async () => {
    await enqueue('booking:d:confirmation');
    await ctx.app.whatsapp.queue!.runOnce();
    const { wamid } = await row('booking:d:confirmation');
    const t = Math.floor(DAYTIME.getTime() / 1000);
    const read = statusesBody([{ id: wamid!, status: 'read', timestamp: t + 60 }]);
    const delivered = statusesBody([{ id: wamid!, status: 'delivered', timestamp: t + 10 }]);
    const sentStatus = statusesBody([{ id: wamid!, status: 'sent', timestamp: t + 1 }]);
    for (const body of [delivered, read, delivered, sentStatus, read, delivered]) expect((await post(body)).statusCode).toBe(200);
    const r = await row('booking:d:confirmation');
    expect(r.state).toBe('read');
    expect(r.stateAt).toEqual(new Date((t + 60) * 1000));
    const events = await queryRows<{ status: string; n: number }>(ctx.database, sql`SELECT status, count(*)::int AS n FROM whatsapp_events WHERE wamid = ${wamid} GROUP BY status ORDER BY status`);
    expect(events).toEqual([{ status: 'delivered', n: 1 }, { status: 'read', n: 1 }, { status: 'sent', n: 1 }]);
  });

  it('a failed status records the platform error code and title', async () => {
    await enqueue('booking:e:confirmation');
    await ctx.app.whatsapp.queue!.runOnce();
    const { wamid } = await row('booking:e:confirmation');
    const t = Math.floor(DAYTIME.getTime() / 1000);
    await post(statusesBody([{ id: wamid!, status: 'failed', timestamp: t + 5, errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable' }] }]));
    await post(statusesBody([{ id: wamid!, status: 'delivered', timestamp: t + 3 }]));
    expect(await row('booking:e:confirmation')).toMatchObject({ state: 'failed', errorCode: '131026', errorTitle: 'Message undeliverable' });
  });

  it('forged posts (no signature, a bad one, a replayed body under another signature, oversized) are refused and change nothing', async () => {
    await enqueue('booking:f:confirmation');
    await ctx.app.whatsapp.queue!.runOnce();
    const { wamid } = await row('booking:f:confirmation');
    const body = JSON.stringify(statusesBody([{ id: wamid!, status: 'read', timestamp: Math.floor(DAYTIME.getTime() / 1000) + 99 }]));
    const before = await tables();
    expect((await post(body, null)).statusCode).toBe(401);
    expect((await post(body, 'sha256=' + '0'.repeat(64))).statusCode).toBe(401);
    expect((await post(body, 'sha1=abc')).statusCode).toBe(401);
    // The same body signed with another key (a replay re-signed by someone without the app secret).
    expect((await post(body, signWebhookBody('another-secret', body))).statusCode).toBe(401);
    // A genuine signature over another body, replayed with this one.
    expect((await post(body, signWebhookBody(APP_SECRET, body.replace('read', 'sent')))).statusCode).toBe(401);
    const big = JSON.stringify({ ...JSON.parse(body), pad: 'x'.repeat(70 * 1024) });
    expect((await post(big)).statusCode).toBe(413);
    expect(await tables()).toEqual(before);
    expect((await row('booking:f:confirmation')).state).toBe('sent');
  });

  it('a reply button: stored once by its message id and handed to the registered handler once', async () => {
    const { wamid } = await row('booking:a:confirmation');
    const body = buttonReplyBody('wamid.reply-1', wamid!, 'confirm', "Confirm I'm coming");
    expect((await post(body)).statusCode).toBe(200);
    expect((await post(body)).statusCode).toBe(200);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ messageId: 'wamid.reply-1', fromE164: '+60123456789', payload: 'confirm', contextWamid: wamid });
    const stored = await queryRows<{ handled: boolean }>(ctx.database, sql`SELECT handled FROM whatsapp_replies WHERE message_id = 'wamid.reply-1'`);
    expect(stored).toEqual([{ handled: true }]);
  });
});
