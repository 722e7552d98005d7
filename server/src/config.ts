import path from 'node:path';
import { bookingChanges, brand, parseSlotTime } from 'shared-api/contract';
import { loadPaymentsConfig, type PaymentsConfig } from './payments';
import { LIST_CHANGES_WAIT_MS } from './slots';
import type { ScryptCost } from './auth';
import type { PasswordWorkOptions } from './auth';
import { flag, intFrom } from './base/env';
import { loadWhatsAppConfig, type WhatsAppConfig } from './whatsapp';
import { loadDocumentsConfig, type DocumentsConfig } from './documents';

export type Config = {
  port: number;
  host: string;
  /** When set, PostgreSQL through node-postgres; otherwise embedded PGlite in `dataDir/pglite`. */
  databaseUrl: string | undefined;
  /** PostgreSQL: the tables' owner, who runs the migrations; DATABASE_URL's role then owns nothing (db/api-role.ts). */
  migrationDatabaseUrl: string | undefined;
  dataDir: string;
  corsOrigins: string[];
  adminEmail: string;
  adminPassword: string;
  /** True when ADMIN_EMAIL / ADMIN_PASSWORD were not configured, so the demo login may be printed. */
  adminIsDemo: boolean;
  seedDemo: boolean;
  /** SEED_SEASON=1: with the demo seed, a past term of bookings and payments for the Insights page (seed.ts seedSeason). */
  seedSeason: boolean;
  /** Login attempts allowed a minute from one client address, over all accounts (auth/login-limits.ts has the rest). */
  loginRateLimitPerMinute: number;
  /** Tests only, never read from the environment: a cheaper scrypt than auth/passwords.ts's PASSWORD_COST. */
  passwordCost?: ScryptCost;
  /** Tests only, never read from the environment: the password queue's bounds (auth/password-work.ts has the real ones). */
  passwordWork?: Partial<Omit<PasswordWorkOptions, 'onCount'>>;
  logLevel: string;
  /** Longest time to receive a whole request, headers and body (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Fastify's trustProxy (TRUST_PROXY): false, true, a number of proxy hops, or the proxies' addresses. */
  trustProxy: boolean | number | string[];
  /** Where GET /metrics (Prometheus) is served, apart from the public port; undefined port = not served. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** How often each process looks for day-before reminders that are due (REMINDER_INTERVAL_MS; 0: only at start). */
  reminderIntervalMs: number;
  /**
   * When a visit is reminded of: brand.config.json's `bookingChanges.reminder`, or REMINDER_DAYS_BEFORE and
   * REMINDER_TIME (HH:mm GMT+8) over it (the e2e suite's reminder is due whatever the time of day).
   */
  reminder: { daysBefore: number; time: string };
  /** How long GET /public/list/changes holds a request without a change: 25 s, or less under a shorter request timeout. */
  listChangesWaitMs: number;
  /** How often pg-boss fails back the jobs of a dead process once they expire, and archives (JOB_MAINTENANCE_SECONDS). */
  jobMaintenanceSeconds: number;
  /** Payment gateway, return URLs, sandbox and mail settings (see payments/config.ts). */
  payments: PaymentsConfig;
  /** WhatsApp Cloud API and webhook settings (whatsapp/config.ts, issue 38). */
  whatsapp: WhatsAppConfig;
  /** Where the documents' files are kept: a folder or an S3-compatible bucket (documents/config.ts, issue 40). */
  documents: DocumentsConfig;
};

export const DEMO_ADMIN_EMAIL = 'admin@example.com';
export const DEMO_ADMIN_PASSWORD = 'admin12345';

export const DEFAULT_CORS_ORIGINS = [3000, 3001, 3002].flatMap((port) => [
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
]);

/** TRUST_PROXY: unset or false → false; true; a number of hops; else comma-separated addresses or CIDR ranges. */
export function trustProxyFrom(value: string | undefined): boolean | number | string[] {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text);
  if (text === '' || /^(true|false|yes|no|on|off)$/i.test(text)) return flag(text, false);
  return text.split(',').map((address) => address.trim()).filter(Boolean);
}

/** Configuration from the environment, with the defaults of the design (API on 127.0.0.1:4000, data in ./.data). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const corsOrigins = env.CORS_ORIGINS
    ? env.CORS_ORIGINS.split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean)
    : DEFAULT_CORS_ORIGINS;
  const port = intFrom(env.PORT, 4000, 'PORT');
  const dataDir = path.resolve(cwd, env.DATA_DIR || './.data');
  const adminEmail = (env.ADMIN_EMAIL || DEMO_ADMIN_EMAIL).trim().toLowerCase();
  const requestTimeoutMs = intFrom(env.REQUEST_TIMEOUT_MS, 30_000, 'REQUEST_TIMEOUT_MS');
  if (requestTimeoutMs < 1000) throw new Error(`REQUEST_TIMEOUT_MS must be at least 1000 (milliseconds), got "${env.REQUEST_TIMEOUT_MS}"`);
  if (env.MIGRATION_DATABASE_URL && !env.DATABASE_URL) throw new Error('MIGRATION_DATABASE_URL needs DATABASE_URL (the API\'s own role); embedded PGlite has one role.');
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    migrationDatabaseUrl: env.MIGRATION_DATABASE_URL || undefined,
    dataDir: path.resolve(cwd, env.DATA_DIR || './.data'),
    corsOrigins,
    adminEmail: (env.ADMIN_EMAIL || DEMO_ADMIN_EMAIL).trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || DEMO_ADMIN_PASSWORD,
    adminIsDemo: !env.ADMIN_EMAIL && !env.ADMIN_PASSWORD,
    // Demo slots (with demo visitors) only where nobody said this is production.
    seedDemo: flag(env.SEED_DEMO, env.NODE_ENV !== 'production'),
    seedSeason: flag(env.SEED_SEASON, false),
    loginRateLimitPerMinute: intFrom(env.LOGIN_RATE_LIMIT, 10, 'LOGIN_RATE_LIMIT'),
    logLevel: env.LOG_LEVEL || 'info',
    requestTimeoutMs,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    metricsPort: env.METRICS_PORT ? intFrom(env.METRICS_PORT, 0, 'METRICS_PORT') : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    reminderIntervalMs: intFrom(env.REMINDER_INTERVAL_MS, 60_000, 'REMINDER_INTERVAL_MS'),
    reminder: reminderFrom(env),
    listChangesWaitMs: Math.min(LIST_CHANGES_WAIT_MS, requestTimeoutMs - 1000),
    jobMaintenanceSeconds: Math.max(1, intFrom(env.JOB_MAINTENANCE_SECONDS, 120, 'JOB_MAINTENANCE_SECONDS')),
    payments: loadPaymentsConfig(env, { port, dataDir, adminEmail, supportEmail: brand.supportEmail, productName: brand.productName }),
    whatsapp: loadWhatsAppConfig(env),
    documents: loadDocumentsConfig(env, dataDir),
  };
}

function reminderFrom(env: NodeJS.ProcessEnv): { daysBefore: number; time: string } {
  const daysBefore = intFrom(env.REMINDER_DAYS_BEFORE, bookingChanges.reminder.daysBefore, 'REMINDER_DAYS_BEFORE');
  const time = env.REMINDER_TIME || bookingChanges.reminder.time;
  if (daysBefore < 0 || parseSlotTime(time) === null) throw new Error(`REMINDER_DAYS_BEFORE must be 0 or more and REMINDER_TIME a time like 09:00, got "${env.REMINDER_DAYS_BEFORE}", "${env.REMINDER_TIME}"`);
  return { daysBefore, time };
}
