import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, healthSchema, readinessSchema, type Health, type Readiness } from 'shared-api/contract';
import { pingDatabase } from '../base/db/connection';
import { queueStats } from '../base/jobs/stats';
import { mailBacklog } from './stuck-mail';
import { errorResponses, publicRoute } from '../base/routes';

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', '57P01', '57P03']);

/** database_unreachable when no connection can be made; database_error when it answers with an error. */
export function classifyDatabaseError(err: unknown): 'database_unreachable' | 'database_error' {
  // Drizzle wraps driver errors ("Failed query: ...") with the driver's error as the cause.
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (code && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return 'database_unreachable';
  if (/closed|closing|terminat|timeout|did not answer|connect/i.test(`${e?.message ?? ''} ${e?.cause?.message ?? ''}`)) return 'database_unreachable';
  return 'database_error';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What /health/ready reports besides the database: main.ts sets these while migrating and while stopping. */
    readiness: { migrating: boolean; stopping: boolean };
  }
}

/** How long the readiness check waits for the database before saying it is unreachable. */
const READY_PING_MS = 1000;

/** The readiness flags, shared with main.ts (registered before the routes). */
export const readinessPlugin = fp(
  async (app) => {
    app.decorate('readiness', { migrating: false, stopping: false });
  },
  { name: 'readiness' },
);

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        security: publicRoute,
        summary: 'Whether a load balancer should send traffic here: 503 while migrating, stopping, or without the database',
        response: { 200: envelope(readinessSchema), 503: envelope(readinessSchema), ...errorResponses() },
      },
    },
    async (_request, reply) => {
      const { migrating, stopping } = app.readiness;
      const reason: Readiness['reason'] = migrating
        ? 'migrating'
        : stopping
          ? 'stopping'
          : await pingDatabase(app.db, READY_PING_MS).then(() => undefined, () => 'database_unreachable' as const);
      reply.header('cache-control', 'no-store');
      if (reason) return reply.code(503).send({ success: false, data: { ready: false, reason }, message: `Not ready: ${reason}` });
      return { success: true, data: { ready: true }, message: 'Ready' };
    },
  );
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        security: publicRoute,
        summary: 'API and database state, how much mail is unsent for over an hour, and background jobs that failed for good',
        response: { 200: envelope(healthSchema), ...errorResponses() },
      },
    },
    async (request, reply) => {
      // An API that answers is healthy (errorType null); the browser names what it meets instead (404, 5xx, 401, no answer).
      const driver = app.database.driver;
      let health: Health;
      try {
        const latencyMs = await pingDatabase(app.db);
        // The mail count is extra: if it cannot be read, the database state stays what the ping said.
        const mail = await mailBacklog(app.db).catch((err: unknown) => void request.log.warn({ err }, 'health: mail backlog unreadable'));
        const jobs = await queueStats(app.database).then(
          (stats) => ({
            failed: stats.reduce((sum, q) => sum + q.failed, 0),
            failedByQueue: Object.fromEntries(stats.filter((q) => q.failed > 0).map((q) => [q.queue, q.failed])),
          }),
          (err: unknown) => void request.log.warn({ err }, 'health: jobs unreadable'),
        );
        health = { status: 'healthy', errorType: null, database: 'database_healthy', databaseDetails: { driver, latencyMs }, message: 'Database connection successful', mail, jobs };
      } catch (err) {
        const database = classifyDatabaseError(err);
        health = {
          status: 'healthy',
          errorType: null,
          database,
          databaseDetails: { driver, latencyMs: null },
          message: database === 'database_unreachable' ? 'Database is unreachable' : 'Database answered with an error',
        };
      }
      reply.header('cache-control', 'no-store');
      return { success: true, data: health, message: health.message };
    },
  );
};
