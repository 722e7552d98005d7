// The releases folders of a bundle and the one-time move of an older layout (issue 35): what the release commands
// (release.ts) read and write, and what `npm start` (product.ts) checks before serving. No build tooling here: the
// start-up loads this file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { releasesDirOf, releasesRoot, releasesStateRoot } from './bundles';
import type { BundleName } from './rspack-common';
import { emptyPointer, parsePointer, parsePublished, POINTER_FILE, published, RECORD_FILE, type Pointer, type PublishedPointer } from '../shell/server/releases';

/**
 * Where one bundle's releases live. `served`: the folder its host serves at `<address>/releases/` (one folder per
 * version and the pointer `live.json`, nobody's name). `state`: a folder nothing serves, with the record of every
 * release and step and who took it (`releases.json`) and the lock of a running command (`releases.lock`: pid and host).
 */
export type ReleaseDirs = { served: string; state: string };

export const LOCK_FILE = 'releases.lock';

/** `root` given without `stateRoot` (a test's folder, `--from` in CI): the state goes to `<root>/state`. */
export const releaseDirs = (bundle: BundleName, root?: string, stateRoot?: string): ReleaseDirs => ({
  served: releasesDirOf(bundle, root ?? releasesRoot()),
  state: path.join(stateRoot ?? (root === undefined ? releasesStateRoot() : path.join(root, 'state')), bundle),
});

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;

/** Before issue 35 the record (with people's emails) was the served folder's `releases.json`. */
const legacyRecordFile = (dirs: ReleaseDirs) => path.join(dirs.served, RECORD_FILE);

/**
 * The published pointer of a bundle (what its host serves and the shell reads): `live.json`, or the record of an
 * older layout not yet moved; empty when it has no releases.
 */
export function readPublished(served: string, bundle: BundleName): PublishedPointer {
  const file = path.join(served, POINTER_FILE);
  if (fs.existsSync(file)) return parsePublished(readJson(file), bundle);
  const legacy = path.join(served, RECORD_FILE);
  if (fs.existsSync(legacy)) return published(parsePointer(readJson(legacy), bundle));
  return emptyPointer(bundle);
}

/**
 * The record of a bundle: its state folder's `releases.json`; else an older layout's in the served folder; else,
 * with only a published pointer (a state folder lost or new), that pointer, whose steps then name nobody.
 */
export function readPointer(dirs: ReleaseDirs, bundle: BundleName): Pointer {
  const file = path.join(dirs.state, RECORD_FILE);
  if (fs.existsSync(file)) return parsePointer(readJson(file), bundle);
  if (fs.existsSync(legacyRecordFile(dirs))) return parsePointer(readJson(legacyRecordFile(dirs)), bundle);
  const pointer = readPublished(dirs.served, bundle);
  const nobody = '(not recorded)';
  return { ...pointer, releases: pointer.releases.map((r) => ({ ...r, by: nobody })), history: pointer.history.map((h) => ({ ...h, by: nobody })) };
}

/** Written to a temporary file and renamed: a reader sees the old file or the new one, never half of one. */
function writeJson(dir: string, name: string, value: unknown): void {
  fs.mkdirSync(dir, { recursive: true });
  const temporary = path.join(dir, `.${name}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, path.join(dir, name));
}

/**
 * The record to the state folder, then the pointer without names to the served folder (last: it makes the step
 * live). An older layout's `releases.json` in the served folder is then removed.
 */
export function writePointer(dirs: ReleaseDirs, pointer: Pointer): void {
  writeJson(dirs.state, RECORD_FILE, pointer);
  writeJson(dirs.served, POINTER_FILE, published(pointer));
  fs.rmSync(legacyRecordFile(dirs), { force: true });
}

/**
 * The one-time move of an older layout (issue 35): the served folder's `releases.json`, with who released what, goes
 * to the state folder, and the served folder gets `live.json`. Run by every command that changes releases, under the
 * lock. When the state folder already has a record, the longer history wins (an older command ran since).
 */
export function migrateLayout(dirs: ReleaseDirs, bundle: BundleName, log: (line: string) => void = console.log): void {
  const legacy = legacyRecordFile(dirs);
  if (!fs.existsSync(legacy)) return;
  const old = parsePointer(readJson(legacy), bundle);
  const stateFile = path.join(dirs.state, RECORD_FILE);
  const current = fs.existsSync(stateFile) ? parsePointer(readJson(stateFile), bundle) : undefined;
  writePointer(dirs, current && current.history.length >= old.history.length ? current : old);
  log(`${bundle}: moved ${RECORD_FILE} (who released what) from ${dirs.served} to ${dirs.state}; ${dirs.served} now publishes ${POINTER_FILE}`);
}

/**
 * One release command at a time per bundle: `releases.lock` in the state folder is created exclusively (a second
 * command is refused and told who holds it); a lock older than 30 minutes is taken as left by a crashed command. An
 * older layout's lock in the served folder counts too (a command of the previous version running), and is removed
 * once stale.
 */
export async function withLock<T>(dirs: ReleaseDirs, work: () => Promise<T> | T): Promise<T> {
  fs.mkdirSync(dirs.state, { recursive: true });
  const lock = path.join(dirs.state, LOCK_FILE);
  for (const file of [lock, path.join(dirs.served, LOCK_FILE)]) {
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > 30 * 60_000) fs.rmSync(file, { force: true });
    } catch {
      // no lock
    }
  }
  const held = (file: string) => new Error(`Another release command is running on ${dirs.served} (${fs.readFileSync(file, 'utf8').trim()}); if none is, delete ${file}`);
  if (fs.existsSync(path.join(dirs.served, LOCK_FILE))) throw held(path.join(dirs.served, LOCK_FILE));
  try {
    fs.writeFileSync(lock, `${process.pid} ${os.hostname()} ${new Date().toISOString()}\n`, { flag: 'wx' });
  } catch {
    throw held(lock);
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/**
 * `npm start` on a releases folder of the older layout: moved first (under the bundle's lock), so its releases are
 * served; a command holding the lock leaves it as it is for now, said in the log.
 */
export async function migrateBeforeServing(bundles: BundleName[], root: string | undefined, log: (line: string) => void): Promise<void> {
  for (const bundle of bundles) {
    const dirs = releaseDirs(bundle, root);
    if (!fs.existsSync(legacyRecordFile(dirs))) continue;
    try {
      await withLock(dirs, () => migrateLayout(dirs, bundle, log));
    } catch (error) {
      log(`${bundle}: releases not moved to the new layout (${error instanceof Error ? error.message : String(error)}); its plain build is served`);
    }
  }
}
