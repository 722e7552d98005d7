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
import { installErrorHandling } from './plugins/error-handler';
import { healthRoutes } from './routes/health';
import { publicRoutes } from './routes/public';
import { authRoutes } from './routes/auth';
import { slotRoutes } from './routes/slots';
import { paymentServicesPlugin } from './payments/plugin';
import { paymentRoutes } from './routes/payments';
import { sandboxGatewayRoutes } from './routes/sandbox-gateway';

export type BuildAppOptions = {
  database: DatabaseHandle;
  config: Config;
  /** Pino options, or false for silence (tests). Defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
};

/** The whole API as encapsulated plugins, not listening: `main.ts` listens, tests use `app.inject`. */
export async function buildApp({ database, config, logger }: BuildAppOptions) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
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
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(databasePlugin, { database, config });
  await app.register(staffAuthPlugin);
  await app.register(paymentServicesPlugin);

  // Route groups: one plugin each (add a line here for a new group).
  await app.register(healthRoutes);
  await app.register(publicRoutes);
  await app.register(authRoutes);
  await app.register(slotRoutes);
  await app.register(paymentRoutes);
  await app.register(sandboxGatewayRoutes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
