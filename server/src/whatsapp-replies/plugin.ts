import fp from 'fastify-plugin';
import { handleReply } from './replies';

/** A parent's WhatsApp replies acting on their booking or waitlist offer (issue 38; replies.ts says what each may do). */
export const whatsappRepliesPlugin = fp(
  async (app) => {
    app.whatsapp.onReply(async (reply) => {
      await handleReply({ db: app.db, publicSiteUrl: app.config.payments.publicSiteUrl, passOffer: (id) => app.waitlist.service.passOffer(id) }, reply);
      app.whatsapp.wake();
    });
  },
  { name: 'whatsapp-replies', dependencies: ['whatsapp', 'waitlist'] },
);
