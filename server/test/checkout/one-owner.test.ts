import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Issue 34: the checkout (server/src/checkout) is the only writer of a slot's hold: its hold columns, the numbering of
// its freeings and the hold time granted (hold_grants). Any other file that writes them is a door around the hold rules.

const SRC = path.join(__dirname, '../../src');
const OWNER = path.join(SRC, 'checkout');
const HOLD_KEYS = ['holdTokenHash', 'holdExpiresAt', 'holdClient', 'holdEmail', 'holdPhone', 'freedSeq'];
const HOLD_COLUMNS = ['hold_token_hash', 'hold_expires_at', 'hold_client', 'hold_email', 'hold_phone', 'freed_seq'];

/** What in `source` writes a slot's hold (Drizzle or SQL), as short descriptions; empty when nothing does. */
export function holdWrites(source: string): string[] {
  const found: string[] = [];
  // Drizzle: .update(slots)...set({ ... }) and .insert(slots).values({ ... }) naming a hold key.
  for (const m of source.matchAll(/\.(update\(slots\)[\s\S]{0,80}?\.set|insert\(slots\)[\s\S]{0,40}?\.values)\(\s*(\{[\s\S]*?\}|\[[\s\S]*?\])\s*\)/g)) {
    const keys = HOLD_KEYS.filter((k) => new RegExp(`\\b${k}\\s*:`).test(m[2]));
    if (keys.length) found.push(`drizzle ${m[1].startsWith('update') ? 'update' : 'insert'} of ${keys.join(', ')}`);
  }
  // SQL: UPDATE slots ... SET <list> (up to WHERE / FROM / RETURNING) and INSERT INTO slots (<columns>).
  for (const m of source.matchAll(/UPDATE\s+slots\b[\s\S]*?\bSET\b([\s\S]*?)(\bWHERE\b|\bFROM\b|\bRETURNING\b|`)/gi)) {
    const columns = HOLD_COLUMNS.filter((c) => new RegExp(`\\b${c}\\s*=`).test(m[1]));
    if (columns.length) found.push(`SQL update of ${columns.join(', ')}`);
  }
  for (const m of source.matchAll(/INSERT\s+INTO\s+slots\s*\(([^)]*)\)/gi)) {
    const columns = HOLD_COLUMNS.filter((c) => m[1].includes(c));
    if (columns.length) found.push(`SQL insert of ${columns.join(', ')}`);
  }
  // The hold time granted: only the checkout writes it.
  if (/\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+hold_grants\b/i.test(source) || /\.(update|insert|delete)\(holdGrants\)/.test(source)) found.push('a write of hold_grants');
  return found;
}

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|sql)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });

describe('one owner of a slot’s hold', () => {
  it('no file outside server/src/checkout writes a slot’s hold columns, its freeing number or its hold time', () => {
    const writers = sources(SRC)
      .filter((file) => !file.startsWith(OWNER + path.sep) && !file.includes(`${path.sep}migrations${path.sep}`))
      .flatMap((file) => holdWrites(readFileSync(file, 'utf8')).map((what) => `${path.relative(SRC, file)}: ${what}`));
    expect(writers).toEqual([]);
  });

  it('the checkout itself writes them (the scan finds writers where they are)', () => {
    const inCheckout = sources(OWNER).flatMap((file) => holdWrites(readFileSync(file, 'utf8')));
    expect(inCheckout).toEqual(expect.arrayContaining([expect.stringContaining('holdTokenHash'), expect.stringContaining('hold_token_hash'), 'a write of hold_grants']));
  });

  it('the rule bites: each way of writing a hold is found, reads are not', () => {
    expect(holdWrites("await tx.update(slots).set({ holdTokenHash: null, holdExpiresAt: x }).where(eq(slots.id, 1));")).toEqual([
      'drizzle update of holdTokenHash, holdExpiresAt',
    ]);
    expect(holdWrites('await db.insert(slots).values({ startAt, endAt, holdClient: "x" });')).toEqual(['drizzle insert of holdClient']);
    expect(holdWrites('sql`UPDATE slots SET hold_token_hash = NULL, hold_expires_at = NULL WHERE id = ${id}`')).toEqual([
      'SQL update of hold_token_hash, hold_expires_at',
    ]);
    expect(holdWrites('sql`INSERT INTO slots (start_at, end_at, hold_token_hash) VALUES (1, 2, 3)`')).toEqual(['SQL insert of hold_token_hash']);
    expect(holdWrites('sql`UPDATE hold_grants SET ends_at = now()`')).toEqual(['a write of hold_grants']);
    // Reading the hold, or writing other columns of a slot, is not a write of the hold.
    expect(holdWrites('sql`SELECT id FROM slots WHERE hold_token_hash = ${h} AND hold_expires_at > now()`')).toEqual([]);
    expect(holdWrites("sql`UPDATE slots SET deleted_at = now() WHERE id = ${id} AND (hold_expires_at IS NULL OR hold_expires_at <= now())`")).toEqual([]);
    expect(holdWrites('await db.update(slots).set({ deletedAt: sql`now()` }).where(and(eq(slots.id, 1), noLiveHold));')).toEqual([]);
  });
});
