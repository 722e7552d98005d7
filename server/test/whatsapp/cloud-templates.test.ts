import fs from 'node:fs';
import path from 'node:path';
import type { Locale } from 'shared-api/contract';
import { FakeWhatsAppCloud, type FakeOutbound } from '../../src/whatsapp/cloud/fake';
import { buildWhatsAppBody, REPLY_PAYLOADS, replyText, TEMPLATES, type ReplyAnswer, type TemplateKind } from '../../src/whatsapp/cloud/templates';

// The template catalogue (issue 38): every kind in every language builds a request the Cloud API (its faithful fake)
// accepts, a wrong one is refused with the real error, and the texts keep Meta's approval rules.

const LOCALES: Locale[] = ['en', 'ms', 'zh'];
const TOKEN = 'catalogue-token';
const PHONE_ID = '555000111';
const TO = '+60123456789';
const inputs: Record<TemplateKind, Record<string, string>> = {
  booking_confirmation: { parentName: 'Nur Aina', school: 'Seri Ilmu', date: 'Monday, 7 December 2026', time: '9:00 AM', bring: 'Birth certificate', manageUrl: 'https://b.example/m/1' },
  visit_reminder: { parentName: 'Nur Aina', children: 'Adam and Sara', school: 'Seri Ilmu', date: 'Monday, 7 December 2026', time: '9:00 AM', manageUrl: 'https://b.example/m/1' },
  waitlist_offer: { parentName: 'Nur Aina', school: 'Seri Ilmu', date: 'Monday, 7 December 2026', time: '9:00 AM', heldUntil: '3:30 PM', offerUrl: 'https://b.example/o/1' },
};

describe('WhatsApp template catalogue', () => {
  let cloud: FakeWhatsAppCloud;
  const posted: string[] = [];
  beforeEach(() => {
    posted.length = 0;
    cloud = new FakeWhatsAppCloud({ phoneNumberId: PHONE_ID, accessToken: TOKEN, appSecret: async () => 's', postWebhook: async (raw) => (posted.push(raw), 200) });
  });
  afterEach(() => cloud.close());
  const send = (body: Record<string, unknown>) => cloud.receiveSend(`Bearer ${TOKEN}`, PHONE_ID, body);

  it.each(LOCALES.flatMap((locale) => (Object.keys(TEMPLATES) as TemplateKind[]).map((kind) => [kind, locale] as const)))('%s in %s builds a body the Cloud API accepts', async (kind, locale) => {
    const { template, body } = buildWhatsAppBody(kind, locale, TO, inputs[kind]);
    expect(template).toBe(`${kind}_v1`);
    expect(body).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '60123456789', type: 'template', template: { name: `${kind}_v1`, language: { code: { en: 'en', ms: 'ms', zh: 'zh_CN' }[locale] } } });
    const answer = await send(body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ messaging_product: 'whatsapp', contacts: [{ input: '60123456789', wa_id: '60123456789' }], messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }] });
    const [sent] = cloud.conversation(TO) as FakeOutbound[];
    // The phone shows the text in the parent's language with every parameter in place.
    for (const value of Object.values(inputs[kind])) expect(sent.text).toContain(value);
    expect(sent.text).not.toMatch(/\{\{\d+\}\}/);
    expect(sent.text).toBe(TEMPLATES[kind].body[locale].replace(/\{\{(\d+)\}\}/g, (_a, n: string) => Object.values(inputs[kind])[Number(n) - 1]));
    expect(sent.buttons.map((b) => b.payload)).toEqual(TEMPLATES[kind].buttons.map((b) => b.payload));
  });

  it('the reminder has Confirm, Change and Cancel and the offer Let it pass, as quick replies in order, in each language', () => {
    const { body } = buildWhatsAppBody('visit_reminder', 'ms', TO, inputs.visit_reminder);
    expect((body.template as { components: unknown[] }).components.slice(1)).toEqual(
      ['CONFIRM', 'CHANGE', 'CANCEL'].map((payload, i) => ({ type: 'button', sub_type: 'quick_reply', index: String(i), parameters: [{ type: 'payload', payload }] })),
    );
    expect(TEMPLATES.visit_reminder.buttons.map((b) => b.text.en)).toEqual(["Confirm I'm coming", 'Change time', 'Cancel']);
    expect(TEMPLATES.waitlist_offer.buttons.map((b) => [b.payload, b.text.en])).toEqual([[REPLY_PAYLOADS.pass, 'Let it pass']]);
    expect(REPLY_PAYLOADS).toEqual({ confirm: 'CONFIRM', change: 'CHANGE', cancel: 'CANCEL', pass: 'PASS' });
  });

  it('a missing, extra or empty input key is a programming error; a parameter is made one line as Meta requires', () => {
    const { parentName: _dropped, ...missing } = inputs.booking_confirmation;
    expect(() => buildWhatsAppBody('booking_confirmation', 'en', TO, missing)).toThrow('missing: parentName');
    expect(() => buildWhatsAppBody('booking_confirmation', 'en', TO, { ...inputs.booking_confirmation, extra: 'x' })).toThrow('extra: extra');
    expect(() => buildWhatsAppBody('booking_confirmation', 'en', TO, { ...inputs.booking_confirmation, school: ' ' })).toThrow('school must be a non-empty string');
    expect(() => buildWhatsAppBody('no_such_kind', 'en', TO, {})).toThrow('no template');
    const { body } = buildWhatsAppBody('booking_confirmation', 'en', TO, { ...inputs.booking_confirmation, bring: 'Birth certificate\n\tSchool report' });
    expect(JSON.stringify(body)).toContain('"Birth certificate School report"');
  });

  it('the Cloud API refuses what does not match the approved template, with its real codes and statuses', async () => {
    const good = buildWhatsAppBody('visit_reminder', 'en', TO, inputs.visit_reminder).body as { template: { components: { parameters: unknown[] }[] } };
    const withParams = (n: number) => ({ ...good, template: { ...good.template, components: [{ type: 'body', parameters: good.template.components[0].parameters.slice(0, n) }, ...good.template.components.slice(1)] } });
    expect(await send(withParams(5))).toMatchObject({ status: 400, body: { error: { code: 132000, message: 'Number of parameters does not match the expected number of params' } } });
    expect(await send({ ...good, template: { ...good.template, language: { code: 'fr' } } })).toMatchObject({ status: 404, body: { error: { code: 132001 } } });
    expect(await send({ ...good, template: { ...good.template, name: 'visit_reminder_v9' } })).toMatchObject({ status: 404, body: { error: { code: 132001 } } });
    const wrongButton = structuredClone(good) as { template: { components: { parameters: { payload?: string }[] }[] } };
    wrongButton.template.components[1].parameters[0].payload = 'CANCEL';
    expect(await send(wrongButton)).toMatchObject({ status: 400, body: { error: { code: 131009 } } });
    const twoLines = structuredClone(good) as { template: { components: { parameters: { text?: string }[] }[] } };
    twoLines.template.components[0].parameters[0].text = 'a\nb';
    expect(await send(twoLines)).toMatchObject({ status: 400, body: { error: { code: 132018 } } });
    expect(await send({ ...good, to: '6012abc' })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(await cloud.receiveSend('Bearer wrong', PHONE_ID, good)).toMatchObject({ status: 401, body: { error: { code: 190, type: 'OAuthException' } } });
    expect(await cloud.receiveSend(`Bearer ${TOKEN}`, '999', good)).toMatchObject({ status: 400, body: { error: { code: 100, error_subcode: 33 } } });
    expect(cloud.outbound).toEqual([]);
    expect(posted).toEqual([]);
  });

  it('a template Meta paused is refused with 132015, and no webhook follows', async () => {
    const paused = new FakeWhatsAppCloud({ phoneNumberId: PHONE_ID, accessToken: TOKEN, appSecret: async () => 's', postWebhook: async (raw) => (posted.push(raw), 200), pausedTemplates: ['waitlist_offer_v1'] });
    const { body } = buildWhatsAppBody('waitlist_offer', 'ms', TO, inputs.waitlist_offer);
    expect(await paused.receiveSend(`Bearer ${TOKEN}`, PHONE_ID, body)).toMatchObject({ status: 400, body: { error: { code: 132015, message: 'Template is Paused' } } });
    await paused.settled();
    paused.close();
    expect([paused.outbound, posted]).toEqual([[], []]);
  });

  it('reply_text is a plain text without link preview; the answers exist in each language and change/cancel carry the link', () => {
    expect(buildWhatsAppBody('reply_text', 'zh', TO, { text: 'Line one\nLine two' })).toEqual({
      template: 'reply_text',
      body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: '60123456789', type: 'text', text: { preview_url: false, body: 'Line one\nLine two' } },
    });
    expect(() => buildWhatsAppBody('reply_text', 'en', TO, { text: 'x', extra: 'y' })).toThrow('extra');
    const url = 'https://b.example/m/1';
    expect(replyText('en', 'confirmed')).toBe('Thank you. We have noted that you are coming.');
    expect(replyText('en', 'stopped')).toBe('You will get no more WhatsApp messages from us. Emails still come.');
    expect(replyText('en', 'cancel', { manageUrl: url })).toMatch(/^To cancel your visit.*https:\/\/b\.example\/m\/1 \. Nothing is cancelled until you do it there\.$/);
    const answers: ReplyAnswer[] = ['confirmed', 'change', 'cancel', 'stopped', 'passed', 'unknown'];
    for (const locale of LOCALES) {
      const texts = answers.map((which) => replyText(locale, which, { manageUrl: url }));
      expect(new Set(texts).size).toBe(answers.length);
      for (const which of ['change', 'cancel', 'unknown'] as const) expect(replyText(locale, which, { manageUrl: url })).toContain(url);
      expect(replyText(locale, 'unknown')).not.toContain('http');
      expect(() => replyText(locale, 'change')).toThrow('manage link');
    }
    expect(replyText('ms', 'confirmed')).toBe('Terima kasih. Kami telah mencatatkan bahawa anda akan hadir.');
    expect(replyText('zh', 'passed')).toBe('谢谢。此名额已让给下一个家庭。');
  });

  it("keeps Meta's approval rules: no variable at the start or end or beside another, buttons at most 25 characters, body at most 1024", () => {
    for (const spec of Object.values(TEMPLATES))
      for (const locale of LOCALES) {
        const text = spec.body[locale];
        expect([spec.name, locale, /^\s*\{\{/.test(text), /\}\}\s*$/.test(text), /\}\}\s*\{\{/.test(text)]).toEqual([spec.name, locale, false, false, false]);
        expect(text.match(/\{\{\d+\}\}/g)).toEqual(spec.params.map((_p, i) => `{{${i + 1}}}`));
        expect(text.length).toBeLessThanOrEqual(1024);
        for (const button of spec.buttons) expect(button.text[locale].length).toBeLessThanOrEqual(25);
      }
  });

  it('docs/WHATSAPP.md holds each template exactly as sent (name, body per language, button texts), to submit for approval', () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../../docs/WHATSAPP.md'), 'utf8');
    for (const spec of Object.values(TEMPLATES)) {
      expect(doc).toContain(`### \`${spec.name}\``);
      for (const locale of LOCALES) {
        expect(doc).toContain('```text\n' + spec.body[locale] + '\n```');
        for (const button of spec.buttons) expect(doc).toContain(`"${button.text[locale]}"`);
      }
    }
  });
});
