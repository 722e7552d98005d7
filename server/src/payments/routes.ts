import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  brand,
  DEFAULT_PAYMENT_METHOD,
  envelope,
  ErrorCode,
  initiateBodySchema,
  paymentHealthSchema,
  paymentMethodsQuerySchema,
  paymentMethodsSchema,
  paymentSessionSchema,
  paymentStatusResultSchema,
  PAYMENT_METHODS,
  pricingSchema,
  verifyPaymentBodySchema,
} from 'shared-api/contract';
import { AppError, ok } from '../base/errors';
import { paymentKeyHeaders } from './key';
import { PaymentText } from '../mail';
import { errorResponses, publicRoute } from '../base/routes';
import { holdLimitedAnswer } from '../checkout';

const METHOD_NAMES: Record<(typeof PAYMENT_METHODS)[number], string> = {
  fpx: 'FPX Online Banking',
  card: 'Credit / Debit Card',
  ewallet: 'E-wallet',
  duitnow_qr: 'DuitNow QR',
};

const idParam = z.object({ id: z.string().min(1).max(100) });
const referenceParam = z.object({ reference: z.string().min(1).max(100) });
const statusResult = envelope(paymentStatusResultSchema);
const tags = ['payments'];
/** Spec section 7 payment routes (the gateway callback lives in its own raw-body plugin below). */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/payment/initiate',
    {
      schema: {
        tags,
        operationId: 'initiatePayment',
        security: publicRoute,
        summary: "Hold the slot (or use the caller's own hold), create the payment and the gateway checkout session; the fee, date and start time are the server's (sent ones are accepted, not used) and answered; the answer's holdToken is the payment's key",
        body: initiateBodySchema,
        response: { 200: envelope(z.object({ paymentSession: paymentSessionSchema })), 429: holdLimitedAnswer, ...errorResponses(404, 409, 502) },
      },
    },
    async (request) => {
      const paymentSession = await app.payments.initiate({ ...request.body, clientAddress: request.ip });
      return ok({ paymentSession }, 'Payment session created');
    },
  );

  app.get(
    '/api/payment/status/:id',
    {
      schema: {
        tags,
        operationId: 'getPaymentStatus',
        security: publicRoute,
        summary: 'Payment and booking state by payment id (asks the gateway while pending); payment id, visitor and mails only with the payment\'s key',
        params: idParam,
        headers: paymentKeyHeaders,
        response: { 200: statusResult, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { result, message } = await app.payments.status(request.params.id, 'either', request.headers['x-payment-key']);
      return ok(result, message);
    },
  );

  app.get(
    '/api/payment/status/reference/:reference',
    {
      schema: {
        tags,
        operationId: 'getPaymentStatusByReference',
        security: publicRoute,
        summary: 'Payment and booking state by payment reference (asks the gateway while pending); payment id, visitor and mails only with the payment\'s key',
        params: referenceParam,
        headers: paymentKeyHeaders,
        response: { 200: statusResult, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { result, message } = await app.payments.status(request.params.reference, 'reference', request.headers['x-payment-key']);
      return ok(result, message);
    },
  );

  app.post(
    '/api/payment/verify',
    {
      schema: {
        tags,
        operationId: 'verifyPayment',
        security: publicRoute,
        summary: 'Check a payment (reconciling with the gateway) and its booking; payment id, visitor and mails only with the payment\'s key',
        headers: paymentKeyHeaders,
        body: verifyPaymentBodySchema,
        response: { 200: statusResult, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { paymentId, bookingId } = request.body;
      const { result, message } = await app.payments.verify(paymentId, bookingId, request.headers['x-payment-key']);
      return ok(result, message);
    },
  );

  app.post(
    '/api/payment/:id/cancel',
    {
      schema: {
        tags,
        // The payment id is in the gateway's failure URL and the reference on every receipt: only the key shows who asks.
        operationId: 'cancelPayment',
        security: publicRoute,
        summary: 'Cancel an unpaid payment and release its hold (by payment id, with the payment\'s key; without it 403 and nothing changes)',
        params: idParam,
        headers: paymentKeyHeaders,
        response: { 200: statusResult, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const payment = await app.payments.cancel(request.params.id, request.headers['x-payment-key']);
      const { result, message } = await app.payments.present(payment, true);
      return ok(result, message);
    },
  );

  app.get(
    '/api/payment/methods',
    { schema: { tags, operationId: 'listPaymentMethods', security: publicRoute, summary: 'Payment methods (fpx is the default)', querystring: paymentMethodsQuerySchema, response: { 200: envelope(paymentMethodsSchema), ...errorResponses() } } },
    async (request) => {
      if (request.query.currency.toUpperCase() !== 'MYR') throw new AppError(400, ErrorCode.VALIDATION_ERROR, PaymentText.unknownCurrency);
      return ok({
        currency: 'MYR' as const,
        methods: PAYMENT_METHODS.map((id) => ({ id, name: METHOD_NAMES[id], default: id === DEFAULT_PAYMENT_METHOD })),
      });
    },
  );

  const pricingOf = (schools: typeof brand.schools) => ({ pricing: schools.map((s) => ({ schoolName: s.name, totalFee: s.feeSen })) });

  app.get(
    '/api/payment/pricing',
    { schema: { tags, operationId: 'listPricing', security: publicRoute, summary: 'Fee per school in sen (from brand.config.json)', response: { 200: envelope(pricingSchema), ...errorResponses() } } },
    async () => ok(pricingOf(brand.schools), 'Pricing'),
  );

  app.get(
    '/api/payment/pricing/:school',
    {
      schema: { tags, operationId: 'getSchoolPricing', security: publicRoute, summary: 'Fee of one school in sen', params: z.object({ school: z.string().min(1).max(200) }), response: { 200: envelope(pricingSchema), ...errorResponses(404) } },
    },
    async (request) => {
      const wanted = request.params.school.trim().toLowerCase();
      const school = brand.schools.find((s) => s.name.toLowerCase() === wanted);
      if (!school) throw new AppError(404, ErrorCode.NOT_FOUND, `No price for "${request.params.school}".`);
      return ok(pricingOf([school]), 'Pricing');
    },
  );

  app.get(
    '/api/payment/health',
    { schema: { tags, operationId: 'getPaymentHealth', security: publicRoute, summary: 'Healthy only when the payment gateway answers', response: { 200: envelope(paymentHealthSchema), 503: envelope(paymentHealthSchema), ...errorResponses() } } },
    async (_request, reply) => {
      const gateway = app.payments.gateway.name;
      const healthy = await Promise.race([
        app.payments.gateway.ping().catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
      ]);
      if (healthy) return ok({ status: 'healthy' as const, gateway, message: 'Payment service is healthy' });
      reply.code(503);
      return { success: false, data: { status: 'unhealthy' as const, gateway, message: 'Payment service is not healthy' }, message: 'Payment service is not healthy', error: ErrorCode.GATEWAY_ERROR };
    },
  );

  await app.register(paymentCallbackRoute);
};

/** The gateway's callback and webhook: their own scope so the body stays raw bytes (the signature covers exactly those). */
const paymentCallbackRoute: FastifyPluginAsyncZod = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
  app.post(
    '/api/payment/callback',
    {
      schema: {
        tags,
        operationId: 'receivePaymentCallback',
        security: publicRoute,
        summary: 'Signed gateway notification (raw body; bad or stale signature → 401, replay acknowledged and ignored)',
        response: { 200: envelope(z.object({ received: z.boolean(), applied: z.boolean(), duplicate: z.boolean() })), ...errorResponses(401) },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await app.payments.handleCallback(raw, request.headers);
      return ok(outcome, outcome.duplicate ? 'Event already processed' : 'Event received');
    },
  );

  app.post(
    '/api/payment/webhook',
    {
      schema: {
        tags,
        operationId: 'receivePaymentWebhook',
        security: publicRoute,
        summary: "A delivery to the gateway's webhook (CHIP: signed with the webhook's own key; raw body; bad signature → 401, replay or unused event type acknowledged and ignored; 404 for a gateway without webhooks)",
        response: { 200: envelope(z.object({ received: z.boolean(), applied: z.boolean(), duplicate: z.boolean() })), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await app.payments.handleWebhook(raw, request.headers);
      return ok(outcome, outcome.duplicate ? 'Event already processed' : outcome.applied ? 'Event received' : 'Event acknowledged');
    },
  );
};
