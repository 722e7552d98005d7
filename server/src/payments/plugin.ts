import path from 'node:path';
import fp from 'fastify-plugin';
import { createGateway } from '../gateways';
import { MailWorker } from '../mail/worker';
import { emlFileSender, smtpSender } from '../mail/transport';
import { Reconciler } from './reconciler';
import { PaymentService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentService;
    /** Sends the mail outbox; `main.ts` starts it, `app.close()` stops it. */
    mailWorker: MailWorker;
    /** Finishes payments whose callback never came; `main.ts` starts it, `app.close()` stops it. */
    reconciler: Reconciler;
  }
}

/** The gateway chosen by configuration, the payment service, the mail worker and the reconciler, shared with every route. */
export const paymentServicesPlugin = fp(
  async (app) => {
    const config = app.config.payments;
    const gateway = createGateway(config, app.db, app.log);
    const sender = config.smtpUrl ? smtpSender(config.smtpUrl) : emlFileSender(path.join(config.dataDir, 'mail'));
    const mailWorker = new MailWorker({
      db: app.db,
      sender,
      from: config.mailFrom,
      pollMs: config.mailPollMs,
      giveUpAfterMs: config.mailGiveUpHours * 3_600_000,
      log: app.log,
    });
    const service = new PaymentService(app.db, gateway, config, app.log, () => mailWorker.wake());
    const reconciler = new Reconciler(service, config.reconcileIntervalMs, app.log);
    app.decorate('payments', service);
    app.decorate('mailWorker', mailWorker);
    app.decorate('reconciler', reconciler);
    app.addHook('onClose', async () => {
      await reconciler.stop();
      await mailWorker.stop();
      gateway.close?.();
      sender.close();
    });
  },
  { name: 'payment-services', dependencies: ['database'] },
);
