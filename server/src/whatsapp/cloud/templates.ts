import type { Locale } from 'shared-api/contract';
import type { BodyBuilder } from '../outbox';

/**
 * The WhatsApp message catalogue (issue 38): every template's name, language codes, body parameters in order,
 * quick-reply buttons and the exact texts submitted to Meta for approval (docs/WHATSAPP.md shows them), plus the
 * free-form answers to a parent's reply. The local fake (fake.ts) accepts exactly what is approved here.
 */

/** Meta's language code for each of the product's languages (one template name, one translation per code). */
export const TEMPLATE_LANGUAGES: Record<Locale, string> = { en: 'en', ms: 'ms', zh: 'zh_CN' };

/** The payloads of the quick-reply buttons, as they come back in the webhook's `button.payload`. */
export const REPLY_PAYLOADS = { confirm: 'CONFIRM', change: 'CHANGE', cancel: 'CANCEL', pass: 'PASS' } as const;

export type TemplateButton = { payload: string; text: Record<Locale, string> };
export type TemplateSpec = {
  /** The template's name on Meta (the same for every language). */
  name: string;
  category: 'UTILITY';
  /** The caller's input keys, in the order of the body's {{1}}, {{2}}, … */
  params: readonly string[];
  /** What each parameter is, for the approval form's sample values and for docs/WHATSAPP.md. */
  samples: Record<string, string>;
  /** Quick-reply buttons, in their order (index 0, 1, …). */
  buttons: readonly TemplateButton[];
  /** The body per language, with {{1}}… as Meta wants it. */
  body: Record<Locale, string>;
};

const confirm: TemplateButton = { payload: REPLY_PAYLOADS.confirm, text: { en: "Confirm I'm coming", ms: 'Sahkan saya hadir', zh: '确认出席' } };
const change: TemplateButton = { payload: REPLY_PAYLOADS.change, text: { en: 'Change time', ms: 'Tukar masa', zh: '更改时间' } };
const cancel: TemplateButton = { payload: REPLY_PAYLOADS.cancel, text: { en: 'Cancel', ms: 'Batal', zh: '取消' } };
const pass: TemplateButton = { payload: REPLY_PAYLOADS.pass, text: { en: 'Let it pass', ms: 'Lepaskan tempat ini', zh: '让给下一位' } };

// Meta refuses a body that starts or ends with a variable, or has two variables side by side: each text keeps words around them.
export const TEMPLATES = {
  booking_confirmation: {
    name: 'booking_confirmation_v1',
    category: 'UTILITY',
    params: ['parentName', 'school', 'date', 'time', 'bring', 'manageUrl'],
    samples: {
      parentName: 'Nur Aina',
      school: 'Sekolah Seri Ilmu',
      date: 'Monday, 7 December 2026',
      time: '9:00 AM',
      bring: "Your child's birth certificate and latest school report",
      manageUrl: 'https://booking.example.com/manage/abc123',
    },
    buttons: [],
    body: {
      en: 'Hello {{1}}, your assessment visit at {{2}} is booked for {{3}} at {{4}} (GMT+8).\n\nWhat to bring: {{5}}\n\nTo view, change or cancel your booking, use this link: {{6}}\n\nThank you.',
      ms: 'Salam sejahtera {{1}}, lawatan penilaian anda di {{2}} telah ditempah pada {{3}} pukul {{4}} (GMT+8).\n\nPerkara yang perlu dibawa: {{5}}\n\nUntuk melihat, menukar tarikh atau membatalkan tempahan anda, gunakan pautan ini: {{6}}\n\nTerima kasih.',
      zh: '您好，{{1}}：您在{{2}}的评估预约已确认，日期：{{3}}，时间：{{4}}（GMT+8）。\n\n请携带以下物品：{{5}}\n\n如需查看、改期或取消预约，请使用此链接：{{6}}\n\n谢谢。',
    },
  },
  visit_reminder: {
    name: 'visit_reminder_v1',
    category: 'UTILITY',
    params: ['parentName', 'children', 'school', 'date', 'time', 'manageUrl'],
    samples: {
      parentName: 'Nur Aina',
      children: 'Adam and Sara',
      school: 'Sekolah Seri Ilmu',
      date: 'Monday, 7 December 2026',
      time: '9:00 AM',
      manageUrl: 'https://booking.example.com/manage/abc123',
    },
    buttons: [confirm, change, cancel],
    body: {
      en: 'Hello {{1}}, this is a reminder of the assessment visit for {{2}} at {{3}} on {{4}} at {{5}} (GMT+8).\n\nPlease tap a button below to tell us whether you are coming. To view, change or cancel your booking, use this link: {{6}}\n\nThank you.',
      ms: 'Salam sejahtera {{1}}, ini ialah peringatan tentang lawatan penilaian untuk {{2}} di {{3}} pada {{4}} pukul {{5}} (GMT+8).\n\nSila tekan butang di bawah untuk memberitahu kami sama ada anda akan hadir. Untuk melihat, menukar tarikh atau membatalkan tempahan anda, gunakan pautan ini: {{6}}\n\nTerima kasih.',
      zh: '您好，{{1}}：提醒您，{{2}}在{{3}}的评估日期为{{4}}，时间：{{5}}（GMT+8）。\n\n请点击下方按钮告诉我们您是否出席。如需查看、改期或取消预约，请使用此链接：{{6}}\n\n谢谢。',
    },
  },
  waitlist_offer: {
    name: 'waitlist_offer_v1',
    category: 'UTILITY',
    params: ['parentName', 'school', 'date', 'time', 'heldUntil', 'offerUrl'],
    samples: {
      parentName: 'Nur Aina',
      school: 'Sekolah Seri Ilmu',
      date: 'Monday, 7 December 2026',
      time: '9:00 AM',
      heldUntil: 'Saturday, 5 December 2026, 3:30 PM',
      offerUrl: 'https://booking.example.com/waitlist/offer/abc123',
    },
    buttons: [pass],
    body: {
      en: 'Hello {{1}}, a place has opened for an assessment visit at {{2}} on {{3}} at {{4}} (GMT+8). We are holding it for you until {{5}} (GMT+8).\n\nTo take it, book and pay before then with this link: {{6}}\n\nIf you do not want it, tap "Let it pass" and we will offer it to the next family.',
      ms: 'Salam sejahtera {{1}}, satu tempat telah kosong untuk lawatan penilaian di {{2}} pada {{3}} pukul {{4}} (GMT+8). Kami menahannya untuk anda sehingga {{5}} (GMT+8).\n\nUntuk mengambilnya, sila tempah dan bayar sebelum masa itu melalui pautan ini: {{6}}\n\nJika anda tidak mahu tempat ini, tekan "Lepaskan tempat ini" dan kami akan menawarkannya kepada keluarga seterusnya.',
      zh: '您好，{{1}}：{{2}}有一个评估名额空出，日期：{{3}}，时间：{{4}}（GMT+8）。我们为您保留此名额至{{5}}（GMT+8）。\n\n如需接受，请在此之前通过以下链接预约并付款：{{6}}\n\n如果您不需要此名额，请点击“让给下一位”，我们会将名额提供给下一个家庭。',
    },
  },
} as const satisfies Record<string, TemplateSpec>;

export type TemplateKind = keyof typeof TEMPLATES;
/** The free-form text kind: an answer inside the 24 h customer-service window, never a template. */
export const REPLY_TEXT_KIND = 'reply_text';
export type WhatsAppKind = TemplateKind | typeof REPLY_TEXT_KIND;

const isTemplateKind = (kind: string): kind is TemplateKind => Object.hasOwn(TEMPLATES, kind);

/** The template (name and language code) the catalogue approves, or undefined: what the fake accepts. */
export function findTemplate(name: string, languageCode: string): { kind: TemplateKind; locale: Locale; spec: TemplateSpec } | undefined {
  for (const [kind, spec] of Object.entries(TEMPLATES) as [TemplateKind, TemplateSpec][]) {
    if (spec.name !== name) continue;
    const locale = (Object.keys(TEMPLATE_LANGUAGES) as Locale[]).find((l) => TEMPLATE_LANGUAGES[l] === languageCode);
    return locale ? { kind, locale, spec } : undefined;
  }
  return undefined;
}

/** A template's body with its parameters put in ({{1}} → the first), as the parent's phone shows it. */
export const renderTemplateBody = (text: string, values: readonly string[]): string =>
  text.replace(/\{\{(\d+)\}\}/g, (all, n: string) => values[Number(n) - 1] ?? all);

// Meta refuses a parameter with a new line, a tab or more than four spaces in a row (error 132018): one line each.
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

function inputValues(kind: string, expected: readonly string[], input: Record<string, unknown>): string[] {
  const given = Object.keys(input);
  const missing = expected.filter((k) => !given.includes(k));
  const extra = given.filter((k) => !expected.includes(k));
  if (missing.length || extra.length)
    throw new Error(`WhatsApp ${kind}: input must have exactly ${expected.join(', ')} (missing: ${missing.join(', ') || 'none'}; extra: ${extra.join(', ') || 'none'})`);
  return expected.map((k) => {
    const value = input[k];
    if (typeof value !== 'string' || !value.trim()) throw new Error(`WhatsApp ${kind}: ${k} must be a non-empty string`);
    return oneLine(value);
  });
}

/**
 * The Cloud API request for a message (the outbox stores it as sent): a template with its body parameters in the
 * catalogue's order and a `button` component per quick reply, or for `reply_text` a plain text without link preview.
 * A missing or extra input key throws: a programming error, caught by the caller's tests.
 */
export const buildWhatsAppBody: BodyBuilder = (kind, locale, to, input) => {
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to: to.replace(/^\+/, '') };
  if (kind === REPLY_TEXT_KIND) {
    inputValues(kind, ['text'], input);
    // A text message may keep its line breaks (only template parameters must be one line).
    const text = String(input.text);
    return { template: REPLY_TEXT_KIND, body: { ...envelope, type: 'text', text: { preview_url: false, body: text } } };
  }
  if (!isTemplateKind(kind)) throw new Error(`WhatsApp: no template for kind "${kind}"`);
  const spec: TemplateSpec = TEMPLATES[kind];
  const values = inputValues(kind, spec.params, input);
  return {
    template: spec.name,
    body: {
      ...envelope,
      type: 'template',
      template: {
        name: spec.name,
        language: { code: TEMPLATE_LANGUAGES[locale] },
        components: [
          { type: 'body', parameters: values.map((text) => ({ type: 'text', text })) },
          ...spec.buttons.map((button, index) => ({
            type: 'button',
            sub_type: 'quick_reply',
            index: String(index),
            parameters: [{ type: 'payload', payload: button.payload }],
          })),
        ],
      },
    },
  };
};

export type ReplyAnswer = 'confirmed' | 'change' | 'cancel' | 'stopped' | 'passed' | 'unknown';

const REPLY_TEXTS: Record<Locale, Record<ReplyAnswer, (url: string | undefined) => string>> = {
  en: {
    confirmed: () => 'Thank you. We have noted that you are coming.',
    change: (url) => `To change the time of your visit, please use your booking page: ${url}`,
    cancel: (url) => `To cancel your visit, please use your booking page: ${url} . Nothing is cancelled until you do it there.`,
    stopped: () => 'You will get no more WhatsApp messages from us. Emails still come.',
    passed: () => 'Thank you. The place has been passed on to the next family.',
    unknown: (url) => `Sorry, we could not read your reply.${url ? ` To view, change or cancel your booking, please use your booking page: ${url}` : ''}`,
  },
  ms: {
    confirmed: () => 'Terima kasih. Kami telah mencatatkan bahawa anda akan hadir.',
    change: (url) => `Untuk menukar masa lawatan anda, sila gunakan halaman tempahan anda: ${url}`,
    cancel: (url) => `Untuk membatalkan lawatan anda, sila gunakan halaman tempahan anda: ${url} . Tiada apa-apa yang dibatalkan sehingga anda melakukannya di halaman itu.`,
    stopped: () => 'Anda tidak akan menerima mesej WhatsApp daripada kami lagi. E-mel akan tetap dihantar.',
    passed: () => 'Terima kasih. Tempat ini telah diberikan kepada keluarga seterusnya.',
    unknown: (url) =>
      `Maaf, kami tidak dapat memahami balasan anda.${url ? ` Untuk melihat, menukar tarikh atau membatalkan tempahan anda, sila gunakan halaman tempahan anda: ${url}` : ''}`,
  },
  zh: {
    confirmed: () => '谢谢。我们已记录您将会出席。',
    change: (url) => `如需更改评估时间，请使用您的预约页面：${url}`,
    cancel: (url) => `如需取消评估，请使用您的预约页面：${url} 。在您于该页面办理之前，预约不会被取消。`,
    stopped: () => '您将不会再收到我们的 WhatsApp 消息。电子邮件仍会照常发送。',
    passed: () => '谢谢。此名额已让给下一个家庭。',
    unknown: (url) => `抱歉，我们无法识别您的回复。${url ? `如需查看、改期或取消预约，请使用您的预约页面：${url}` : ''}`,
  },
};

/** The text answering a parent's reply (sent as `reply_text`); `change` and `cancel` need the manage link. */
export function replyText(locale: Locale, which: ReplyAnswer, options: { manageUrl?: string } = {}): string {
  if ((which === 'change' || which === 'cancel') && !options.manageUrl) throw new Error(`WhatsApp reply "${which}" needs the manage link`);
  return REPLY_TEXTS[locale][which](options.manageUrl);
}
