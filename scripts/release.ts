// `npm run release -- <bundle> [--canary <percent>] [--promote] [--from <folder>] [--keep <n>] [--force]`,
// `npm run releases -- <bundle>`, `npm run rollback -- <bundle> [version]`: versioned, immutable releases in the bundle's
// releases folder (served by `npm start` at `<bundle's address>/releases/`: the version folders and the pointer
// `live.json`), and the record of who did what with the lock in the bundle's state folder, which nothing serves
// (shell/server/releases.ts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCALES, DEFAULT_LOCALE } from 'shared-api/contract';
import { build } from './build';
import { bundleNames, distDir, releasesDirOf, releasesRoot, repoRoot } from './bundles';
import type { BundleName } from './rspack-common';
import { CONTRACT_FILE, contractMismatches, parseContract, type Contract } from '../shell/server/contract';
import { chunkFile } from '../shell/server/hints';
import {
  addRelease,
  DEFAULT_KEEP,
  promote,
  recordOf,
  rollback,
  versionOf,
  type Pointer,
  type ReleaseRecord,
} from '../shell/server/releases';
import { migrateLayout, readPointer, readPublished, releaseDirs, withLock, writePointer } from './release-layout';

export { LOCK_FILE, migrateLayout, readPointer, readPublished, releaseDirs, withLock, writePointer, type ReleaseDirs } from './release-layout';


const remoteBundles: BundleName[] = ['booking-remote', 'admin-remote'];

/** sha256 of a folder: every file's relative path and bytes, in name order. */
export function contentHash(folder: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(`${path.relative(folder, file)}\u0000`).update(fs.readFileSync(file));
    }
  };
  walk(folder);
  return hash.digest('hex');
}

const git = (...args: string[]): string | undefined => {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
};

export const releasedBy = (env: NodeJS.ProcessEnv = process.env): string => env.RELEASED_BY || git('config', 'user.email') || os.userInfo().username;

const readContract = (folder: string): Contract | undefined => {
  try {
    return parseContract(JSON.parse(fs.readFileSync(path.join(folder, CONTRACT_FILE), 'utf8')));
  } catch {
    return undefined;
  }
};

/** The live shell's contract: its live release's, else the plain build `npm start` serves. */
export function liveShellContract(root: string, plainBuild = distDir): Contract | undefined {
  const pointer = readPublished(releasesDirOf('shell', root), 'shell');
  return recordOf(pointer, pointer.live)?.contract ?? readContract(plainBuild('shell'));
}

/** The contracts of a remote's versions in use (live and canary), else of its plain build. */
export function liveRemoteContracts(remote: BundleName, root: string, plainBuild = distDir): { version: string; contract: Contract }[] {
  const pointer = readPublished(releasesDirOf(remote, root), remote);
  const inUse = [pointer.live, pointer.canary?.version].filter((v): v is string => Boolean(v));
  if (!inUse.length) {
    const plain = readContract(plainBuild(remote));
    return plain ? [{ version: 'the plain build', contract: plain }] : [];
  }
  return inUse.flatMap((version) => {
    const contract = recordOf(pointer, version)?.contract;
    return contract ? [{ version, contract }] : [];
  });
}

/** Why `contract` may not go live beside what is live now: one line per mismatch (empty: it may). */
export function releaseMismatches(bundle: BundleName, contract: Contract, root: string, plainBuild = distDir): string[] {
  if (bundle !== 'shell') {
    const shell = liveShellContract(root, plainBuild);
    return shell ? contractMismatches(contract, shell) : [];
  }
  return remoteBundles.flatMap((remote) =>
    liveRemoteContracts(remote, root, plainBuild).flatMap(({ version, contract: needs }) =>
      contractMismatches(needs, contract).map((problem) => `${problem} (live ${remote} ${version})`),
    ),
  );
}

/** A remote's first-load chunks (its routes' and the timetable's words per language), for the shell's hints. */
function hintsOf(folder: string): ReleaseRecord['hints'] {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'mf-manifest.json'), 'utf8')) as {
      exposes?: { path: string; assets: { js: { sync: string[] } } }[];
    };
    const routes = manifest.exposes?.find((expose) => expose.path === './routes')?.assets.js.sync ?? [];
    const words: Record<string, string> = {};
    for (const locale of LOCALES) {
      const file = locale === DEFAULT_LOCALE ? undefined : chunkFile(folder, `home-${locale}`);
      if (file) words[locale] = file;
    }
    return { routes, words };
  } catch {
    return undefined;
  }
}

function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, errorOnExist: true, force: false });
}

export type ReleaseOptions = {
  /** Release this built folder instead of building (a CI artefact; the e2e test's variants). */
  from?: string;
  canary?: number;
  keep?: number;
  force?: boolean;
  by?: string;
  root?: string;
  /** The state folders' root (default: `RELEASES_STATE_DIR`, or `<root>/state` when `root` is given). */
  stateRoot?: string;
  /** Where the plain builds are (the live ones while a bundle has no release): dist/<bundle>. */
  plainBuild?: (bundle: BundleName) => string;
  log?: (line: string) => void;
};

/** One release: build (or take `from`), check the contract, copy under its version, point the pointer at it. */
export async function release(bundle: BundleName, options: ReleaseOptions = {}): Promise<{ version: string; removed: string[] }> {
  const log = options.log ?? console.log;
  const root = options.root ?? releasesRoot();
  const dirs = releaseDirs(bundle, options.root, options.stateRoot);
  const dir = dirs.served;
  if (options.canary !== undefined && bundle === 'shell') throw new Error('A canary is for a remote (the shell is released to everyone)');
  let folder = options.from ? path.resolve(options.from) : distDir(bundle);
  if (!options.from) {
    await build([bundle]);
    folder = distDir(bundle);
  }
  if (!fs.existsSync(path.join(folder, 'index.html'))) throw new Error(`${folder} is not a build of ${bundle} (no index.html)`);
  const contract = readContract(folder);
  if (!contract) throw new Error(`${folder} has no ${CONTRACT_FILE}: build it with this repository's build (npm run build -- ${bundle})`);
  if (contract.bundle !== bundle) throw new Error(`${folder} is a build of ${contract.bundle}, not ${bundle}`);
  const problems = releaseMismatches(bundle, contract, root, options.plainBuild);
  if (problems.length && !options.force) {
    throw new Error(`Refused: ${bundle} would break what is live:\n  - ${problems.join('\n  - ')}\n(--force releases it anyway; the shell then loads the last compatible release)`);
  }
  if (problems.length) log(`releasing despite: ${problems.join('; ')}`);

  const commit = git('rev-parse', '--short=7', 'HEAD') ?? 'nocommit';
  // The same files as a retained release (built again at a later commit) are that release.
  const hash = contentHash(folder);
  migrateLayout(dirs, bundle, log);
  const version = readPointer(dirs, bundle).releases.find((r) => r.version.startsWith(`${hash.slice(0, 10)}-`))?.version ?? versionOf(hash, commit);
  const target = path.join(dir, version);
  fs.mkdirSync(dir, { recursive: true });
  if (fs.existsSync(target)) {
    log(`${bundle} ${version} is already released (same files): pointing at it`);
  } else {
    // Copied aside under a name no host serves (not a version name), then renamed: never half a release.
    const temporary = path.join(dir, `.partial-${version}-${process.pid}`);
    fs.rmSync(temporary, { recursive: true, force: true });
    try {
      copyTree(folder, temporary);
      fs.renameSync(temporary, target);
    } finally {
      fs.rmSync(temporary, { recursive: true, force: true });
    }
  }
  const record: ReleaseRecord = {
    version,
    commit,
    at: new Date().toISOString(),
    by: options.by ?? releasedBy(),
    contract,
    ...(bundle === 'shell' ? {} : { hints: hintsOf(target) }),
  };
  const keep = options.keep ?? (Number(process.env.RELEASES_KEEP) || DEFAULT_KEEP);
  const { pointer, removed } = addRelease(readPointer(dirs, bundle), record, { canaryPercent: options.canary, keep });
  writePointer(dirs, pointer);
  for (const old of removed) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
  log(
    options.canary === undefined
      ? `${bundle} ${version} is live${removed.length ? ` (removed ${removed.join(', ')})` : ''}`
      : `${bundle} ${version} is a canary for ${options.canary} % of visitors; ${pointer.live} stays live for the rest`,
  );
  return { version, removed };
}

type StepOptions = { root?: string; stateRoot?: string; by?: string; log?: (line: string) => void };

export function promoteCanary(bundle: BundleName, options: StepOptions = {}): string {
  const dirs = releaseDirs(bundle, options.root, options.stateRoot);
  const log = options.log ?? console.log;
  migrateLayout(dirs, bundle, log);
  const pointer = promote(readPointer(dirs, bundle), { at: new Date().toISOString(), by: options.by ?? releasedBy() });
  writePointer(dirs, pointer);
  log(`${bundle} ${pointer.live} is live for everyone`);
  return pointer.live!;
}

export function rollbackBundle(bundle: BundleName, options: StepOptions & { version?: string; force?: boolean } = {}): Pointer {
  const root = options.root ?? releasesRoot();
  const dirs = releaseDirs(bundle, options.root, options.stateRoot);
  const log = options.log ?? console.log;
  migrateLayout(dirs, bundle, log);
  const before = readPointer(dirs, bundle);
  const pointer = rollback(before, { at: new Date().toISOString(), by: options.by ?? releasedBy(), version: options.version });
  // Going back is checked as going forward: an old remote may need a shell that is gone, an old shell lack what a
  // live remote needs.
  const contract = recordOf(pointer, pointer.live)?.contract;
  if (contract && !options.force) {
    const problems = releaseMismatches(bundle, contract, root);
    if (problems.length) throw new Error(`Refused: ${bundle} ${pointer.live} would break what is live:\n  - ${problems.join('\n  - ')}\n(--force rolls back anyway)`);
  }
  writePointer(dirs, pointer);
  if (before.canary && !pointer.canary && pointer.live === before.live) log(`${bundle}: canary ${before.canary.version} ended; everyone gets ${pointer.live}`);
  else log(`${bundle}: ${pointer.live} is live again (was ${before.live})`);
  return pointer;
}

/** The listing `npm run releases` prints. */
export function describe(pointer: Pointer): string {
  const lines = [`${pointer.bundle}: live ${pointer.live ?? '(none: the plain build is served)'}${pointer.canary ? `, canary ${pointer.canary.version} for ${pointer.canary.percent} %` : ''}`, ''];
  lines.push('retained releases (newest last):');
  for (const r of pointer.releases) {
    const marks = [r.version === pointer.live && 'live', r.version === pointer.canary?.version && 'canary'].filter(Boolean).join(', ');
    lines.push(`  ${r.version}  commit ${r.commit}  ${r.at}  by ${r.by}  shell contract ${r.contract?.shellContract ?? '?'}${marks ? `  [${marks}]` : ''}`);
  }
  lines.push('', 'history:');
  for (const h of pointer.history) {
    lines.push(`  ${h.at}  ${h.action.padEnd(10)} ${h.version}${h.percent !== undefined ? ` (${h.percent} %)` : ''}${h.commit ? `  commit ${h.commit}` : ''}  by ${h.by}  → live ${h.live}`);
  }
  return lines.join('\n');
}

/**
 * Error reports per version of a remote, from a collector's export (one report JSON per line, as the page posts them
 * to `errorReportUrl`): how many, and how many were the remote failing to load, so canary and live can be compared.
 */
export function failuresByVersion(bundle: BundleName, lines: string[]): Record<string, { reports: number; loadFailures: number }> {
  const remote = bundle === 'booking-remote' ? 'booking' : bundle === 'admin-remote' ? 'admin' : bundle;
  const counts: Record<string, { reports: number; loadFailures: number }> = {};
  for (const line of lines) {
    let report: { remote?: string; buildId?: string; message?: string };
    try {
      report = JSON.parse(line) as typeof report;
    } catch {
      continue;
    }
    if (report.remote !== remote) continue;
    const count = (counts[report.buildId ?? '(no version: the plain build)'] ??= { reports: 0, loadFailures: 0 });
    count.reports += 1;
    if (/could not be loaded|Loading chunk|ChunkLoadError/.test(report.message ?? '')) count.loadFailures += 1;
  }
  return counts;
}

function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) positional.push(arg);
    else if (['--canary', '--from', '--keep', '--failures'].includes(arg)) flags[arg.slice(2)] = argv[++i] ?? '';
    else flags[arg.slice(2)] = true;
  }
  return { positional, flags };
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { positional, flags } = parseArgs(rest);
  const bundle = positional[0] as BundleName;
  if (!bundleNames.includes(bundle)) throw new Error(`Name a bundle: ${bundleNames.join(', ')}`);
  const dirs = releaseDirs(bundle);
  if (command === 'list') {
    console.log(describe(readPointer(dirs, bundle)));
    if (typeof flags.failures === 'string') {
      const counts = failuresByVersion(bundle, fs.readFileSync(flags.failures, 'utf8').split('\n'));
      console.log('\nerror reports by version (load failures / all):');
      for (const [version, count] of Object.entries(counts)) console.log(`  ${version}  ${count.loadFailures} / ${count.reports}`);
    }
  } else if (command === 'rollback') {
    await withLock(dirs, () => rollbackBundle(bundle, { version: positional[1], force: flags.force === true }));
  } else if (command === 'release' && flags.promote) {
    await withLock(dirs, () => promoteCanary(bundle));
  } else if (command === 'release') {
    const number = (name: string) => {
      if (flags[name] === undefined) return undefined;
      const value = Number(flags[name]);
      if (!Number.isFinite(value)) throw new Error(`--${name} takes a number`);
      return value;
    };
    const from = typeof flags.from === 'string' ? flags.from : undefined;
    await withLock(dirs, () => release(bundle, { from, canary: number('canary'), keep: number('keep'), force: flags.force === true }));
  } else {
    throw new Error('Commands: release, list, rollback');
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
