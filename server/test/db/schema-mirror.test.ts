import { integer, pgTable, text, timestamp, uniqueIndex, type PgTable } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { createThrowawayPostgres, freshPglite } from '../helpers';
import { databaseShape, drizzleShape, drizzleTables, tableModules } from './schema-shape';

// One schema source: the SQL migrations make the database; the Drizzle tables (typed queries) must describe exactly
// what they made. A change to one without the other fails here with the difference (server/src/base/db/README.md).
jest.setTimeout(60_000);

/** Tables only raw SQL touches (the migration bookkeeping). */
const SQL_ONLY = ['schema_migrations'];

describe('the Drizzle schema and the migrated database', () => {
  it('finds every table file under server/src', () => {
    const names = Object.keys(drizzleShape(drizzleTables()));
    expect(tableModules().map((f) => f.replace(/.*server\/src\//, '')).sort()).toEqual(
      expect.arrayContaining(['base/db/tables.ts', 'auth/tables.ts', 'slots/tables.ts', 'payments/tables.ts', 'mail/tables.ts', 'bookings/tables.ts', 'calendar/tables.ts', 'audit/table.ts']),
    );
    expect(names).toEqual(expect.arrayContaining(['slots', 'payments', 'mail_outbox', 'calendar_feeds', 'audit_log']));
  });

  it('agree on PGlite: tables, columns, types, NOT NULL, defaults, primary keys and unique keys', async () => {
    const database = await freshPglite();
    try {
      expect(drizzleShape()).toEqual(await databaseShape(database, SQL_ONLY));
    } finally {
      await database.close();
    }
  });

  it('agree on PostgreSQL', async () => {
    const throwaway = await createThrowawayPostgres('schema_mirror');
    let database: DatabaseHandle | undefined;
    try {
      database = await openDatabase({ driver: 'postgres', url: throwaway.url, poolSize: 1 });
      await migrate(database);
      expect(drizzleShape()).toEqual(await databaseShape(database, SQL_ONLY));
    } finally {
      await database?.close();
      await throwaway.drop();
    }
  });

  it('tells a column, a default, a primary key or a unique key that differs', async () => {
    const database = await freshPglite();
    try {
      const migrated = (await databaseShape(database, SQL_ONLY)).app_secrets;
      const shapeOf = (table: PgTable) => drizzleShape([table]).app_secrets;
      const name = () => text('name').primaryKey();
      const value = () => text('value').notNull();
      const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
      expect(shapeOf(pgTable('app_secrets', { name: name(), value: value(), createdAt: createdAt() }))).toEqual(migrated);
      expect(shapeOf(pgTable('app_secrets', { name: name(), value: text('value'), createdAt: createdAt() }))).not.toEqual(migrated);
      expect(shapeOf(pgTable('app_secrets', { name: name(), value: integer('value').notNull(), createdAt: createdAt() }))).not.toEqual(migrated);
      expect(shapeOf(pgTable('app_secrets', { name: name(), value: value().default('x'), createdAt: createdAt() }))).not.toEqual(migrated);
      expect(shapeOf(pgTable('app_secrets', { name: text('name').notNull(), value: text('value').primaryKey(), createdAt: createdAt() }))).not.toEqual(
        migrated,
      );
      const partial = pgTable('app_secrets', { name: name(), value: value(), createdAt: createdAt() }, (t) => [
        uniqueIndex('app_secrets_value_uq').on(t.value).where(sql`value <> ''`),
      ]);
      expect(shapeOf(partial)).not.toEqual(migrated);
    } finally {
      await database.close();
    }
  });
});
