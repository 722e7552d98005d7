import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from './connection';

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

/** Applies the pending migrations in one transaction and records each in schema_migrations. Returns the names applied. */
export async function migrate(handle: DatabaseHandle, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = readMigrations(dir);
  return handle.rawTransaction(async (exec) => {
    if (handle.driver === 'postgres') await exec('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await exec('SELECT version FROM schema_migrations', [])).rows.map((r) => String(r.version)));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await exec(m.sql);
      await exec('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}
