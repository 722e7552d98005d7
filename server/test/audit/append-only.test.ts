import { sql } from 'drizzle-orm';
import { AUDIT_ACTIONS } from 'shared-api/contract';
import { recordAudit } from '../../src/audit/record';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { createThrowawayPostgres, freshPglite, queryRows } from '../helpers';

// An app on a fresh database (the first test file to need one makes the cached dump: migrations and pg-boss).
jest.setTimeout(60_000);

type Row = { id: string; actor: string; action: string; target: string | null; detail: unknown; ip: string | null };

describe.each(['pglite', 'postgres'] as const)('audit_log is append-only (%s)', (driver) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (driver === 'postgres') {
      const pgdb = await createThrowawayPostgres('audit_append');
      drop = pgdb.drop;
      database = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 });
    } else {
      database = await freshPglite();
    }
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  /** The database's own message (drizzle wraps it in a "Failed query" error). */
  const refusal = async (statement: ReturnType<typeof sql>): Promise<string> => {
    try {
      await database.db.execute(statement);
    } catch (err) {
      const e = err as Error & { cause?: Error };
      return `${e.message} ${e.cause?.message ?? ''}`;
    }
    return 'accepted';
  };
  const all = () => queryRows<Row>(database, sql`SELECT id, actor, action, target, detail, ip FROM audit_log ORDER BY id`);

  it('records an entry with its detail, and refuses UPDATE, DELETE and TRUNCATE', async () => {
    await recordAudit(database.db, { actor: 'staff@example.com', actorUserId: 1, action: 'slot_created', target: 42, detail: { start: 'x' }, ip: '10.0.0.1' });
    const before = await all();
    expect(before).toEqual([
      expect.objectContaining({ actor: 'staff@example.com', action: 'slot_created', target: '42', detail: { start: 'x' }, ip: '10.0.0.1' }),
    ]);
    expect(await refusal(sql`UPDATE audit_log SET actor = 'someone else'`)).toMatch(/audit_log is append-only \(UPDATE refused\)/);
    expect(await refusal(sql`DELETE FROM audit_log`)).toMatch(/audit_log is append-only \(DELETE refused\)/);
    expect(await refusal(sql`TRUNCATE audit_log`)).toMatch(/audit_log is append-only \(TRUNCATE refused\)/);
    expect(await all()).toEqual(before);
  });

  it('refuses an action outside the list', async () => {
    await expect(recordAudit(database.db, { actor: 'x', action: 'dropped_tables' as never })).rejects.toThrow();
  });

  it('rolls back with the transaction it was written in', async () => {
    const count = (await all()).length;
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx, { actor: 'system', action: 'slot_deleted', target: 1 });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await all()).toHaveLength(count);
  });
});

it("the table's CHECK, as the migrations leave it, lists exactly the contract's actions", async () => {
  // Read from the migrated database: a later migration (0016) widens the CHECK that 0009 made.
  const database = await freshPglite();
  try {
    const [{ definition }] = await queryRows<{ definition: string }>(
      database,
      sql`SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'audit_log_action_check'`,
    );
    expect([...definition.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort()).toEqual([...AUDIT_ACTIONS].sort());
  } finally {
    await database.close();
  }
});
