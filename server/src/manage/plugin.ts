import fp from 'fastify-plugin';
import { BookingManager } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Paid bookings after the payment: the parent's manage link and the staff's list, history and cancel. */
    bookings: BookingManager;
  }
}

/** The booking manager, sharing the payment service's refunds and the mail worker. */
export const bookingsPlugin = fp(
  async (app) => {
    app.decorate(
      'bookings',
      new BookingManager({
        db: app.db,
        config: app.config.payments,
        refund: (p, waitMs) => app.payments.refunds.requestAndWait(p, waitMs),
        refundChild: (p, position, waitMs) => app.payments.refunds.requestChildAndWait(p, position, waitMs),
        onMailQueued: () => app.mailQueue.wake(),
        log: app.log,
      }),
    );
  },
  { name: 'bookings', dependencies: ['database', 'payment-services'] },
);
