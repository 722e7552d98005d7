import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp, type App, type BuildAppOptions } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { createThrowawayPostgres, freshPglite, queryRows, type TestContext } from '../helpers';

export type Driver = 'pglite' | 'postgres';

/**
 * The whole API (sandbox gateway, callbacks dropped, data in a temp folder) on a fresh PGlite or a throwaway
 * PostgreSQL database, silent unless `logger` options are given; stopTestApp closes it and drops what it made.
 */
export async function startHardeningApp(
  driver: Driver,
  { config: overrides = {}, logger = false }: { config?: Partial<Config>; logger?: BuildAppOptions['logger'] } = {},
): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hardening-test-'));
  const throwaway = driver === 'postgres' ? await createThrowawayPostgres('hardening_test') : null;
  const opened = throwaway ? await openDatabase({ driver: 'postgres', url: throwaway.url }) : await freshPglite();
  const database: DatabaseHandle = {
    ...opened,
    close: async () => {
      await opened.close();
      await throwaway?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await migrate(database);
  const base = loadConfig({});
  const config: Config = {
    ...base,
    dataDir,
    seedDemo: false,
    loginRateLimitPerMinute: 1000,
    payments: { ...base.payments, dataDir, sandboxSecret: 'hardening-sandbox-secret-0123456789', sandboxCallbackDrop: true, reconcileIntervalMs: 0 },
    ...overrides,
  };
  const app = await buildApp({ database, config, logger });
  await app.ready();
  return { app, database, config };
}

export type JsonSchema = {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  format?: string;
};
export type Parameter = { in: 'path' | 'query'; name: string; schema: JsonSchema };
/** One route as the server has it: method, Fastify path (`/slot/:id`), and what /docs knows of its input. */
export type DiscoveredRoute = { method: string; path: string; parameters: Parameter[]; body: JsonSchema | null };

/**
 * Every route of the app, read from the router itself (`printRoutes`), so routes added later are found too; each is
 * joined with its OpenAPI operation (parameters, JSON body schema) when it has one. HEAD, OPTIONS * and /docs are left out.
 */
export function discoverRoutes(app: App): DiscoveredRoute[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>> };
  const prefixes: string[] = [];
  const routes: DiscoveredRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (prefixes[depth - 1] ?? '') + match[2];
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (!match[3] || path.includes('*') || path === '/docs' || path.startsWith('/docs/')) continue;
    for (const method of match[3].split(', ').filter((m) => m !== 'HEAD' && m !== 'OPTIONS')) {
      const operation = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      const pathParams = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const documented = operation?.parameters ?? [];
      const parameters: Parameter[] = [
        ...pathParams.map((name) => documented.find((p) => p.in === 'path' && p.name === name) ?? { in: 'path' as const, name, schema: { type: 'string' } }),
        ...documented.filter((p) => p.in === 'query'),
      ];
      routes.push({ method, path, parameters, body: operation?.requestBody?.content?.['application/json']?.schema ?? null });
    }
  }
  return routes;
}

/**
 * What records that a request came rather than what it asked for: staff auth touches the session's idle timer, and
 * the rate limits count attempts (before the body is read), and the server's keys (hold limits, sandbox) are created
 * once at their first use, whichever request that is. Everything else must stay as it was.
 */
const REQUEST_BOOKKEEPING: Record<string, string[] | 'all'> = { sessions: ['last_used_at'], rate_counters: 'all', app_secrets: 'all' };

/** Every row of every table, but for the request bookkeeping above. */
export async function snapshotAllTables(database: DatabaseHandle): Promise<Record<string, unknown[]>> {
  const tables = await queryRows<{ table_name: string }>(
    database,
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const snapshot: Record<string, unknown[]> = {};
  for (const { table_name: table } of tables) {
    const ignored = REQUEST_BOOKKEEPING[table] ?? [];
    if (ignored === 'all') continue;
    const rows = await queryRows<Record<string, unknown>>(database, sql`SELECT * FROM ${sql.identifier(table)} ORDER BY 1`);
    snapshot[table] = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !ignored.includes(column))));
  }
  return snapshot;
}
