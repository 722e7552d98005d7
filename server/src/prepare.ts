import type { Config } from './config';
import type { DatabaseHandle } from './base/db/connection';
import { migrate, migrateAsOwner } from './base/db/migrate';
import { ensureAdminAccount, seedDemoSlots, seedSeason } from './seed';

// Any constant other than the migrations' own: the start-up's database step, one process at a time.
export const PREPARE_LOCK_KEY = 7_212_027;

export type Prepared = { applied: string[]; adminLine: string | null; seeded: number };

/**
 * The start-up's database step: migrations, the first staff account, the demo timetable. The last two look before they
 * write, so processes starting at once on one PostgreSQL take turns (else both create the account, the second failing
 * on its email, and both seed). `afterMigrations` may refuse to go on (production checks) by throwing.
 */
export function prepareDatabase(
  database: DatabaseHandle,
  config: Config,
  afterMigrations: () => Promise<void> = async () => {},
): Promise<Prepared> {
  return database.exclusively(PREPARE_LOCK_KEY, async () => {
    // With MIGRATION_DATABASE_URL the owner migrates and DATABASE_URL's role gets only the API's rights (db/api-role.ts).
    const applied = config.migrationDatabaseUrl ? await migrateAsOwner(config.migrationDatabaseUrl, database) : await migrate(database);
    await afterMigrations();
    const adminLine = await ensureAdminAccount(database.db, config);
    const seeded = config.seedDemo ? await seedDemoSlots(database.db) : 0;
    if (config.seedDemo && config.seedSeason) await seedSeason(database.db);
    return { applied, adminLine, seeded };
  });
}
