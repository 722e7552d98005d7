import fp from 'fastify-plugin';
import { lazySecret, sharedSecret } from '../base/secrets';
import { FAKE_WHATSAPP_PREFIX, WHATSAPP_SECRET_NAME } from './config';
import { createWhatsAppApi } from './cloud/api';
import { FakeWhatsAppCloud, fetchInto, postWebhookInto } from './cloud/fake';
import { useQuietHours, type WhatsAppApi } from './outbox';
import { WhatsAppQueue } from './send-job';
import { whatsappWebhookRoutes, type ReplyHandler } from './webhook-routes';

export type WhatsAppService = {
  /** Null when WHATSAPP_API=off. */
  queue: WhatsAppQueue | null;
  /** After a commit that wrote WhatsApp messages: queue their jobs now. */
  wake(): void;
  /** A handler for each new reply (stored once by its message id), e.g. part 3's booking actions. */
  onReply(handler: ReplyHandler): void;
  /** The key the webhook's posts are signed with (WHATSAPP_APP_SECRET, or one random key shared in app_secrets). */
  appSecret(): Promise<string>;
  /** WHATSAPP_API=fake: the local stand-in for Meta, served at /fake-whatsapp (app.ts registers its routes); else null. */
  fake: FakeWhatsAppCloud | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    whatsapp: WhatsAppService;
  }
}

export type WhatsAppPluginOptions = { api?: WhatsAppApi };

/** The WhatsApp outbox's queue, its relay each minute, and the webhook routes (issue 38; server/src/whatsapp/README.md). */
export const whatsappPlugin = fp<WhatsAppPluginOptions>(
  async (app, options) => {
    const config = app.config.whatsapp;
    useQuietHours(config.quietHours);
    const appSecret = lazySecret(() => sharedSecret(app.db, WHATSAPP_SECRET_NAME, config.appSecret));
    // Fake mode: the fake lives in this process and both ways go through its router, so no address or port is needed.
    const fake =
      config.api === 'fake'
        ? new FakeWhatsAppCloud({ phoneNumberId: config.phoneNumberId, accessToken: config.accessToken, appSecret, postWebhook: postWebhookInto(app), log: app.log })
        : null;
    const api =
      options.api ??
      createWhatsAppApi({
        baseUrl: fake ? `http://localhost${FAKE_WHATSAPP_PREFIX}` : config.api,
        graphVersion: config.graphVersion,
        phoneNumberId: config.phoneNumberId,
        accessToken: config.accessToken,
        ...(fake ? { fetch: fetchInto(app) } : {}),
      });
    // WHATSAPP_API=off: messages are written (the outbox keeps them) but no process sends them.
    const queue =
      config.api === 'off'
        ? null
        : new WhatsAppQueue({ db: app.db, jobs: app.jobs, api, retrySeconds: config.retrySeconds, giveUpHours: config.giveUpHours, log: app.log });
    const replyHandlers: ReplyHandler[] = [];
    const service: WhatsAppService = {
      queue,
      wake: () => queue?.wake(),
      onReply: (handler) => replyHandlers.push(handler),
      appSecret,
      fake,
    };
    app.decorate('whatsapp', service);
    if (fake) app.addHook('onClose', async () => fake.close());
    await app.register(whatsappWebhookRoutes({ db: app.db, appSecret, verifyToken: config.verifyToken, replyHandlers }));
    // Messages leave as soon as the app is up (every process works the queue); main.ts runs the relay each minute.
    if (queue)
      app.addHook('onReady', async () => {
        await app.jobs.work(['whatsapp', 'whatsapp-relay']);
        await queue.enqueuePending();
      });
  },
  { name: 'whatsapp', dependencies: ['database', 'jobs'] },
);
