import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ErrorCode, TIMEZONE } from 'shared-api/contract';
import { dayjs } from 'shared-api/zoned-dayjs';
import { loadConfig, DEFAULT_CORS_ORIGINS } from '../src/config';
import { openDatabase } from '../src/base/db/connection';
import { DataDirLockedError, lockDataFolder } from '../src/base/db/lock';
import { migrate, readMigrations } from '../src/base/db/migrate';
import { ensureAdminAccount, seedDemoSlots, DEMO_TIMES } from '../src/seed';
import { slots } from '../src/slots/tables';
import { loginAccount, passwordMatches } from '../src/auth/accounts';
import { createThrowawayPostgres, freshPglite, queryRows, startTestApp, stopTestApp } from './helpers';
import { sql } from 'drizzle-orm';

jest.setTimeout(30_000);

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'server-db-test-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({ port: 4000, host: '127.0.0.1', databaseUrl: undefined, dataDir: '/srv/app/.data', seedDemo: true, adminIsDemo: true, loginRateLimitPerMinute: 10 });
    expect(c.corsOrigins).toEqual(DEFAULT_CORS_ORIGINS);
    expect(DEFAULT_CORS_ORIGINS).toEqual(expect.arrayContaining(['http://localhost:3000', 'http://127.0.0.1:3002']));
  });

  it('reads the environment', () => {
    const c = loadConfig({ PORT: '5000', CORS_ORIGINS: 'https://a.example, https://b.example/', SEED_DEMO: 'off', ADMIN_EMAIL: 'Boss@X.com', DATA_DIR: 'data' }, '/srv');
    expect(c).toMatchObject({ port: 5000, corsOrigins: ['https://a.example', 'https://b.example'], seedDemo: false, adminEmail: 'boss@x.com', adminIsDemo: false, dataDir: '/srv/data' });
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('PORT must be a whole number');
  });

  it('takes the owner’s URL for migrations apart from the API’s, only with PostgreSQL', () => {
    const urls = { DATABASE_URL: 'postgres://booking_api@db/booking', MIGRATION_DATABASE_URL: 'postgres://booking_owner@db/booking' };
    expect(loadConfig(urls)).toMatchObject({ databaseUrl: urls.DATABASE_URL, migrationDatabaseUrl: urls.MIGRATION_DATABASE_URL });
    expect(loadConfig({}).migrationDatabaseUrl).toBeUndefined();
    expect(() => loadConfig({ MIGRATION_DATABASE_URL: urls.MIGRATION_DATABASE_URL })).toThrow('MIGRATION_DATABASE_URL needs DATABASE_URL');
  });
});

describe('PGlite folder lock', () => {
  it('refuses a folder held by a live process and takes over a stale lock', async () => {
    const dir = path.join(tmpDir(), 'pglite');
    // A live process that is not us holds the lock.
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      fs.writeFileSync(`${dir}.lock`, String(sleeper.pid));
      expect(() => lockDataFolder(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataFolder(dir)).toThrow(new RegExp(`in use by another server process \\(PID ${sleeper.pid}\\)`));
    } finally {
      sleeper.kill();
    }
    await new Promise((r) => sleeper.once('exit', r));
    // Its PID is now dead: the stale lock is taken over, and released again.
    const release = lockDataFolder(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});

describe('migrations', () => {
  it('applies numbered files in order once, recorded in schema_migrations', async () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, '9002_second.sql'), 'INSERT INTO t (v) VALUES (2);');
    fs.writeFileSync(path.join(dir, '9001_first.sql'), 'CREATE TABLE t (v int); INSERT INTO t (v) VALUES (1);');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    // A migrated database (0001.. already recorded), given a folder of later files.
    const database = await freshPglite();
    try {
      expect(await migrate(database, dir)).toEqual(['9001_first.sql', '9002_second.sql']);
      expect(await migrate(database, dir)).toEqual([]);
      fs.writeFileSync(path.join(dir, '9003_third.sql'), 'INSERT INTO t (v) VALUES (3);');
      expect(await migrate(database, dir)).toEqual(['9003_third.sql']);
      expect(await queryRows(database, sql`SELECT v FROM t ORDER BY v`)).toEqual([{ v: 1 }, { v: 2 }, { v: 3 }]);
      expect((await queryRows<{ version: string }>(database, sql`SELECT version FROM schema_migrations WHERE version >= '9000' ORDER BY version`)).map((r) => r.version)).toEqual(['9001', '9002', '9003']);
      // A failing file rolls the whole batch back.
      fs.writeFileSync(path.join(dir, '9004_ok.sql'), 'INSERT INTO t (v) VALUES (4);');
      fs.writeFileSync(path.join(dir, '9005_broken.sql'), 'INSERT INTO nope VALUES (1);');
      await expect(migrate(database, dir)).rejects.toThrow();
      expect(await queryRows(database, sql`SELECT count(*)::int AS n FROM t`)).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
    }
  });

  it('the real migrations start with 0001_init.sql', () => {
    expect(readMigrations()[0].name).toBe('0001_init.sql');
  });
});

describe('first start', () => {
  it('creates the configured staff account once and says how to log in', async () => {
    const database = await freshPglite();
    try {
      const config = loadConfig({});
      const line = await ensureAdminAccount(database.db, config);
      expect(line).toBe('Demo staff login: admin@example.com / admin12345  (set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)');
      const admin = await loginAccount(database.db, 'admin@example.com');
      expect(admin).toMatchObject({ email: 'admin@example.com' });
      expect(await passwordMatches(database.db, admin!, 'admin12345')).toBe(true);
      expect(await ensureAdminAccount(database.db, { ...config, adminPassword: 'other' })).toBeNull();
    } finally {
      await database.close();
    }
  });

  it('seeds weekday demo slots for 3 weeks from this Monday (GMT+8), a few booked, only into an empty table', async () => {
    const database = await freshPglite();
    try {
      const now = new Date('2030-01-09T02:00:00Z'); // Wednesday 10:00 in Kuala Lumpur
      expect(await seedDemoSlots(database.db, now)).toBe(15 * DEMO_TIMES.length);
      const rows = await database.db.select().from(slots).orderBy(slots.startAt);
      const first = dayjs(rows[0].startAt).tz(TIMEZONE);
      expect(first.format('YYYY-MM-DD HH:mm')).toBe('2030-01-07 08:30');
      expect(rows.every((r) => ![0, 6].includes(dayjs(r.startAt).tz(TIMEZONE).day()))).toBe(true);
      expect(rows.every((r) => r.endAt.getTime() - r.startAt.getTime() === 30 * 60_000)).toBe(true);
      const booked = rows.filter((r) => r.status === 'booked');
      expect(booked.length).toBeGreaterThanOrEqual(3);
      expect(booked.every((r) => r.visitorName && r.bookingReference && r.startAt > now)).toBe(true);
      expect(await seedDemoSlots(database.db, now)).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe('PostgreSQL unreachable', () => {
  it('health says database_unreachable and slot routes answer 503, never mock data', async () => {
    // The API starts on its database (main.ts exits when it cannot migrate at start) through a TCP relay; then the
    // server goes away under it: the relay closes, every connection ends and new ones are refused.
    const pg = await createThrowawayPostgres('unreachable');
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const server = net.connect(5432, '127.0.0.1');
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('error', () => s.destroy());
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(server).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const url = new URL(pg.url);
    url.port = String((relay.address() as net.AddressInfo).port);
    const database = await openDatabase({ driver: 'postgres', url: url.toString(), poolSize: 2 });
    const ctx = await startTestApp({}, database);
    try {
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      const health = (await ctx.app.inject('/health')).json();
      expect(health.data).toMatchObject({ status: 'healthy', database: 'database_unreachable', databaseDetails: { driver: 'postgres', latencyMs: null } });
      const list = await ctx.app.inject('/public/list');
      expect(list.statusCode).toBe(503);
      expect(list.json()).toMatchObject({ success: false, data: null, error: ErrorCode.DATABASE_UNAVAILABLE });
      // The client is told when to ask again (a restart or failover takes seconds).
      expect(Number(list.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'a@example.com', password: 'x' } });
      expect(login.statusCode).toBe(503);
      expect(Number(login.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await stopTestApp(ctx);
      await pg.drop();
    }
  });
});
