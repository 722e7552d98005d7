import type { RawExec } from './connection';

/*
 * The API can run as a PostgreSQL role that owns nothing: an owner role runs the migrations (MIGRATION_DATABASE_URL,
 * or `npm run migrate`), and the API's role (DATABASE_URL) gets only what the product needs. Only a table's owner can
 * ALTER it (DISABLE TRIGGER), drop its triggers or drop it, so the API's credentials cannot switch off the audit trail's
 * append-only trigger; on audit_log itself the role may only read and append (and anonymise `detail` and `target`,
 * which the trigger checks is all an update does, and only on records old enough; migration 0030 also stamps `at`
 * and refuses an actor other than the one the transaction declared).
 */

/** Tables the API may read and append to, never change or empty (their rows are history). */
export const APPEND_ONLY_TABLES = ['audit_log'] as const;
/**
 * Columns of append-only tables the API may still UPDATE, and only to anonymise them (issue 28's retention): the
 * table's trigger refuses any other change (migration 0023).
 */
export const ANONYMISABLE_COLUMNS = { audit_log: ['detail', 'target'] } as const;
/** Tables the API only reads. */
export const READ_ONLY_TABLES = ['schema_migrations'] as const;

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * The statements that give `role` the API's rights in schema public: read and write every table (and the tables
 * migrations add later: default privileges of the role running this), use every sequence, no more on the
 * append-only and read-only tables. Idempotent; run by the owner after each migration.
 */
export function apiRoleGrants(role: string): string[] {
  const r = quote(role);
  return [
    `GRANT USAGE ON SCHEMA public TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${r}`,
    ...APPEND_ONLY_TABLES.map((t) => `REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ${quote(t)} FROM ${r}`),
    ...Object.entries(ANONYMISABLE_COLUMNS).map(([t, columns]) => `GRANT UPDATE (${columns.map(quote).join(', ')}) ON ${quote(t)} TO ${r}`),
    ...READ_ONLY_TABLES.map((t) => `REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ${quote(t)} FROM ${r}`),
  ];
}

/** Gives the API's role its rights (see apiRoleGrants); refuses to "restrict" the owner itself. */
export async function grantApiRole(exec: RawExec, role: string): Promise<void> {
  const [{ owner }] = (await exec('SELECT current_user AS owner', [])).rows as { owner: string }[];
  if (owner === role) throw new Error(`MIGRATION_DATABASE_URL and DATABASE_URL both connect as "${role}": give the API a role of its own.`);
  for (const statement of apiRoleGrants(role)) await exec(statement);
}

/** Public tables the connected role owns: more than none means it can switch off the audit trail's trigger. */
export async function tablesOwnedByCurrentRole(exec: RawExec): Promise<number> {
  const { rows } = await exec("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user", []);
  return Number(rows[0].n);
}
