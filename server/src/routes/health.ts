import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, healthSchema, type Health } from 'shared-api/contract';
import { pingDatabase } from '../db/connection';
import { errorResponses } from './common';

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

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'API and database state',
        response: { 200: envelope(healthSchema), ...errorResponses },
      },
    },
    async (_request, reply) => {
      const driver = app.database.driver;
      let health: Health;
      try {
        const latencyMs = await pingDatabase(app.db);
        health = { status: 'healthy', database: 'database_healthy', databaseDetails: { driver, latencyMs }, message: 'Database connection successful' };
      } catch (err) {
        const database = classifyDatabaseError(err);
        health = {
          status: 'healthy',
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
