jest.setTimeout(60_000);
import { eq } from 'drizzle-orm';
import { buildWhatsAppBody, enqueueWhatsApp, FAKE_WHATSAPP, whatsappMessages, type WhatsAppReplyRow } from '../../src/whatsapp';
import { FakeWhatsAppCloud } from '../../src/whatsapp/cloud/fake';
import { signatureMatches } from '../../src/whatsapp/signature';
import { startTestApp, stopTestApp, type TestContext } from '../helpers';

// Fake mode (WHATSAPP_API=fake, the default of `npm start`): the fake Cloud API runs inside the API at /fake-whatsapp
// with no configuration; its page shows each message in the parent's language with its buttons, and pressing one (or
// typing a reply) posts the signed inbound webhook.

const DAYTIME = new Date('2026-03-02T02:00:00Z');
const reminder = { parentName: 'Tan Mei Ling', children: 'Wei <Jie>', school: 'Seri Ilmu', date: '2026年12月7日星期一', time: '上午9:00', manageUrl: 'https://b.example/m/1' };

describe('the fake Cloud API in fake mode', () => {
  let ctx: TestContext;
  const replies: WhatsAppReplyRow[] = [];

  beforeAll(async () => {
    ctx = await startTestApp();
    await ctx.app.jobs.stopWorking('whatsapp');
    ctx.app.whatsapp.onReply(async (reply) => {
      replies.push(reply);
    });
  });
  afterAll(() => stopTestApp(ctx));

  it('sends a reminder in Chinese to the fake, shows it with its buttons, and a pressed button reaches onReply once', async () => {
    expect(ctx.config.whatsapp.api).toBe('fake');
    const message = { dedupeKey: 'booking:fake:reminder', kind: 'visit_reminder', locale: 'zh' as const, to: '0171234567', input: reminder, now: DAYTIME, build: buildWhatsAppBody, optIn: { at: DAYTIME, withdrawnAt: null } };
    await ctx.app.db.transaction((tx) => enqueueWhatsApp(tx, message));
    await ctx.app.whatsapp.queue!.runOnce();
    await ctx.app.whatsapp.fake!.settled();
    const [row] = await ctx.app.db.select().from(whatsappMessages).where(eq(whatsappMessages.dedupeKey, 'booking:fake:reminder'));
    expect(row).toMatchObject({ state: 'read', template: 'visit_reminder_v1', wamid: expect.stringMatching(/^wamid\./) });

    const json = (await ctx.app.inject('/fake-whatsapp/messages.json?to=60171234567')).json();
    expect(json.messages).toEqual([
      expect.objectContaining({ direction: 'out', wamid: row.wamid, to: '60171234567', template: 'visit_reminder_v1', language: 'zh_CN', buttons: [{ index: 0, payload: 'CONFIRM', text: '确认出席' }, { index: 1, payload: 'CHANGE', text: '更改时间' }, { index: 2, payload: 'CANCEL', text: '取消' }] }),
    ]);
    expect(json.messages[0].text).toContain('您好，Tan Mei Ling：提醒您，Wei <Jie>在Seri Ilmu的评估日期为2026年12月7日星期一，时间：上午9:00（GMT+8）。');

    const page = await ctx.app.inject('/fake-whatsapp/?to=60171234567');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('Wei &lt;Jie&gt;');
    expect(page.body).not.toContain('Wei <Jie>');
    expect(page.body).toContain('>取消</button>');

    const before = replies.length;
    const pressed = await ctx.app.inject({ method: 'POST', url: '/fake-whatsapp/press', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `wamid=${encodeURIComponent(row.wamid!)}&index=2` });
    expect([pressed.statusCode, pressed.headers.location]).toEqual([303, '/fake-whatsapp/?to=60171234567']);
    await ctx.app.whatsapp.fake!.settled();
    expect(replies.slice(before)).toEqual([expect.objectContaining({ fromE164: '+60171234567', payload: 'CANCEL', text: '取消', contextWamid: row.wamid })]);

    const typed = await ctx.app.inject({ method: 'POST', url: '/fake-whatsapp/reply', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'from=60171234567&text=STOP' });
    expect(typed.statusCode).toBe(303);
    await ctx.app.whatsapp.fake!.settled();
    expect(replies.slice(before + 1)).toEqual([expect.objectContaining({ fromE164: '+60171234567', payload: null, text: 'STOP', contextWamid: null })]);
  });

  it('refuses a press of no such message or button, and a send with the wrong token, changing nothing', async () => {
    const before = replies.length;
    const press = await ctx.app.inject({ method: 'POST', url: '/fake-whatsapp/press', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'wamid=wamid.nope&index=0' });
    expect(press.statusCode).toBe(404);
    const send = await ctx.app.inject({ method: 'POST', url: `/fake-whatsapp/v21.0/${FAKE_WHATSAPP.phoneNumberId}/messages`, headers: { authorization: 'Bearer nope' }, payload: { messaging_product: 'whatsapp' } });
    expect([send.statusCode, send.json().error.code]).toEqual([401, 190]);
    await ctx.app.whatsapp.fake!.settled();
    expect(replies.length).toBe(before);
  });
});

describe('the fake’s webhook knobs', () => {
  it('signs every post with the app secret, and can delay, reverse and duplicate a message’s statuses', async () => {
    const posts: { raw: string; signature: string }[] = [];
    const cloud = new FakeWhatsAppCloud({
      phoneNumberId: '1',
      accessToken: 't',
      appSecret: async () => 'knob-secret',
      postWebhook: async (raw, signature) => (posts.push({ raw, signature }), 200),
      delayMs: 50,
      reorderWebhooks: true,
      duplicateWebhooks: true,
    });
    const { body } = buildWhatsAppBody('booking_confirmation', 'en', '+60123456789', { parentName: 'A', school: 'B', date: 'C', time: 'D', bring: 'E', manageUrl: 'F' });
    const answer = await cloud.receiveSend('Bearer t', '1', body);
    expect(posts).toEqual([]);
    await cloud.settled();
    cloud.close();
    const statuses = posts.map((p) => {
      expect(signatureMatches('knob-secret', Buffer.from(p.raw), p.signature)).toBe(true);
      const value = JSON.parse(p.raw).entry[0].changes[0].value;
      expect(value.metadata.phone_number_id).toBe('1');
      return `${value.statuses[0].id === (answer.body.messages as { id: string }[])[0].id}:${value.statuses[0].status}`;
    });
    expect(statuses).toEqual(['true:read', 'true:read', 'true:delivered', 'true:delivered', 'true:sent', 'true:sent']);
  });
});
