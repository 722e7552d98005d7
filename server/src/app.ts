import { BlockList, isIPv6 } from 'node:net';
import Fastify, { type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { brand } from 'shared-api/contract';
import type { Config } from './config';
import type { DatabaseHandle } from './db/connection';
import { databasePlugin } from './plugins/database';
import { staffAuthPlugin } from './plugins/staff-auth';
import { frameworkErrors, installErrorHandling } from './plugins/error-handler';
import { inputGuardPlugin } from './plugins/input-guard';
import { DOCS_CSP, securityHeadersPlugin } from './plugins/security-headers';
import { loggerOptions } from './logging';
import { healthRoutes, readinessPlugin } from './routes/health';
import { publicRoutes } from './routes/public';
import { authRoutes } from './routes/auth';
import { slotRoutes } from './routes/slots';
import { paymentServicesPlugin } from './payments/plugin';
import { metricsPlugin } from './metrics/plugin';
import { paymentRoutes } from './routes/payments';
import { sandboxGatewayRoutes } from './routes/sandbox-gateway';
import { staffAlertRoutes } from './routes/staff-alerts';
import { bookingsPlugin } from './bookings/plugin';
import { manageRoutes } from './routes/manage';
import { staffBookingRoutes } from './routes/staff-bookings';
import { accountRoutes } from './routes/accounts';
import { staffAuditRoutes } from './routes/staff-audit';
import { slotPlanningRoutes } from './routes/slot-planning';
import { calendarFeedRoutes } from './routes/calendar-feed';

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
    allowedHeaders: ['Content-Type', 'Authorization'],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${brand.productName} booking API`, version: '1.0.0', description: 'Every answer is {success, data, message, error?}.' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });

  await app.register(databasePlugin, { database, config });
  await app.register(staffAuthPlugin);
  await app.register(paymentServicesPlugin);
  await app.register(bookingsPlugin);
  await app.register(metricsPlugin);
  await app.register(readinessPlugin);

  // Route groups: one plugin each (add a line here for a new group).
  await app.register(healthRoutes);
  await app.register(publicRoutes);
  await app.register(authRoutes);
  await app.register(slotRoutes);
  await app.register(paymentRoutes);
  await app.register(sandboxGatewayRoutes);
  await app.register(staffAlertRoutes);
  await app.register(manageRoutes);
  await app.register(staffBookingRoutes);
  await app.register(accountRoutes);
  await app.register(staffAuditRoutes);
  await app.register(slotPlanningRoutes);
  await app.register(calendarFeedRoutes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
