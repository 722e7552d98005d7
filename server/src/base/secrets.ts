import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './db/connection';

/**
 * A secret every API replica shares: the first process to ask creates it (random, 32 bytes hex) in the database and
 * every later one, on any replica, reads the same value. A configured value (environment) always wins and is not stored.
 */
export async function sharedSecret(db: DbOrTx, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const candidate = randomBytes(32).toString('hex');
  const result = (await db.execute(sql`
    WITH inserted AS (
      INSERT INTO app_secrets (name, value) VALUES (${name}, ${candidate}) ON CONFLICT (name) DO NOTHING RETURNING value
    )
    SELECT value FROM inserted UNION ALL SELECT value FROM app_secrets WHERE name = ${name} LIMIT 1`)) as unknown as { rows: { value: string }[] };
  if (result.rows[0]) return result.rows[0].value;
  // Lost a race with another replica's insert, committed after this statement's snapshot: read it now.
  const again = (await db.execute(sql`SELECT value FROM app_secrets WHERE name = ${name}`)) as unknown as { rows: { value: string }[] };
  return again.rows[0].value;
}

/** Reads a secret on first use and keeps it; a failed read (database down) is tried again next time. */
export function lazySecret(read: () => Promise<string>): () => Promise<string> {
  let secret: Promise<string> | undefined;
  return () => {
    secret ??= read().catch((err) => {
      secret = undefined;
      throw err;
    });
    return secret;
  };
}
