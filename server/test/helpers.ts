import { Secret, TOTP } from 'otpauth';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { inMY } from 'shared-api/contract';
import pg from 'pg';
import { version as pgBossVersion } from 'pg-boss/package.json';
import { buildApp, type App } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/base/db/connection';
import { migrate, readMigrations } from '../src/base/db/migrate';
import { slots } from '../src/slots/tables';
import { createUser } from '../src/auth/accounts';
import { consents } from '../src/bookings/tables';
import { currentNoticeVersion } from 'shared-api/privacy';

export const STAFF = { email: 'staff@example.com', password: 'correct-horse' };
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestContext = { app: App; database: DatabaseHandle; config: Config };

/**
 * A fresh, migrated in-memory PGlite. Creating one runs initdb (seconds), so the first call stores a dump in the
 * temp folder (keyed by the migrations' content) and later calls, in any test file, start from that dump.
 */
export async function freshPglite(): Promise<DatabaseHandle> {
  // Everything migrate() does: the SQL files, and pg-boss's schema (its version and our install step).
  const jobsInstall = fs.readFileSync(path.join(__dirname, '../src/base/jobs/install.ts'), 'utf8');
  const key = createHash('sha256')
    .update(readMigrations().map((m) => m.name + m.sql).join('\n') + jobsInstall + pgBossVersion)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `booking-server-test-pglite-${key}.tar`);
  if (fs.existsSync(file)) {
    return openDatabase({ driver: 'pglite', inMemory: true, loadDataDir: new Blob([fs.readFileSync(file)]) });
  }
  const database = await openDatabase({ driver: 'pglite', inMemory: true });
  await migrate(database);
  const dump = Buffer.from(await (await database.dump!()).arrayBuffer());
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, dump);
  fs.renameSync(tmp, file);
  return database;
}

export async function startTestApp(overrides: Partial<Config> = {}, database?: DatabaseHandle): Promise<TestContext> {
  const db = database ?? (await freshPglite());
  await migrate(db);
  const config = { ...loadConfig({}), loginRateLimitPerMinute: 1000, ...overrides };
  const app = await buildApp({ database: db, config, logger: false });
  await app.ready();
  return { app, database: db, config };
}

export async function stopTestApp(ctx: TestContext | undefined): Promise<void> {
  if (!ctx) return;
  await ctx.app.close();
  await ctx.database.close();
}

/** A staff account and a bearer token for it. */
export async function staffToken(ctx: TestContext, account = STAFF): Promise<string> {
  await createUser(ctx.database.db, { email: account.email, password: account.password });
  const res = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: account });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return res.json().data.token as string;
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The code an authenticator app shows for `secret` at `timestamp` (ms; now by default). */
export const totpCode = (secret: string, timestamp = Date.now()) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp });

/**
 * Sets up the second factor of the admin behind `token` as a person would (the QR code's secret, the app's first
 * code): the session is stepped up for 12 hours; the secret and the recovery codes are answered for later codes.
 */
export async function enrolSecondFactor(ctx: TestContext, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await ctx.app.inject({ method: 'POST', url: '/auth/second-factor/enrol', headers: auth(token) });
  if (started.statusCode !== 200) throw new Error(`enrol failed: ${started.body}`);
  const { secret } = started.json().data as { secret: string };
  const confirmed = await ctx.app.inject({ method: 'POST', url: '/auth/second-factor/enrol/confirm', headers: auth(token), payload: { code: totpCode(secret) } });
  if (confirmed.statusCode !== 200) throw new Error(`enrol confirm failed: ${confirmed.body}`);
  return { secret, recoveryCodes: confirmed.json().data.recoveryCodes };
}

/** An admin's token with the second factor given (for the admin routes: colleagues, privacy, breaches, calendar feed). */
export async function adminToken(ctx: TestContext, account = STAFF): Promise<string> {
  await createUser(ctx.database.db, { email: account.email, password: account.password, role: 'admin' });
  const res = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: account });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const token = res.json().data.token as string;
  await enrolSecondFactor(ctx, token);
  return token;
}

/** Inserts a slot starting `hoursAhead` hours from now (rounded to the minute). */
/** A slot `hoursAhead` from now; a booked one names a consent of its own (the database refuses one without: 0022). */
export async function insertSlot(database: DatabaseHandle, hoursAhead: number, extra: Partial<typeof slots.$inferInsert> = {}) {
  const start = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 60_000) * 60_000);
  const consentId = extra.status === 'booked' && extra.consentId == null ? await insertConsent(database.db) : extra.consentId;
  const [row] = await database.db
    .insert(slots)
    .values({ startAt: start, endAt: new Date(start.getTime() + 30 * 60_000), ...extra, consentId })
    .returning();
  return row;
}

/** Rows of a raw query (both drivers answer `{ rows }`). */
export async function queryRows<T>(database: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function clearSlots(database: DatabaseHandle) {
  await database.db.execute(sql`DELETE FROM slots`);
}

/** The whole slots table, for "nothing changed" checks. */
export async function snapshotSlots(database: DatabaseHandle): Promise<string> {
  const rows = await database.db.select().from(slots).orderBy(slots.id);
  return JSON.stringify(rows);
}

export const visitor = {
  visitorName: 'Nur Aina',
  visitorEmail: 'aina@example.com',
  visitorContactNo: '012 345 6789',
  selectedSchool: 'Seri Ilmu Private Primary',
  childName: 'Adam Firdaus',
  childYear: 'Year 2',
};

/** A throwaway database on the local PostgreSQL server; `drop` removes it. */
export async function createThrowawayPostgres(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A consent to the notice in force ('web'), for fixtures that write a payment row directly (each payment names one). */
export async function insertConsent(db: DatabaseHandle['db'], language: 'en' | 'ms' | 'zh' = 'en'): Promise<number> {
  const [row] = await db.insert(consents).values({ noticeVersion: currentNoticeVersion(), language, channel: 'web' }).returning();
  return row.id;
}

/** The consent an initiate body carries: the notice in force, read in `language`. */
export const currentConsent = (language: 'en' | 'ms' | 'zh' = 'en') => ({ noticeVersion: currentNoticeVersion(), language });

/** A weekday at least `daysAhead` days from today (GMT+8), as YYYY-MM-DD: a test's date, never a fixed one. */
export function weekdayAhead(daysAhead = 2): string {
  let day = inMY().add(daysAhead, 'day');
  while (day.day() === 0 || day.day() === 6) day = day.add(1, 'day');
  return day.format('YYYY-MM-DD');
}
