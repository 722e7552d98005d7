import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, type DatabaseHandle } from './db/connection';
import { DataDirLockedError } from './db/lock';
import { migrate } from './db/migrate';
import { ensureAdminAccount, seedDemoSlots } from './db/seed';

// Start with `node --import tsx server/src/main.ts`; configuration comes from the environment (see config.ts).
async function main(): Promise<void> {
  const config = loadConfig();
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
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.error('Forced exit.');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
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
  // Payments whose callback never came are finished now and then every RECONCILE_INTERVAL_MS; mail leaves the outbox.
  app.mailWorker.start();
  void app.reconciler.start().then((changed) => console.log(`Reconciliation pass done (${changed} payment(s) finished).`));
}

void main();
