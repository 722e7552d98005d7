import type { Server } from 'node:http';
import { bookingChanges } from 'shared-api/contract';
import { buildApp } from './app';
import { ReminderJob } from './manage';
import { loadConfig } from './config';
import { openDatabase, type DatabaseHandle } from './base/db/connection';
import { DataDirLockedError } from './base/db/lock';
import { tablesOwnedByCurrentRole } from './base/db/api-role';
import { prepareDatabase } from './prepare';
import brandConfig from '../../brand.config.json';
import { sweepCounters } from './limits';
import { scheduleRetention } from './privacy';
import { serveMetrics } from './ops';
import { isProduction, productionConfigProblems, productionDatabaseProblems } from './startup-checks';

/** Thrown from the database step when production checks refuse: the process ends after the database is closed. */
class ProductionRefusal extends Error {}

// Start with `node --import tsx server/src/main.ts`; configuration comes from the environment (see config.ts).
async function main(): Promise<void> {
  const config = loadConfig();
  const refuse = (problems: string[]) => {
    console.error(`Refusing to start with NODE_ENV=production:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  };
  if (isProduction()) {
    const problems = productionConfigProblems(process.env, config);
    if (problems.length) refuse(problems);
  }
  let database: DatabaseHandle;
  try {
    database = config.databaseUrl
      ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
      : await openDatabase({ driver: 'pglite', dataDir: config.dataDir });
  } catch (err) {
    console.error(err instanceof DataDirLockedError ? err.message : `Could not open the database: ${(err as Error).message}`);
    process.exit(1);
  }
  let refused: string[] = [];
  try {
    const { applied, adminLine, seeded } = await prepareDatabase(database, config, async () => {
      if (isProduction() && database.driver === 'postgres' && (await database.rawTransaction(tablesOwnedByCurrentRole)) > 0) {
        console.warn(
          "The API's database role owns its tables, so its credentials can switch off the audit trail's append-only trigger: run it as a role that owns nothing (docs/OPERATIONS.md, The API with PostgreSQL).",
        );
      }
      if (isProduction()) {
        refused = await productionDatabaseProblems(database.db);
        if (refused.length) throw new ProductionRefusal();
      }
    });
    if (applied.length) console.log(`Migrations applied: ${applied.join(', ')}`);
    if (adminLine) console.log(`\n  ${adminLine}\n`);
    if (seeded) console.log(`Seeded ${seeded} demo slots.`);
  } catch (err) {
    await database.close().catch(() => {});
    if (err instanceof ProductionRefusal) refuse(refused);
    console.error(`Could not prepare the database (${database.driver}): ${(err as Error).message}`);
    process.exit(1);
  }

  const app = await buildApp({ database, config });
  let metricsServer: Server | undefined;
  // Day-before reminders: the `reminders` queue's pass, every REMINDER_INTERVAL_MS on one replica or another; each
  // reminder is claimed in the database, so sent once.
  const reminders = new ReminderJob({
    db: app.db,
    jobs: app.jobs,
    intervalMs: config.reminderIntervalMs,
    publicSiteUrl: config.payments.publicSiteUrl,
    mailFrom: config.payments.mailFrom,
    policy: { ...bookingChanges, reminder: config.reminder },
    log: app.log,
    onQueued: () => (app.mailQueue.wake(), app.whatsapp.wake()),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.error('Forced exit.');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // /health/ready answers 503 at once; requests under way finish, then pg-boss's workers finish their jobs (or hand
    // them back for a retry) and stop.
    app.readiness.stopping = true;
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    // A keep-alive socket whose request finishes after close began would stay open for Fastify's 72 s keep-alive. Only
    // once the listener is closed: before, a connection just accepted counts as idle until its request is read, and
    // closing it reset a request nginx had already sent (a POST it may not retry: bench:faults saw a 502 at a roll).
    setInterval(() => {
      if (!app.server.listening) app.server.closeIdleConnections();
    }, 100).unref();
    try {
      await reminders.stop();
      await app.close();
      metricsServer?.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  // pg-boss 10 records a job's completion or failure without awaiting it: with PostgreSQL away (a restart, a failover)
  // that rejection is unhandled and would end the process. A lost connection is logged (the job's lease runs out and it
  // is retried); anything else still ends the process, as Node would.
  process.on('unhandledRejection', (reason) => {
    if (isConnectionLoss(reason)) return app.log.warn({ err: (reason as Error).message }, 'database connection lost under a background statement');
    console.error(reason);
    process.exit(1);
  });
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    console.error(`Could not listen on ${config.host}:${config.port}: ${(err as Error).message}`);
    await database.close().catch(() => {});
    process.exit(1);
  }
  const bound = app.server.address();
  const port = bound && typeof bound === 'object' ? bound.port : config.port;
  console.log(`API listening on http://${config.host}:${port} (database: ${database.driver}; docs at /docs)`);
  if (config.metricsPort !== undefined) {
    try {
      metricsServer = await serveMetrics(app.metrics, config.metricsHost, config.metricsPort);
    } catch (err) {
      console.error(`Could not serve metrics on ${config.metricsHost}:${config.metricsPort}: ${(err as Error).message}`);
      await app.close();
      await database.close().catch(() => {});
      process.exit(1);
    }
    const metricsBound = metricsServer.address();
    console.log(`Metrics on http://${config.metricsHost}:${metricsBound && typeof metricsBound === 'object' ? metricsBound.port : config.metricsPort}/metrics`);
  }
  // The background work, on pg-boss (jobs/README.md): payments whose callback never came are finished now and every
  // RECONCILE_INTERVAL_MS; unsent mail without a job (its process died after the commit) is queued each minute; ended
  // rate-limit windows and spent challenge nonces leave the database hourly; day-before reminders; the PDPA retention
  // policy (brand.config.json) every night at 03:30 in Malaysia.
  app.jobs.handle('sweep-counters', () => sweepCounters(app.db));
  await app.jobs.work();
  await app.jobs.every('mail-relay', 60_000);
  if (app.whatsapp.queue) await app.jobs.every('whatsapp-relay', 60_000);
  await app.jobs.every('sweep-counters', 3_600_000);
  // The waitlist's offer pass (waitlist/pass.ts): every 30 s for holds that lapse by time, besides each change's own.
  await app.jobs.every('waitlist', 30_000);
  await scheduleRetention(app.jobs, app.db, brandConfig.retention, undefined, app.documentStore);
  void app.reconciler.firstPass.then((changed) => console.log(`Reconciliation pass done (${changed} payment(s) finished).`));
  await app.reconciler.start();
  await reminders.start();
}

void main();

/** The errors of a PostgreSQL connection that went away (refused, cut, or the server shutting down). */
function isConnectionLoss(reason: unknown): boolean {
  const err = reason as { code?: string; message?: string } | undefined;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', '57P01', '57P02', '57P03'].includes(err?.code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(err?.message ?? '')
  );
}
