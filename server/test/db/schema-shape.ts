import fs from 'node:fs';
import path from 'node:path';
import { is, SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import type { DatabaseHandle } from '../../src/base/db/connection';

/**
 * A table as both sides can describe it: columns (type, NOT NULL, default), primary key and unique column sets (unique
 * constraints and unique indexes, a partial one with its predicate). Foreign keys, checks, plain indexes and triggers
 * stay the SQL's alone: typed queries do not need them.
 */
export type TableShape = {
  columns: Record<string, { type: string; notNull: boolean; default: string | null }>;
  primaryKey: string[];
  unique: string[];
};
export type SchemaShape = Record<string, TableShape>;

const SRC = path.resolve(__dirname, '../../src');

/** Every module under server/src that declares a table (`pgTable(`), so a new table file cannot be left out. */
export function tableModules(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : tableModules(file);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && fs.readFileSync(file, 'utf8').includes('pgTable(') ? [file] : [];
  });
}

/** The Drizzle tables those modules export. */
export function drizzleTables(modules = tableModules()): PgTable[] {
  const tables = new Set<PgTable>();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the list of modules is found at run time
  for (const file of modules) for (const value of Object.values(require(file) as Record<string, unknown>)) if (is(value, PgTable)) tables.add(value);
  return [...tables];
}

const dialect = new PgDialect();
const sqlText = (value: SQL): string => dialect.sqlToQuery(value).sql;
/** A predicate or default as text both sides agree on: no parentheses, one space, no casts of a literal. */
const normalize = (text: string): string =>
  text
    .replace(/::[a-z_]+( with(out)? time zone)?(\[\])?/g, '')
    .replace(/[()]/g, '')
    .replace(/"/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
const uniqueKey = (columns: string[], where?: string): string => `(${columns.join(', ')})${where ? ` WHERE ${normalize(where)}` : ''}`;

/** serial and bigserial are integer and bigint with a sequence's default. */
const SERIAL: Record<string, string> = { serial: 'integer', bigserial: 'bigint' };

function drizzleDefault(column: PgColumn, table: string): string | null {
  const type = column.getSQLType();
  if (SERIAL[type]) return normalize(`nextval('${table}_${column.name}_seq')`);
  if (!column.hasDefault || column.default === undefined) return null;
  const value: unknown = column.default;
  if (is(value, SQL)) return normalize(sqlText(value));
  if (typeof value === 'string') return normalize(`'${value.replace(/'/g, "''")}'`);
  if (value === null) return 'null';
  return normalize(String(value));
}

/** The Drizzle mirror's shape. */
export function drizzleShape(tables = drizzleTables()): SchemaShape {
  const shape: SchemaShape = {};
  for (const table of tables) {
    const config = getTableConfig(table);
    const columns: TableShape['columns'] = {};
    const unique: string[] = [];
    let primaryKey = config.primaryKeys[0]?.columns.map((c) => c.name) ?? [];
    for (const column of config.columns) {
      const type = column.getSQLType();
      columns[column.name] = { type: SERIAL[type] ?? type, notNull: column.notNull, default: drizzleDefault(column, config.name) };
      if (column.primary) primaryKey = [column.name];
      if (column.isUnique) unique.push(uniqueKey([column.name]));
    }
    for (const u of config.uniqueConstraints) unique.push(uniqueKey(u.columns.map((c) => c.name)));
    for (const index of config.indexes) {
      if (!index.config.unique) continue;
      const names = index.config.columns.map((c) => (is(c, SQL) ? sqlText(c) : (c as PgColumn).name));
      unique.push(uniqueKey(names, index.config.where ? sqlText(index.config.where) : undefined));
    }
    shape[config.name] = { columns, primaryKey, unique: unique.sort() };
  }
  return shape;
}

type Row = Record<string, unknown>;

/** The migrated database's shape (schema `public`), read from the catalogue; `ignore`: tables left out on purpose. */
export async function databaseShape(database: DatabaseHandle, ignore: readonly string[] = []): Promise<SchemaShape> {
  return database.rawTransaction(async (exec) => {
    const query = async (text: string) => (await exec(text, [])).rows as Row[];
    const columns = await query(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
             pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`);
    // Primary keys and unique indexes (a UNIQUE constraint has one): their columns in order and a partial one's predicate.
    const indexes = await query(`
      SELECT c.relname AS table, i.indisprimary AS primary, pg_get_expr(i.indpred, i.indrelid) AS where,
             ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, pos)
                   JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.pos)::text[] AS columns
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE i.indisunique`);
    const shape: SchemaShape = {};
    const tableOf = (name: string) => (shape[name] ??= { columns: {}, primaryKey: [], unique: [] });
    for (const row of columns) {
      if (ignore.includes(String(row.table))) continue;
      tableOf(String(row.table)).columns[String(row.column)] = {
        type: String(row.type),
        notNull: Boolean(row.not_null),
        default: row.default === null ? null : normalize(String(row.default)),
      };
    }
    for (const row of indexes) {
      if (ignore.includes(String(row.table))) continue;
      const names = Array.isArray(row.columns) ? (row.columns as string[]) : String(row.columns).replace(/[{}]/g, '').split(',');
      const table = tableOf(String(row.table));
      if (row.primary) table.primaryKey = names;
      else table.unique.push(uniqueKey(names, row.where ? String(row.where) : undefined));
    }
    for (const table of Object.values(shape)) table.unique.sort();
    return shape;
  });
}
