import fs from 'node:fs';
import path from 'node:path';
import { grantJobs, installJobs } from '../jobs/install';
import { grantApiRole } from './api-role';
import { openDatabase, type DatabaseHandle } from './connection';

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');
const FILE_PATTERN = /^(\d{4})_[\w-]+\.sql$/;
// Any constant: serialises concurrent migrators on one PostgreSQL server.
const MIGRATION_LOCK_KEY = 7_212_026;

export type Migration = { version: string; name: string; sql: string };

/** The numbered SQL files (NNNN_name.sql), in order. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => FILE_PATTERN.test(f))
    .sort()
    .map((f) => ({ version: f.slice(0, 4), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

export type MigrateOptions = {
  /** PostgreSQL: the API's own role, given its rights after the migrations (see api-role.ts); the handle is the owner's. */
  apiRole?: string;
};

/**
 * Applies the pending migrations in one transaction and records each in schema_migrations, then installs or upgrades
 * pg-boss's schema. Returns the names applied.
 * With nothing pending it changes nothing, so a role without the right to create tables may call it (the API's own
 * role, once the owner has migrated).
 */
export async function migrate(handle: DatabaseHandle, dir = MIGRATIONS_DIR, options: MigrateOptions = {}): Promise<string[]> {
  // One migrator at a time, pg-boss's install included (two installing its queues at once deadlock).
  return handle.exclusively(MIGRATION_LOCK_KEY, () => migrateAlone(handle, dir, options));
}

async function migrateAlone(handle: DatabaseHandle, dir: string, { apiRole }: MigrateOptions): Promise<string[]> {
  const migrations = readMigrations(dir);
  const applied = await handle.rawTransaction(async (exec) => {
    const [{ exists }] = (await exec("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists", [])).rows as { exists: boolean }[];
    if (!exists) {
      await exec('CREATE TABLE schema_migrations (version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    }
    const done = new Set((await exec('SELECT version FROM schema_migrations', [])).rows.map((r) => String(r.version)));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await exec(m.sql);
      await exec('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
    if (apiRole) await grantApiRole(exec, apiRole);
    return applied;
  });
  // pg-boss's schema and queues (jobs/install.ts): its own migrations, then the API role's rights on them.
  await installJobs(handle);
  if (apiRole) await handle.rawTransaction((exec) => grantJobs(exec, apiRole));
  return applied;
}

/** The role a database handle connects as (the API's role, to be given its rights). */
export async function currentRole(handle: DatabaseHandle): Promise<string> {
  return handle.rawTransaction(async (exec) => String((await exec('SELECT current_user AS role', [])).rows[0].role));
}

/**
 * Migrates with the owner's URL and gives the API's role (the one `api` connects as) its rights, then closes the
 * owner's connection: the API keeps running with its own role only.
 */
export async function migrateAsOwner(ownerUrl: string, api: DatabaseHandle): Promise<string[]> {
  const owner = await openDatabase({ driver: 'postgres', url: ownerUrl, poolSize: 1 });
  try {
    return await migrate(owner, MIGRATIONS_DIR, { apiRole: await currentRole(api) });
  } finally {
    await owner.close();
  }
}
