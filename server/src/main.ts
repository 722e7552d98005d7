import type { Server } from 'node:http';
import { buildApp } from './app';
import { ReminderJob } from './bookings/reminders';
import { loadConfig } from './config';
import { openDatabase, type DatabaseHandle } from './db/connection';
import { DataDirLockedError } from './db/lock';
import { migrate } from './db/migrate';
import { ensureAdminAccount, seedDemoSlots } from './db/seed';
import { sweepCounters } from './limits/rate-counter';
import { serveMetrics } from './metrics/server';
import { isProduction, productionConfigProblems, productionDatabaseProblems } from './startup-checks';

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
  try {
    const applied = await migrate(database);
    if (applied.length) console.log(`Migrations applied: ${applied.join(', ')}`);
    if (isProduction()) {
      const problems = await productionDatabaseProblems(database.db);
      if (problems.length) {
        await database.close().catch(() => {});
        refuse(problems);
      }
    }
    const adminLine = await ensureAdminAccount(database.db, config);
    if (adminLine) console.log(`\n  ${adminLine}\n`);
    if (config.seedDemo) {
      const seeded = await seedDemoSlots(database.db);
      if (seeded) console.log(`Seeded ${seeded} demo slots.`);
    }
  } catch (err) {
    console.error(`Could not prepare the database (${database.driver}): ${(err as Error).message}`);
    await database.close().catch(() => {});
    process.exit(1);
  }

  const app = await buildApp({ database, config });
  let metricsServer: Server | undefined;
  // Day-before reminders: every replica looks each REMINDER_INTERVAL_MS; each is claimed in the database, so sent once.
  const reminders = new ReminderJob({
    db: app.db,
    intervalMs: config.reminderIntervalMs,
    publicSiteUrl: config.payments.publicSiteUrl,
    mailFrom: config.payments.mailFrom,
    log: app.log,
    onQueued: () => app.mailWorker.wake(),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.error('Forced exit.');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // /health/ready answers 503 at once; requests under way finish, then the mail worker and reconciler hand back what they hold.
    app.readiness.stopping = true;
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    // A keep-alive socket whose request finishes after close began would stay open for Fastify's 72 s keep-alive.
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
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
  // Payments whose callback never came are finished now and then every RECONCILE_INTERVAL_MS; mail leaves the outbox.
  app.mailWorker.start();
  void app.reconciler.start().then((changed) => console.log(`Reconciliation pass done (${changed} payment(s) finished).`));
  // Ended rate-limit windows and spent challenge nonces leave the database hourly (one DELETE; any replica may run it).
  const sweep = () => void sweepCounters(app.db).catch((err) => app.log.warn({ err }, 'rate counters: sweep failed'));
  setInterval(sweep, 3_600_000).unref();
  sweep();
  reminders.start();
}

void main();
