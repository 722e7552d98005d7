import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { dayjs, isWeekend, todayInMY } from 'shared-api/contract';
import { openDatabase } from '../../src/base/db/connection';
import { migrateAsOwner } from '../../src/base/db/migrate';
import { currentConsent, PG_ADMIN_URL } from '../helpers';
import { json, removeProcessDirs, startApiProcess, stopAll, type Server } from '../payments/server-process';
import { waitFor } from '../payments/support';

// The API running as a PostgreSQL role that owns nothing: an owner role migrates, the API's role books, writes and reads
// the audit trail, and cannot change it: no UPDATE, DELETE or TRUNCATE, no ALTER TABLE ... DISABLE TRIGGER, no DROP.
jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../../..');
const STAFF = { email: 'owner-of-nothing@example.com', password: 'restricted-role-1' };
const suffix = `${process.pid}_${Date.now()}`;
const OWNER_ROLE = `t_owner_${suffix}`;
const API_ROLE = `t_api_${suffix}`;
const DATABASE = `api_role_${suffix}`;

/** A URL of the test server for `role` on the throwaway database (trust authentication: no password). */
const urlAs = (role: string) => {
  const url = new URL(PG_ADMIN_URL);
  url.username = role;
  url.pathname = `/${DATABASE}`;
  return url.toString();
};

async function asAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** `npm run migrate` as the deployment runs it. */
function runMigrate(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/migrate.ts'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The next weekday at least `days` days ahead (GMT+8), YYYY-MM-DD. */
function weekdayAhead(days: number): string {
  let day = dayjs(todayInMY()).add(days, 'day');
  while (isWeekend(day.format('YYYY-MM-DD'))) day = day.add(1, 'day');
  return day.format('YYYY-MM-DD');
}

describe('the API as a role that owns nothing (PostgreSQL)', () => {
  const children: ChildProcess[] = [];
  let apis: Server[] = [];

  beforeAll(async () => {
    await asAdmin(`CREATE ROLE ${OWNER_ROLE} LOGIN`);
    await asAdmin(`CREATE ROLE ${API_ROLE} LOGIN`);
    await asAdmin(`CREATE DATABASE ${DATABASE} OWNER ${OWNER_ROLE}`);
  });
  afterAll(async () => {
    await stopAll(children);
    removeProcessDirs();
    await asAdmin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await asAdmin(`DROP ROLE IF EXISTS ${API_ROLE}`);
    await asAdmin(`DROP ROLE IF EXISTS ${OWNER_ROLE}`);
  });

  it('the owner migrates (npm run migrate, or at start with MIGRATION_DATABASE_URL); the API role alone then starts and works', async () => {
    const migrated = await runMigrate({ MIGRATION_DATABASE_URL: urlAs(OWNER_ROLE), DATABASE_URL: urlAs(API_ROLE) });
    expect(migrated.out).toContain('Migrations applied:');
    expect(migrated.code).toBe(0);

    const env = { DATABASE_URL: urlAs(API_ROLE), ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password, SEED_DEMO: 'true', RECONCILE_INTERVAL_MS: '600000', MAIL_POLL_MS: '600000' };
    // One process with only its own role (nothing pending: it creates nothing); one that migrates as the owner at start.
    const a = await startApiProcess('api-role', env);
    children.push(a.child);
    const b = await startApiProcess('api-role', { ...env, MIGRATION_DATABASE_URL: urlAs(OWNER_ROLE) });
    children.push(b.child);
    apis = [a, b];
    expect(b.output()).not.toContain('Migrations applied');

    // Staff log in (sessions, rate counters, the audit trail), add a slot and book one directly.
    const login = await json(await fetch(`${a.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(STAFF) }));
    const staff = { authorization: `Bearer ${login.data.token}`, 'content-type': 'application/json' };
    const added = await fetch(`${b.base}/slot/add`, { method: 'POST', headers: staff, body: JSON.stringify({ date: weekdayAhead(40), startTime: '07:00', endTime: '07:30' }) });
    expect(added.status).toBe(201);
    const free: { id: number; date: string; startTime: string }[] = (await json(await fetch(`${a.base}/public/list?limit=100&page=1`))).data.slots;
    const visitor = { visitorName: 'Restricted Role', visitorContactNo: '0123456700', selectedSchool: 'Seri Ilmu International', childName: 'Adam Firdaus', childYear: 'Year 7' };
    const direct = await fetch(`${b.base}/slot/${free[0].id}`, { method: 'PUT', headers: staff, body: JSON.stringify({ ...visitor, visitorEmail: 'direct@example.com' }) });
    expect(direct.status).toBe(200);

    // A parent pays on the sandbox gateway: hold, payment, gateway session, signed callback, booking, mail outbox.
    const slot = free[1];
    const started = await json(
      await fetch(`${a.base}/api/payment/initiate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...visitor, visitorEmail: 'parent@example.com', visitorContactNo: '0123456701', slotId: slot.id, fee: 10000, slotDate: slot.date, slotStartTime: slot.startTime, consent: currentConsent() }),
      }),
    );
    const { id: paymentId, checkoutUrl } = started.data.paymentSession as { id: string; checkoutUrl: string };
    const paid = await fetch(checkoutUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay&method=fpx', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const status = await waitFor(async () => {
      const body = await json(await fetch(`${b.base}/api/payment/status/${paymentId}`));
      return body.data.booking.confirmed ? body : undefined;
    }, 30_000, 250);
    expect(status.data.payment.status).toBe('completed');
    // The confirmation mails leave through pg-boss's queue, whose schema (made by the owner's migration) the role only uses.
    const mail = new pg.Client({ connectionString: urlAs(API_ROLE) });
    await mail.connect();
    try {
      await waitFor(async () => {
        const { rows } = await mail.query(`SELECT status FROM mail_outbox WHERE payment_id = $1`, [paymentId]);
        return rows.length === 2 && rows.every((r: { status: string }) => r.status === 'sent');
      }, 30_000, 250);
      const jobs = await mail.query(`SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'mail' GROUP BY state`);
      expect(jobs.rows).toEqual([{ state: 'completed', n: 2 }]);
    } finally {
      await mail.end();
    }

    // The audit trail is written and read by the API's role.
    const audit = await json(await fetch(`${a.base}/staff/audit?limit=100`, { headers: staff }));
    expect(audit.data.rows.map((r: { action: string }) => r.action)).toEqual(expect.arrayContaining(['login', 'slot_created', 'booking_direct']));
  });

  it('the API role owns nothing and cannot change the audit trail, switch off its trigger or drop it', async () => {
    expect(apis).toHaveLength(2);
    const api = new pg.Client({ connectionString: urlAs(API_ROLE) });
    await api.connect();
    try {
      const count = async () => Number((await api.query('SELECT count(*) AS n FROM audit_log')).rows[0].n);
      const before = await count();
      expect(before).toBeGreaterThanOrEqual(3);
      const owned = await api.query(`SELECT count(*)::int AS n FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)`);
      expect(owned.rows[0].n).toBe(0);
      for (const attack of [
        "UPDATE audit_log SET actor = 'nobody'",
        'DELETE FROM audit_log',
        'TRUNCATE audit_log',
        'ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update_delete',
        'ALTER TABLE audit_log DISABLE TRIGGER ALL',
        'DROP TRIGGER audit_log_no_update_delete ON audit_log',
        'DROP TABLE audit_log',
        `ALTER TABLE audit_log OWNER TO ${API_ROLE}`,
        'CREATE TRIGGER sneaky BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()',
        'DROP FUNCTION audit_log_append_only() CASCADE',
        "INSERT INTO schema_migrations (version, name) VALUES ('9999', 'fake.sql')",
        'CREATE TABLE IF NOT EXISTS scratch (id int)',
      ]) {
        await expect(api.query(attack)).rejects.toMatchObject({ code: '42501' });
      }
      expect(await count()).toBe(before);
      // It still appends, as every action does (recordAudit declares the actor in the same transaction: migration 0030).
      await api.query('BEGIN');
      await api.query("SELECT set_config('app.actor', 'system', true)");
      await api.query("INSERT INTO audit_log (actor, action) VALUES ('system', 'login')");
      await api.query('COMMIT');
      expect(await count()).toBe(before + 1);
    } finally {
      await api.end();
    }
  });

  it('refuses to "restrict" the owner itself', async () => {
    const handle = await openDatabase({ driver: 'postgres', url: urlAs(OWNER_ROLE), poolSize: 1 });
    try {
      await expect(migrateAsOwner(urlAs(OWNER_ROLE), handle)).rejects.toThrow(/both connect as/);
    } finally {
      await handle.close();
    }
  });
});
