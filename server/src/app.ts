import { BlockList, isIPv6 } from 'node:net';
import Fastify, { type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { brand, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import type { Config } from './config';
import type { DatabaseHandle } from './base/db/connection';
import { databasePlugin } from './database-plugin';
import { staffAuthPlugin } from './auth';
import { frameworkErrors, installErrorHandling } from './base/plugins/error-handler';
import { inputGuardPlugin } from './base/plugins/input-guard';
import { DOCS_CSP, securityHeadersPlugin } from './base/plugins/security-headers';
import { retryAfterPlugin } from './base/plugins/retry-after';
import { loggerOptions } from './base/logging';
import { healthRoutes, readinessPlugin } from './ops';
import { publicRoutes } from './slots';
import { authRoutes } from './auth';
import { slotRoutes } from './slots';
import { holdRoutes } from './checkout';
import { slotBookingRoutes } from './payments';
import { jobsPlugin } from './base/jobs/plugin';
import { paymentServicesPlugin } from './payments';
import { metricsPlugin } from './ops';
import { passwordsPlugin } from './auth';
import { paymentRoutes } from './payments';
import { sandboxGatewayRoutes } from './payments';
import { staffAlertRoutes } from './ops';
import { bookingsPlugin } from './manage';
import { manageRoutes } from './manage';
import { staffBookingRoutes } from './manage';
import { accountRoutes, secondFactorRoutes } from './auth';
import { staffAuditRoutes } from './audit';
import { slotPlanningRoutes } from './slots';
import { calendarFeedRoutes } from './calendar';
import { staffPrivacyRoutes } from './privacy';
import { privacyRequestRoutes } from './privacy';
import { waitlistPlugin } from './waitlist';
import { staffWaitlistRoutes, waitlistRoutes } from './waitlist';
import { privacyCorrectionRoutes } from './privacy';
import { breachRoutes } from './privacy';
import { whatsappRepliesPlugin } from './whatsapp-replies';
import { FAKE_WHATSAPP_PREFIX, fakeWhatsAppRoutes, whatsappPlugin } from './whatsapp';
import { insightsRoutes } from './insights';
import { visitDayPlugin, visitDayRoutes } from './visit-day';
import { documentRoutes, documentsPlugin } from './documents';

export type BuildAppOptions = {
  database: DatabaseHandle;
  config: Config;
  /** Pino options, or false for silence (tests). Defaults to JSON logs at config.logLevel, redacted (logging.ts). */
  logger?: FastifyServerOptions['logger'];
};

/** Loopback, private (RFC 1918, unique local) and link-local networks: where a load balancer talks to the API from. */
const PRIVATE_NETWORKS = new BlockList();
for (const [network, prefix] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16]] as const)
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv6');

/**
 * Fastify's trustProxy for TRUST_PROXY. Fastify ignores a bare hop count (a client reaching the API directly could
 * spoof X-Forwarded-For), so a count trusts that many hops, each from a private-network address.
 */
export function fastifyTrustProxy(setting: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof setting !== 'number') return setting;
  return (address, hop) => hop < setting && PRIVATE_NETWORKS.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

/** The whole API as encapsulated plugins, not listening: `main.ts` listens, tests use `app.inject`. */
export async function buildApp({ database, config, logger }: BuildAppOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // A request (headers and body) must arrive within requestTimeoutMs, its headers within 10 s, and a socket
    // idle that long is closed: a body trickled one byte at a time cannot hold a connection open.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(10_000, config.requestTimeoutMs),
      // Node checks these timeouts on this interval (30 s by default), so it bounds how late they fire.
      connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await app.register(securityHeadersPlugin);
  await app.register(retryAfterPlugin);
  await app.register(inputGuardPlugin);
  // Staff routes check the token before the body is read (onRequest); an empty JSON body counts as no body.
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, null);
    return defaultJsonParser(request, body as string, done);
  });

  await app.register(cors, {
    origin: config.corsOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', PAYMENT_KEY_HEADER],
    // Only the login reads a cookie (the known-device cookie, auth/known-device.ts); every session is a bearer token.
    credentials: true,
    maxAge: 600,
  });
  // JSON and text answers over ~1 KB in br or gzip (Vary: Accept-Encoding); never an event stream nor a file download
  // (images, PDFs: their types are neither here nor compressible in mime-db); request bodies are never inflated.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: (type: string) => /^application\/json(;|$)|^text\/(?!event-stream)/i.test(type),
    globalDecompression: false,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${brand.productName} booking API`, version: '1.0.0', description: 'Every answer is {success, data, message, error?}; a refusal also names its rule and values in reason {rule, params?, field?}.' },
      servers: [{ url: config.payments.apiPublicUrl, description: 'This API (API_PUBLIC_URL)' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });

  await app.register(databasePlugin, { database, config });
  await app.register(staffAuthPlugin);
  await app.register(jobsPlugin);
  await app.register(paymentServicesPlugin);
  await app.register(bookingsPlugin);
  await app.register(documentsPlugin);
  await app.register(visitDayPlugin);
  await app.register(metricsPlugin);
  await app.register(waitlistPlugin);
  await app.register(whatsappPlugin);
  await app.register(whatsappRepliesPlugin);
  await app.register(passwordsPlugin);
  await app.register(readinessPlugin);

  // Route groups: one plugin each (add a line here for a new group).
  await app.register(healthRoutes);
  await app.register(publicRoutes);
  await app.register(authRoutes);
  await app.register(slotRoutes);
  await app.register(holdRoutes);
  await app.register(slotBookingRoutes);
  await app.register(paymentRoutes);
  await app.register(sandboxGatewayRoutes);
  if (app.whatsapp.fake) await app.register(fakeWhatsAppRoutes(app.whatsapp.fake), { prefix: FAKE_WHATSAPP_PREFIX });
  await app.register(staffAlertRoutes);
  await app.register(manageRoutes);
  await app.register(staffBookingRoutes);
  await app.register(documentRoutes);
  await app.register(visitDayRoutes);
  await app.register(accountRoutes);
  await app.register(secondFactorRoutes);
  await app.register(staffAuditRoutes);
  await app.register(slotPlanningRoutes);
  await app.register(calendarFeedRoutes);
  await app.register(staffPrivacyRoutes);
  await app.register(privacyRequestRoutes);
  await app.register(waitlistRoutes);
  await app.register(staffWaitlistRoutes);
  await app.register(privacyCorrectionRoutes);
  await app.register(breachRoutes);
  await app.register(insightsRoutes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
