import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, type Locale } from 'shared-api/contract';
import { z } from 'zod';
import { escapeHtml as h } from '../../mail';
import { errorResponses, publicRoute } from '../../base/routes';
import { signWebhookBody } from '../signature';
import { findTemplate, renderTemplateBody, type TemplateSpec } from './templates';

/** Numbers the fake treats as not on WhatsApp: the last four digits 0000 (accepted, then `failed` 131026 by webhook). */
export const notOnWhatsAppByDefault = (digits: string): boolean => digits.endsWith('0000');
/** The customer-service window: a free-form text needs a message from that number within it (else 131047). */
export const SERVICE_WINDOW_MS = 24 * 3600_000;
/** The business number the fake's webhooks name (display_phone_number) and its account id. */
export const FAKE_BUSINESS = { displayPhoneNumber: '60300000001', accountId: '100000000000000' } as const;

type Status = 'sent' | 'delivered' | 'read' | 'failed';
export type FakeOutbound = {
  direction: 'out';
  wamid: string;
  to: string;
  type: 'template' | 'text';
  template: string | null;
  language: string | null;
  locale: Locale | null;
  /** As the parent's phone shows it: the template body with its parameters, or the text. */
  text: string;
  buttons: { index: number; payload: string; text: string }[];
  at: string;
  statuses: { status: Status; timestamp: string; error?: { code: number; title: string } }[];
};
export type FakeInbound = { direction: 'in'; id: string; from: string; type: 'button' | 'text'; text: string; payload: string | null; contextId: string | null; at: string };

export type FakeWhatsAppOptions = {
  phoneNumberId: string;
  accessToken: string;
  /** The key the webhook posts are signed with (the API's app secret). */
  appSecret: () => Promise<string>;
  /** Posts one signed webhook body to the API; resolves with its HTTP status (a non-2xx is tried again, as Meta does). */
  postWebhook: (rawBody: string, signature: string) => Promise<number>;
  notOnWhatsApp?: (digits: string) => boolean;
  /** Knobs for tests: wait before each webhook, post each twice, post a message's statuses newest first. */
  delayMs?: number;
  duplicateWebhooks?: boolean;
  reorderWebhooks?: boolean;
  /** Templates paused by Meta (132015), by name. */
  pausedTemplates?: string[];
  now?: () => Date;
  log?: { warn: (obj: object, msg: string) => void };
};

type MetaError = { status: number; code: number; message: string; type?: string; details?: string; subcode?: number };
const fail = (status: number, code: number, message: string, details?: string, type = 'OAuthException'): MetaError => ({ status, code, message, details, type });
export const metaErrorBody = (e: MetaError) => ({
  error: {
    message: e.message,
    type: e.type ?? 'OAuthException',
    code: e.code,
    ...(e.subcode === undefined ? {} : { error_subcode: e.subcode }),
    ...(e.details === undefined ? {} : { error_data: { messaging_product: 'whatsapp', details: e.details } }),
    fbtrace_id: randomBytes(12).toString('base64url'),
  },
});

const wamid = () => `wamid.${randomBytes(30).toString('base64url')}`;
const seconds = (d: Date, plus = 0) => String(Math.floor(d.getTime() / 1000) + plus);
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A local stand-in for Meta's WhatsApp Cloud API (issue 38): it validates a send as the real one does (token, phone
 * number id, E.164 digits, an approved template in that language, its parameter count and button payloads, the 24 h
 * window for text) and answers the real shapes; then it posts the signed status webhooks (sent, delivered, read, or
 * failed 131026 / 131047) and, from its page, a parent's button presses and text replies. State lives in memory.
 */
export class FakeWhatsAppCloud {
  readonly outbound: FakeOutbound[] = [];
  readonly inbound: FakeInbound[] = [];
  private readonly lastInbound = new Map<string, number>();
  private readonly refusals: MetaError[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(readonly options: FakeWhatsAppOptions) {}

  private now = () => this.options.now?.() ?? new Date();

  /** The next `times` sends are refused with this answer (e.g. 429 / 130429) before any check. */
  refuseNext(times: number, status: number, code: number, message: string): void {
    for (let i = 0; i < times; i++) this.refusals.push(fail(status, code, message));
  }

  /** `POST /{version}/{phone-number-id}/messages`: the answer's status and body. */
  async receiveSend(authorization: string | undefined, phoneNumberId: string, body: unknown): Promise<{ status: number; body: Json }> {
    const result = this.validate(authorization, phoneNumberId, body);
    if ('status' in result) return { status: result.status, body: metaErrorBody(result) };
    const id = wamid();
    const message: FakeOutbound = { direction: 'out', wamid: id, at: this.now().toISOString(), statuses: [], ...result };
    this.outbound.push(message);
    this.scheduleStatuses(message);
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: (body as Json).to, wa_id: result.to }],
        messages: [{ id, ...(result.type === 'template' ? { message_status: 'accepted' } : {}) }],
      },
    };
  }

  private validate(authorization: string | undefined, phoneNumberId: string, body: unknown): MetaError | Omit<FakeOutbound, 'direction' | 'wamid' | 'at' | 'statuses'> {
    if (authorization !== `Bearer ${this.options.accessToken}`) return fail(401, 190, 'Invalid OAuth access token - Cannot parse access token');
    const refusal = this.refusals.shift();
    if (refusal) return refusal;
    if (phoneNumberId !== this.options.phoneNumberId)
      return { ...fail(400, 100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, undefined, 'GraphMethodException'), subcode: 33 };
    if (!isObject(body) || body.messaging_product !== 'whatsapp') return fail(400, 100, '(#100) The parameter messaging_product is required.');
    if (body.recipient_type !== undefined && body.recipient_type !== 'individual') return fail(400, 100, '(#100) Invalid parameter', 'recipient_type must be individual');
    if (typeof body.to !== 'string' || !/^[1-9]\d{7,14}$/.test(body.to.replace(/^\+/, '')))
      return fail(400, 100, '(#100) Invalid parameter', 'to must be a phone number in E.164 format');
    const to = body.to.replace(/^\+/, '');
    if (body.type === 'text') {
      const text = isObject(body.text) ? body.text.body : undefined;
      if (typeof text !== 'string' || !text.trim()) return fail(400, 100, '(#100) The parameter text[\'body\'] is required.');
      if (text.length > 4096) return fail(400, 100, '(#100) Param text[\'body\'] must be at most 4096 characters long.');
      return { to, type: 'text', template: null, language: null, locale: null, text, buttons: [] };
    }
    if (body.type !== 'template') return fail(400, 131051, 'Unsupported message type', `type ${String(body.type)} is not supported here`);
    const template = isObject(body.template) ? body.template : {};
    const name = typeof template.name === 'string' ? template.name : '';
    const language = isObject(template.language) && typeof template.language.code === 'string' ? template.language.code : '';
    const found = findTemplate(name, language);
    if (!found) return fail(404, 132001, 'Template name does not exist in the translation', `template name (${name}) does not exist in ${language}`);
    if (this.options.pausedTemplates?.includes(name)) return fail(400, 132015, 'Template is Paused', `template ${name} is paused because of low quality`);
    return this.checkComponents(to, found.spec, found.locale, language, Array.isArray(template.components) ? template.components : []);
  }

  private checkComponents(to: string, spec: TemplateSpec, locale: Locale, language: string, components: unknown[]): MetaError | Omit<FakeOutbound, 'direction' | 'wamid' | 'at' | 'statuses'> {
    const bodies = components.filter((c) => isObject(c) && c.type === 'body') as Json[];
    const parameters = (bodies[0]?.parameters ?? []) as unknown[];
    if (bodies.length > 1 || !Array.isArray(parameters) || parameters.length !== spec.params.length)
      return fail(400, 132000, 'Number of parameters does not match the expected number of params', `body: number of localizable_params (${Array.isArray(parameters) ? parameters.length : 0}) does not match the expected number of params (${spec.params.length})`);
    const values: string[] = [];
    for (const p of parameters) {
      if (!isObject(p) || p.type !== 'text' || typeof p.text !== 'string' || !p.text) return fail(400, 131008, 'Required parameter is missing', 'each body parameter needs type text and its text');
      if (/[\n\t]| {5,}/.test(p.text)) return fail(400, 132018, 'There was an issue with the parameters in your template.', 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces');
      values.push(p.text);
    }
    const buttons = components.filter((c) => isObject(c) && c.type === 'button') as Json[];
    if (buttons.length !== spec.buttons.length) return fail(400, 131009, 'Parameter value is not valid', `expected ${spec.buttons.length} quick-reply button components, got ${buttons.length}`);
    for (const c of buttons) {
      const index = Number(c.index);
      const payload = Array.isArray(c.parameters) && isObject(c.parameters[0]) && c.parameters[0].type === 'payload' ? c.parameters[0].payload : undefined;
      if (c.sub_type !== 'quick_reply' || !Number.isInteger(index) || !spec.buttons[index] || spec.buttons[index].payload !== payload)
        return fail(400, 131009, 'Parameter value is not valid', `button at index ${String(c.index)} does not match the template's quick replies`);
    }
    const unknown = components.filter((c) => !isObject(c) || (c.type !== 'body' && c.type !== 'button'));
    if (unknown.length) return fail(400, 132000, 'Number of parameters does not match the expected number of params', 'the template has no header or other components');
    return {
      to,
      type: 'template',
      template: spec.name,
      language,
      locale,
      text: renderTemplateBody(spec.body[locale], values),
      buttons: spec.buttons.map((b, index) => ({ index, payload: b.payload, text: b.text[locale] })),
    };
  }

  /** The statuses Meta would post for an accepted message, in order; a knob may reverse or repeat them. */
  private scheduleStatuses(message: FakeOutbound): void {
    const at = this.now();
    let statuses: FakeOutbound['statuses'];
    const lastIn = this.lastInbound.get(message.to);
    if ((this.options.notOnWhatsApp ?? notOnWhatsAppByDefault)(message.to))
      statuses = [{ status: 'failed', timestamp: seconds(at), error: { code: 131026, title: 'Message undeliverable' } }];
    else if (message.type === 'text' && (lastIn === undefined || at.getTime() - lastIn > SERVICE_WINDOW_MS))
      statuses = [{ status: 'failed', timestamp: seconds(at), error: { code: 131047, title: 'Re-engagement message' } }];
    else
      statuses = [
        { status: 'sent', timestamp: seconds(at) },
        { status: 'delivered', timestamp: seconds(at, 1) },
        { status: 'read', timestamp: seconds(at, 2) },
      ];
    message.statuses = statuses;
    const order = this.options.reorderWebhooks ? [...statuses].reverse() : statuses;
    for (const s of order) this.postValue({ statuses: [this.statusPayload(message, s)] });
  }

  private statusPayload(message: FakeOutbound, s: FakeOutbound['statuses'][number]): Json {
    return {
      id: message.wamid,
      status: s.status,
      timestamp: s.timestamp,
      recipient_id: message.to,
      ...(s.status === 'failed'
        ? { errors: [{ code: s.error!.code, title: s.error!.title, message: s.error!.title, error_data: { details: s.error!.code === 131026 ? 'Message Undeliverable.' : 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' } }] }
        : s.status === 'sent'
          ? { conversation: { id: randomBytes(16).toString('hex'), origin: { type: message.type === 'template' ? 'utility' : 'service' } }, pricing: { billable: true, pricing_model: 'CBP', category: message.type === 'template' ? 'utility' : 'service' } }
          : {}),
    };
  }

  /** A parent presses a quick-reply button of a template message: the inbound `button` message, signed, to the API. */
  pressButton(messageId: string, index: number): FakeInbound | null {
    const message = this.outbound.find((m) => m.wamid === messageId);
    const button = message?.buttons[index];
    if (!message || !button) return null;
    return this.receive(message.to, { type: 'button', text: button.text, payload: button.payload, contextId: message.wamid });
  }

  /** A parent sends a text (e.g. STOP) from `from` (digits, or E.164 with +). */
  sendText(from: string, text: string): FakeInbound {
    return this.receive(from.replace(/^\+/, ''), { type: 'text', text, payload: null, contextId: null });
  }

  private receive(from: string, what: Pick<FakeInbound, 'type' | 'text' | 'payload' | 'contextId'>): FakeInbound {
    const at = this.now();
    const inbound: FakeInbound = { direction: 'in', id: wamid(), from, at: at.toISOString(), ...what };
    this.inbound.push(inbound);
    this.lastInbound.set(from, at.getTime());
    this.postValue({
      contacts: [{ profile: { name: 'Parent' }, wa_id: from }],
      messages: [
        {
          ...(what.contextId ? { context: { from: FAKE_BUSINESS.displayPhoneNumber, id: what.contextId } } : {}),
          from,
          id: inbound.id,
          timestamp: seconds(at),
          type: what.type,
          ...(what.type === 'button' ? { button: { payload: what.payload, text: what.text } } : { text: { body: what.text } }),
        },
      ],
    });
    return inbound;
  }

  /** One webhook post in the platform's envelope, after the delay, twice with the duplicate knob, retried on failure. */
  private postValue(value: Json): void {
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: FAKE_BUSINESS.accountId,
          changes: [
            {
              field: 'messages',
              value: { messaging_product: 'whatsapp', metadata: { display_phone_number: FAKE_BUSINESS.displayPhoneNumber, phone_number_id: this.options.phoneNumberId }, ...value },
            },
          ],
        },
      ],
    });
    for (let copy = 0; copy < (this.options.duplicateWebhooks ? 2 : 1); copy++) this.track(this.deliver(raw));
  }

  private async deliver(raw: string): Promise<void> {
    const waits = [this.options.delayMs ?? 0, 1000, 5000];
    for (const wait of waits) {
      if (wait) await this.sleep(wait);
      if (this.closed) return;
      try {
        const status = await this.options.postWebhook(raw, signWebhookBody(await this.options.appSecret(), raw));
        if (status >= 200 && status < 300) return;
        this.options.log?.warn({ status }, 'fake whatsapp: webhook refused');
      } catch (err) {
        this.options.log?.warn({ err: (err as Error).message }, 'fake whatsapp: webhook not delivered');
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.timers.delete(timer), resolve()), ms);
      timer.unref();
      this.timers.add(timer);
    });
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Resolves when every webhook posted so far has been delivered (or given up): tests wait on it. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** What was sent to and received from a number (digits or +E.164), oldest first; all numbers without one. */
  conversation(to?: string): (FakeOutbound | FakeInbound)[] {
    const digits = to?.replace(/^\+/, '');
    return [...this.outbound.filter((m) => !digits || m.to === digits), ...this.inbound.filter((m) => !digits || m.from === digits)].sort((a, b) => a.at.localeCompare(b.at));
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** Webhooks over HTTP to the API's `/api/whatsapp/webhook` at `url` (a fake run apart from the API). */
export const postWebhookTo =
  (url: string) =>
  async (rawBody: string, signature: string): Promise<number> =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: rawBody, signal: AbortSignal.timeout(10_000) })).status;

/** Webhooks through the API's own router (fake mode inside the API: no address or port to know). */
export const postWebhookInto =
  (app: FastifyInstance) =>
  async (rawBody: string, signature: string): Promise<number> =>
    (await app.inject({ method: 'POST', url: '/api/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, payload: rawBody })).statusCode;

/** A `fetch` that reaches the fake's routes through the API's own router (fake mode: sends never leave the process). */
export const fetchInto =
  (app: FastifyInstance): typeof fetch =>
  async (input, init) => {
    const url = new URL(String(input));
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'POST',
      url: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      payload: typeof init?.body === 'string' ? init.body : undefined,
    });
    return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') } });
  };

const tags = ['fake whatsapp'];
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const metaError = z.object({ error: z.object({ message: z.string(), type: z.string(), code: z.number(), error_subcode: z.number().optional(), error_data: z.object({ messaging_product: z.string(), details: z.string() }).optional(), fbtrace_id: z.string() }) });
const sendAnswer = z.object({ messaging_product: z.literal('whatsapp'), contacts: z.array(z.object({ input: z.unknown(), wa_id: z.string() })), messages: z.array(z.object({ id: z.string(), message_status: z.string().optional() })) });
const redirect = { description: 'Back to the page (in Location; no body)', content: { 'text/plain': { schema: z.string().max(0) } } };
const wireDigits = z.string().trim().regex(/^\+?[1-9]\d{7,14}$/, 'a phone number in E.164');

const page = (cloud: FakeWhatsAppCloud, base: string, selected: string | undefined) => {
  const numbers = [...new Set([...cloud.outbound.map((m) => m.to), ...cloud.inbound.map((m) => m.from)])].sort();
  const list = (to: string) =>
    cloud
      .conversation(to)
      .map((m) =>
        m.direction === 'in'
          ? `<li class="in"><p>${h(m.text)}</p><small>Parent · ${h(m.at)}${m.payload ? ` · payload ${h(m.payload)}` : ''}</small></li>`
          : `<li class="out" lang="${h(m.locale ?? 'en')}"><p>${h(m.text).replace(/\n/g, '<br>')}</p>
<small>${h(m.template ? `${m.template} (${m.language})` : 'text')} · ${h(m.at)} · ${h(m.statuses.map((s) => s.status + (s.error ? ` ${s.error.code} ${s.error.title}` : '')).join(' → '))}</small>
${m.buttons
  .map(
    (b) => `<form method="post" action="${base}/press"><input type="hidden" name="wamid" value="${h(m.wamid)}"><input type="hidden" name="index" value="${b.index}"><button type="submit">${h(b.text)}</button></form>`,
  )
  .join('')}</li>`,
      )
      .join('\n');
  const shown = selected ? [selected.replace(/^\+/, '')] : numbers;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Fake WhatsApp</title>
<style>body{font-family:system-ui,sans-serif;background:#efeae2;margin:0}header{background:#075e54;color:#fff;padding:12px 16px}main{max-width:640px;margin:auto;padding:8px}
section{background:#fff;border-radius:8px;margin:12px 0;padding:8px 12px}ul{list-style:none;padding:0}li{margin:8px 0;padding:8px;border-radius:8px;max-width:85%}
li.out{background:#fff;border:1px solid #ddd}li.in{background:#d9fdd3;margin-left:auto}small{color:#667}form{display:inline}button{margin:4px 4px 0 0;min-height:36px}</style></head>
<body><header>Fake WhatsApp · local stand-in for Meta's Cloud API · numbers ending 0000 are not on WhatsApp</header><main>
${shown.length ? '' : '<p>No messages yet.</p>'}
${shown
  .map(
    (to) => `<section><h2><a href="${base}/?to=${encodeURIComponent(to)}">+${h(to)}</a></h2><ul>${list(to)}</ul>
<form method="post" action="${base}/reply"><input type="hidden" name="from" value="${h(to)}"><label>Reply as the parent <input name="text" maxlength="1000" required></label> <button type="submit">Send</button></form></section>`,
  )
  .join('\n')}
</main></body></html>`;
};

/**
 * The fake's routes (register with a prefix, e.g. `/fake-whatsapp`): the Cloud API's send, the page with its buttons
 * and reply box, and `messages.json` for tests.
 */
export const fakeWhatsAppRoutes =
  (cloud: FakeWhatsAppCloud): FastifyPluginAsyncZod =>
  async (app) => {
    const base = app.prefix;
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const html = (reply: { header: (k: string, v: string) => unknown; type: (t: string) => unknown }) => {
      reply.header('cache-control', 'no-store');
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
      reply.type('text/html; charset=utf-8');
    };

    app.post(
      '/:version/:phoneNumberId/messages',
      {
        schema: {
          tags,
          operationId: 'fakeWhatsAppSendMessage',
          security: publicRoute,
          summary: "The fake Cloud API's send (its own bearer token; Meta's answers and error shapes)",
          params: z.object({ version: z.string().regex(/^v\d+\.\d+$/), phoneNumberId: z.string().max(50) }),
          body: z.record(z.string(), z.unknown()),
          // 400 is Meta's refusal, or this API's own for an address or body no JSON object (the input guard, the schema).
          response: { ...errorResponses(), 200: sendAnswer, 400: metaError.or(errorEnvelope), 401: metaError, 404: metaError, 429: metaError },
        },
      },
      async (request, reply) => {
        const answer = await cloud.receiveSend(request.headers.authorization, request.params.phoneNumberId, request.body);
        // Throttled: when to ask again, as every 429 of this API says (the adapter's backoff does not depend on it).
        if (answer.status === 429) reply.header('retry-after', '1');
        return reply.code(answer.status).send(answer.body as z.infer<typeof sendAnswer>);
      },
    );

    app.get(
      '/',
      {
        schema: {
          tags,
          operationId: 'showFakeWhatsApp',
          security: publicRoute,
          summary: "The fake's page: messages per number, their quick-reply buttons, a reply box (HTML)",
          querystring: z.object({ to: wireDigits.optional() }),
          response: { 200: htmlPage('The page'), ...errorResponses() },
        },
      },
      async (request, reply) => {
        html(reply);
        return reply.send(page(cloud, base, request.query.to));
      },
    );

    app.get(
      '/messages.json',
      {
        schema: {
          tags,
          operationId: 'listFakeWhatsAppMessages',
          security: publicRoute,
          summary: 'What the fake received and was sent, oldest first (all numbers, or one)',
          querystring: z.object({ to: wireDigits.optional() }),
          response: { 200: z.object({ messages: z.array(z.record(z.string(), z.unknown())) }), ...errorResponses() },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return { messages: cloud.conversation(request.query.to) };
      },
    );

    app.post(
      '/press',
      {
        schema: {
          tags,
          operationId: 'pressFakeWhatsAppButton',
          security: publicRoute,
          summary: "The parent presses a template message's quick-reply button (the signed inbound webhook follows)",
          body: z.object({ wamid: z.string().min(1).max(200), index: z.coerce.number().int().min(0).max(9) }),
          response: { 303: redirect, 404: htmlPage('No such message or button'), ...errorResponses() },
        },
      },
      async (request, reply) => {
        const pressed = cloud.pressButton(request.body.wamid, request.body.index);
        if (!pressed) {
          html(reply);
          return reply.code(404).send('<!doctype html><title>Not found</title><p>No such message or button.</p>');
        }
        return reply.redirect(`${base}/?to=${encodeURIComponent(pressed.from)}`, 303);
      },
    );

    app.post(
      '/reply',
      {
        schema: {
          tags,
          operationId: 'sendFakeWhatsAppReply',
          security: publicRoute,
          summary: 'The parent sends a text (e.g. STOP) from a number (the signed inbound webhook follows)',
          body: z.object({ from: wireDigits, text: z.string().trim().min(1).max(1000) }),
          response: { 303: redirect, ...errorResponses() },
        },
      },
      async (request, reply) => {
        const sent = cloud.sendText(request.body.from, request.body.text);
        return reply.redirect(`${base}/?to=${encodeURIComponent(sent.from)}`, 303);
      },
    );
  };

/**
 * The fake on its own HTTP server (tests, a second process standing for Meta): its routes under `/fake-whatsapp` at
 * 127.0.0.1 on a free port; `url` is the adapter's base URL.
 */
export async function listenFakeWhatsApp(options: FakeWhatsAppOptions): Promise<{ cloud: FakeWhatsAppCloud; url: string; close: () => Promise<void> }> {
  const cloud = new FakeWhatsAppCloud(options);
  const server = Fastify({ logger: false });
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  await server.register(fakeWhatsAppRoutes(cloud), { prefix: '/fake-whatsapp' });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.server.address() as AddressInfo;
  return {
    cloud,
    url: `http://127.0.0.1:${port}/fake-whatsapp`,
    close: async () => {
      cloud.close();
      await server.close();
    },
  };
}
