import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorCode } from 'shared-api/contract';
import type { Db } from '../base/db/connection';
import { AppError, ok } from '../base/errors';
import { envelope } from 'shared-api/contract';
import { z } from 'zod';
import { errorResponses, publicRoute } from '../base/routes';
import { recordStatus } from './statuses';
import { whatsappReplies, type WhatsAppReplyRow } from './tables';
import { eq } from 'drizzle-orm';
import { sameSecret, signatureMatches } from './signature';

/** The largest webhook post taken (the platform's are a few KB); larger → 413. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

export type ReplyHandler = (reply: WhatsAppReplyRow) => Promise<void>;

export type WebhookOptions = {
  db: Db;
  appSecret: () => Promise<string>;
  verifyToken: string;
  replyHandlers: ReplyHandler[];
};

type StatusPayload = {
  id: string;
  status: string;
  timestamp: string;
  recipient_id?: string;
  errors?: unknown;
};
type MessagePayload = {
  id: string;
  from: string;
  timestamp?: string;
  type?: string;
  context?: { id?: string };
  text?: { body?: string };
  button?: { payload?: string; text?: string };
  interactive?: { button_reply?: { id?: string; title?: string } };
};
type WebhookPayload = {
  object?: string;
  entry?: {
    changes?: { field?: string; value?: { statuses?: StatusPayload[]; messages?: MessagePayload[] } }[];
  }[];
};

const tags = ['whatsapp'];
// The platform's own parameter names; any other query parameter is refused like on every route.
const verifyQuerySchema = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});
const webhookAnswerSchema = z.object({
  received: z.boolean(),
  statuses: z.number().int(),
  replies: z.number().int(),
});

/**
 * The Cloud API's webhook: `GET` is the subscription handshake (hub.challenge back when hub.verify_token matches),
 * `POST` carries statuses and replies, signed with the app secret (X-Hub-Signature-256 over the raw body). An unsigned
 * or wrongly signed post is 401 and changes nothing; a signed one is always 200 (the platform retries otherwise).
 */
export const whatsappWebhookRoutes =
  (options: WebhookOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    app.get(
      '/api/whatsapp/webhook',
      {
        schema: {
          tags,
          operationId: 'verifyWhatsAppWebhook',
          security: publicRoute,
          summary:
            "The Cloud API's subscription handshake: hub.challenge back when hub.verify_token matches (403 otherwise)",
          querystring: verifyQuerySchema,
          response: { 200: z.string(), ...errorResponses(403) },
        },
      },
      async (request, reply) => {
        const query = request.query;
        const token = query['hub.verify_token'];
        if (
          query['hub.mode'] !== 'subscribe' ||
          typeof token !== 'string' ||
          !sameSecret(token, options.verifyToken)
        )
          throw new AppError(403, ErrorCode.FORBIDDEN, 'Verification refused');
        return reply.type('text/plain; charset=utf-8').send(String(query['hub.challenge'] ?? ''));
      },
    );

    app.post(
      '/api/whatsapp/webhook',
      {
        schema: {
          tags,
          operationId: 'receiveWhatsAppWebhook',
          security: publicRoute,
          summary:
            'Signed Cloud API notification: message statuses and replies (raw body; bad or missing X-Hub-Signature-256 → 401, repeats recorded once)',
          response: { 200: envelope(webhookAnswerSchema), ...errorResponses(401) },
        },
      },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!signatureMatches(await options.appSecret(), raw, request.headers['x-hub-signature-256']))
          throw new AppError(401, ErrorCode.UNAUTHORIZED, 'Bad or missing signature');
        let payload: WebhookPayload;
        try {
          payload = JSON.parse(raw.toString('utf8')) as WebhookPayload;
        } catch {
          request.log.warn('whatsapp: a signed webhook post that is not JSON');
          return reply.send(ok({ received: true, statuses: 0, replies: 0 }, 'Not JSON: nothing recorded'));
        }
        let statuses = 0;
        let replies = 0;
        for (const entry of payload.entry ?? [])
          for (const change of entry.changes ?? []) {
            for (const status of change.value?.statuses ?? [])
              if (await recordStatus(options.db, status)) statuses++;
            for (const message of change.value?.messages ?? [])
              if (await recordReply(options, message, request.log)) replies++;
          }
        return reply.send(ok({ received: true, statuses, replies }, 'Webhook received'));
      },
    );
  };

/** A parent's reply: stored once by its message id, then handed to the registered handlers (part 3's actions). */
async function recordReply(
  options: WebhookOptions,
  message: MessagePayload,
  log: { warn: (obj: object, msg: string) => void },
): Promise<boolean> {
  if (!message.id || !message.from) return false;
  const payload = message.button?.payload ?? message.interactive?.button_reply?.id ?? null;
  const text = message.text?.body ?? message.button?.text ?? message.interactive?.button_reply?.title ?? null;
  const [row] = await options.db
    .insert(whatsappReplies)
    .values({
      messageId: message.id,
      fromE164: message.from.startsWith('+') ? message.from : `+${message.from}`,
      payload,
      text: text === null ? null : text.slice(0, 4096),
      contextWamid: message.context?.id ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return false;
  try {
    for (const handler of options.replyHandlers) await handler(row);
    await options.db.update(whatsappReplies).set({ handled: true }).where(eq(whatsappReplies.id, row.id));
  } catch (err) {
    log.warn({ err: (err as Error).message, replyId: row.id }, 'whatsapp: a reply handler failed');
  }
  return true;
}
