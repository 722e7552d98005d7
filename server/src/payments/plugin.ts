import path from 'node:path';
import fp from 'fastify-plugin';
import { createGateway } from './gateways';
import { MailQueue } from '../mail';
import { emlFileSender, smtpSender } from '../mail';
import { Reconciler } from './reconciler';
import { PaymentService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentService;
    /** Sends the mail outbox through the `mail` queue; its worker starts with the app, `app.close()` stops it. */
    mailQueue: MailQueue;
    /** Finishes payments whose callback never came (the `reconcile` queue); `main.ts` starts it, `app.close()` stops it. */
    reconciler: Reconciler;
  }
}

/** The gateway chosen by configuration, the payment service, the mail queue and the reconciler, shared with every route. */
export const paymentServicesPlugin = fp(
  async (app) => {
    const config = app.config.payments;
    const gateway = createGateway(config, app.db, app.log);
    const sender = config.smtpUrl ? smtpSender(config.smtpUrl) : emlFileSender(path.join(config.dataDir, 'mail'));
    const mailQueue = new MailQueue({
      db: app.db,
      jobs: app.jobs,
      sender,
      from: config.mailFrom,
      retrySeconds: config.mailRetrySeconds,
      giveUpHours: config.mailGiveUpHours,
      pollSeconds: Math.max(0.5, config.mailPollMs / 1000),
      log: app.log,
    });
    // A booking's mail and WhatsApp message are written together; both outboxes are woken after the commit.
    const service = new PaymentService(app.db, gateway, config, app.log, app.jobs, () => (mailQueue.wake(), app.whatsapp.wake()));
    const reconciler = new Reconciler(service, config.reconcileIntervalMs, app.log).attach(app.jobs);
    app.decorate('payments', service);
    app.decorate('mailQueue', mailQueue);
    app.decorate('reconciler', reconciler);
    // Mail and refunds leave as soon as the app is up (every process works both queues): unsent mail is queued first.
    app.addHook('onReady', async () => {
      await app.jobs.work(['mail', 'refund', 'child-refund']);
      await mailQueue.enqueuePending();
    });
    app.addHook('onClose', async () => {
      await reconciler.stop();
      await app.jobs.stop();
      gateway.close?.();
      sender.close();
    });
  },
  { name: 'payment-services', dependencies: ['database', 'jobs'] },
);
