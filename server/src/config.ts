import path from 'node:path';
import { brand } from 'shared-api/contract';
import { loadPaymentsConfig, type PaymentsConfig } from './payments/config';
import { flag, intFrom } from './env';

export type Config = {
  port: number;
  host: string;
  /** When set, PostgreSQL through node-postgres; otherwise embedded PGlite in `dataDir/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  corsOrigins: string[];
  adminEmail: string;
  adminPassword: string;
  /** True when ADMIN_EMAIL / ADMIN_PASSWORD were not configured, so the demo login may be printed. */
  adminIsDemo: boolean;
  seedDemo: boolean;
  /** Login attempts allowed per minute, per IP and per account. */
  loginRateLimitPerMinute: number;
  logLevel: string;
  /** Payment gateway, return URLs, sandbox and mail settings (see payments/config.ts). */
  payments: PaymentsConfig;
};

export const DEMO_ADMIN_EMAIL = 'admin@example.com';
export const DEMO_ADMIN_PASSWORD = 'admin12345';

export const DEFAULT_CORS_ORIGINS = [3000, 3001, 3002].flatMap((port) => [
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
]);

/** Configuration from the environment, with the defaults of the design (API on 127.0.0.1:4000, data in ./.data). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const corsOrigins = env.CORS_ORIGINS
    ? env.CORS_ORIGINS.split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean)
    : DEFAULT_CORS_ORIGINS;
  const port = intFrom(env.PORT, 4000, 'PORT');
  const dataDir = path.resolve(cwd, env.DATA_DIR || './.data');
  const adminEmail = (env.ADMIN_EMAIL || DEMO_ADMIN_EMAIL).trim().toLowerCase();
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(cwd, env.DATA_DIR || './.data'),
    corsOrigins,
    adminEmail: (env.ADMIN_EMAIL || DEMO_ADMIN_EMAIL).trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || DEMO_ADMIN_PASSWORD,
    adminIsDemo: !env.ADMIN_EMAIL && !env.ADMIN_PASSWORD,
    seedDemo: flag(env.SEED_DEMO, true),
    loginRateLimitPerMinute: intFrom(env.LOGIN_RATE_LIMIT, 10, 'LOGIN_RATE_LIMIT'),
    logLevel: env.LOG_LEVEL || 'info',
    payments: loadPaymentsConfig(env, { port, dataDir, adminEmail, supportEmail: brand.supportEmail, productName: brand.productName }),
  };
}
