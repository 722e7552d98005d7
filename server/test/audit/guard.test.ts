import { sql } from 'drizzle-orm';
import pg from 'pg';
import { recordAudit } from '../../src/audit/record';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrateAsOwner } from '../../src/base/db/migrate';
import { anonymiseAuditEntries, anonymiseDueAuditEntries } from '../../src/privacy/anonymise-records';
import { PG_ADMIN_URL, queryRows } from '../helpers';

// Issue 35 (the record of who did what), migration 0030: as the API's own PostgreSQL role (owning nothing; an owner
// role migrated), a record's time is the database's, its actor is the one its transaction declared through
// recordAudit, and "to whom" can be anonymised only on a record old enough for retention.
jest.setTimeout(120_000);

const suffix = `${process.pid}_${Date.now()}`;
const OWNER_ROLE = `t_gowner_${suffix}`;
const API_ROLE = `t_gapi_${suffix}`;
const DATABASE = `audit_guard_${suffix}`;
const DAY = 86_400_000;

const urlAs = (role: string) => {
  const url = new URL(PG_ADMIN_URL);
  url.username = role;
  url.pathname = `/${DATABASE}`;
  return url.toString();
};

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

type Row = { id: string; at: string; actor: string; actor_user_id: number | null; target: string | null; detail: unknown };

describe('the audit trail as the API role sees it (PostgreSQL)', () => {
  let api: DatabaseHandle;
  let owner: DatabaseHandle;
  /** Raw statements as the API role, one transaction each (what a stolen connection could send). */
  let raw: pg.Client;

  beforeAll(async () => {
    await asAdmin(`CREATE ROLE ${OWNER_ROLE} LOGIN`);
    await asAdmin(`CREATE ROLE ${API_ROLE} LOGIN`);
    await asAdmin(`CREATE DATABASE ${DATABASE} OWNER ${OWNER_ROLE}`);
    api = await openDatabase({ driver: 'postgres', url: urlAs(API_ROLE), poolSize: 2 });
    await migrateAsOwner(urlAs(OWNER_ROLE), api);
    owner = await openDatabase({ driver: 'postgres', url: urlAs(OWNER_ROLE), poolSize: 1 });
    raw = new pg.Client({ connectionString: urlAs(API_ROLE) });
    await raw.connect();
  });
  afterAll(async () => {
    await raw?.end();
    await api?.close();
    await owner?.close();
    await asAdmin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await asAdmin(`DROP ROLE IF EXISTS ${API_ROLE}`);
    await asAdmin(`DROP ROLE IF EXISTS ${OWNER_ROLE}`);
  });

  const all = () => queryRows<Row>(owner, sql`SELECT id, at, actor, actor_user_id, target, detail FROM audit_log ORDER BY id`);
  const byId = async (id: string | number) => (await queryRows<Row>(owner, sql`SELECT id, at, actor, actor_user_id, target, detail FROM audit_log WHERE id = ${id}`))[0];
  const dbNow = async () => new Date((await queryRows<{ now: string }>(owner, sql`SELECT now() AS now`))[0].now).getTime();
  /** One transaction of raw statements as the API role; the database's refusal (code and message) or 'accepted'. */
  const attempt = async (...statements: string[]): Promise<string> => {
    try {
      await raw.query('BEGIN');
      for (const s of statements) await raw.query(s);
      await raw.query('COMMIT');
      return 'accepted';
    } catch (err) {
      await raw.query('ROLLBACK');
      const e = err as { code?: string; message: string };
      return `${e.code} ${e.message}`;
    }
  };

  it('the honest path records: recordAudit names its actor and the database stamps the time', async () => {
    const before = await dbNow();
    await recordAudit(api.db, { actor: 'staff@example.com', actorUserId: 7, action: 'slot_created', target: 42, detail: { start: 'x' }, ip: '10.0.0.1' });
    await api.db.transaction(async (tx) => {
      await recordAudit(tx, { actor: 'parent', action: 'parent_cancelled', target: 'PAY-1' });
      await recordAudit(tx, { actor: 'system', action: 'retention_applied' });
    });
    const rows = await all();
    expect(rows.map((r) => [r.actor, r.actor_user_id, r.target, r.detail])).toEqual([
      ['staff@example.com', 7, '42', { start: 'x' }],
      ['parent', null, 'PAY-1', null],
      ['system', null, null, null],
    ]);
    for (const r of rows) expect(Math.abs(new Date(r.at).getTime() - before)).toBeLessThan(60_000);
  });

  it('a back-dated record gets the time it was written, not the one supplied', async () => {
    const before = await dbNow();
    expect(
      await attempt(
        "SELECT set_config('app.actor', 'system', true)",
        "INSERT INTO audit_log (at, actor, action, target) VALUES ('2020-01-01T00:00:00Z', 'system', 'slot_deleted', 'back-dated')",
      ),
    ).toBe('accepted');
    const [row] = (await all()).filter((r) => r.target === 'back-dated');
    expect(new Date(row.at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(row.at).getTime() - before).toBeLessThan(60_000);
  });

  it('a record in another person\'s name is refused, and nothing is written', async () => {
    const count = (await all()).length;
    for (const forged of [
      // No actor declared: the statement alone names someone.
      ["INSERT INTO audit_log (actor, action) VALUES ('head@example.com', 'account_disabled')"],
      // Declared one actor, wrote another.
      ["SELECT set_config('app.actor', 'clerk@example.com', true)", "INSERT INTO audit_log (actor, action) VALUES ('head@example.com', 'account_disabled')"],
      // The right email on another person's account.
      [
        "SELECT set_config('app.actor', 'clerk@example.com', true)",
        "SELECT set_config('app.actor_user_id', '3', true)",
        "INSERT INTO audit_log (actor, actor_user_id, action) VALUES ('clerk@example.com', 1, 'account_disabled')",
      ],
      // A declaration of an earlier transaction does not carry over (set by recordAudit for its own transaction only).
      ["INSERT INTO audit_log (actor, action) VALUES ('parent', 'parent_cancelled')"],
    ])
      expect(await attempt(...forged)).toMatch(/^42501 audit_log: the actor is not the one this transaction declared/);
    expect(await all()).toHaveLength(count);
  });

  it('anonymising a recent record is refused; an old one (written by the owner a year ago) is allowed', async () => {
    await recordAudit(api.db, { actor: 'staff@example.com', action: 'privacy_person_viewed', target: 'aina@example.com', detail: { email: 'aina@example.com' } });
    const recent = (await all()).at(-1)!;
    const [old] = await queryRows<Row>(
      owner,
      sql`INSERT INTO audit_log (at, actor, action, target, detail) VALUES (${new Date(Date.now() - 365 * DAY).toISOString()}, 'staff@example.com', 'privacy_person_viewed', 'aina@example.com', '{"email": "aina@example.com"}') RETURNING id, at, actor, actor_user_id, target, detail`,
    );
    const anonymise = (id: string) => `UPDATE audit_log SET target = '[anonymised]', detail = '{"email": "[anonymised]"}' WHERE id = ${id}`;
    expect(await attempt(anonymise(recent.id))).toMatch(/^42501 audit_log: record \d+ is too recent to anonymise/);
    expect(await attempt(`UPDATE audit_log SET target = '[anonymised]' WHERE id = ${recent.id}`)).toMatch(/^42501 .*too recent/);
    expect(await byId(recent.id)).toEqual(recent);
    expect(await attempt(anonymise(old.id))).toBe('accepted');
    expect(await byId(old.id)).toEqual({ ...old, target: '[anonymised]', detail: { email: '[anonymised]' } });
  });

  it("retention as the API role anonymises the old entries naming a person now and keeps a recent one's values waiting until it is old enough", async () => {
    const person = { reference: 'PAY-GUARD-1', name: 'Tan Mei Ling', email: 'mei@example.com', phone: '0123456789', child: 'Tan Wei' };
    const [old] = await queryRows<{ id: string }>(
      owner,
      sql`INSERT INTO audit_log (at, actor, action, target, detail) VALUES (${new Date(Date.now() - 400 * DAY).toISOString()}, 'staff@example.com', 'booking_cancelled_by_staff', ${person.reference}, ${JSON.stringify({ visitor: { name: person.name, email: person.email } })}::jsonb) RETURNING id`,
    );
    await recordAudit(api.db, { actor: 'staff@example.com', action: 'privacy_person_viewed', target: person.email, detail: { email: person.email, phone: person.phone } });
    const recent = (await all()).at(-1)!;
    const changed = await api.db.transaction((tx) => anonymiseAuditEntries(tx, [person], new Date()));
    expect(changed).toBe(1);
    expect((await byId(old.id)).detail).toEqual({ visitor: { name: '[anonymised]', email: '[anonymised]' } });
    expect(await byId(recent.id)).toEqual(recent);
    const [waiting] = await queryRows<{ vals: string[] }>(owner, sql`SELECT vals FROM audit_anonymise_pending WHERE audit_id = ${recent.id}`);
    expect([...waiting.vals].sort()).toEqual([person.child, person.email, person.name, person.phone].sort());
    // Not yet old enough: a later run leaves it waiting.
    expect(await api.db.transaction((tx) => anonymiseDueAuditEntries(tx, new Date()))).toBe(0);
    expect(await byId(recent.id)).toEqual(recent);

    // An entry left waiting that has come of age (dated by the owner here) is anonymised by the next run, and leaves the queue.
    const [aged] = await queryRows<{ id: string }>(
      owner,
      sql`INSERT INTO audit_log (at, actor, action, target, detail) VALUES (${new Date(Date.now() - 200 * DAY).toISOString()}, 'staff@example.com', 'privacy_person_viewed', ${person.email}, ${JSON.stringify({ phone: person.phone })}::jsonb) RETURNING id`,
    );
    await owner.db.execute(sql`INSERT INTO audit_anonymise_pending (audit_id, vals) VALUES (${aged.id}, ${sql.param([person.email, person.phone])}::text[])`);
    expect(await api.db.transaction((tx) => anonymiseDueAuditEntries(tx, new Date()))).toBe(1);
    expect(await byId(aged.id)).toMatchObject({ target: '[anonymised]', detail: { phone: '[anonymised]' } });
    expect(await queryRows(owner, sql`SELECT audit_id FROM audit_anonymise_pending ORDER BY audit_id`)).toEqual([{ audit_id: recent.id }]);
  });
});
