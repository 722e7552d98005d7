import { loadConfig } from './config';
import { openDatabase } from './base/db/connection';
import { DataDirLockedError } from './base/db/lock';
import { migrate, migrateAsOwner } from './base/db/migrate';

// `npm run migrate`: the migrations alone, before starting (or upgrading) the API. With MIGRATION_DATABASE_URL the
// owner migrates and DATABASE_URL's role is given the API's rights; else DATABASE_URL (or PGlite in DATA_DIR) migrates.
async function main(): Promise<void> {
  const config = loadConfig();
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl, poolSize: 1 })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir });
  try {
    const applied = config.migrationDatabaseUrl ? await migrateAsOwner(config.migrationDatabaseUrl, database) : await migrate(database);
    console.log(applied.length ? `Migrations applied: ${applied.join(', ')}` : 'No migrations pending.');
    if (config.migrationDatabaseUrl) console.log("The API's role has its rights (db/api-role.ts).");
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof DataDirLockedError ? err.message : `Migration failed: ${(err as Error).message}`);
  process.exit(1);
});
