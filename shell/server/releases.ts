// A bundle's releases record and its published pointer. The record, `releases.json` in the bundle's state folder
// (never served: it names who released what), holds the live version, a canary if one runs, the retained releases
// (each with its contract) and the history of every step. The pointer, `live.json` in the bundle's releases folder
// (served at `<bundle's host>/releases/`, beside one folder per version), is the same without anyone's name: what the
// shell's server needs. Pure functions; `npm run release` / `releases` / `rollback` (scripts/release.ts) write both,
// the shell's server reads the pointer per request (live-releases.ts) and refuses one naming anything but versions.
import { createHash } from 'node:crypto';
import { contractMismatches, type Contract } from './contract';

export type ReleaseRecord = {
  version: string;
  commit: string;
  /** ISO time of the release. */
  at: string;
  by: string;
  /** The build's contract.json (a build from before contracts: none, and it is not checked). */
  contract?: Contract;
  /** A remote's first-load chunks, for the shell's preload hints: its routes' and, per language, the timetable's words. */
  hints?: { routes: string[]; words: Record<string, string> };
};

export type HistoryAction = 'release' | 'canary' | 'promote' | 'rollback' | 'end-canary';

export type HistoryEntry = {
  at: string;
  action: HistoryAction;
  version: string;
  commit?: string;
  by: string;
  /** The live version after this step. */
  live: string;
  /** A canary's share of visitors, in %. */
  percent?: number;
};

export type Canary = { version: string; percent: number };

export type Pointer = {
  bundle: string;
  live?: string;
  canary?: Canary;
  /** Retained releases, oldest first (older ones are removed with their folders, see `prune`). */
  releases: ReleaseRecord[];
  /** Every step, oldest first. */
  history: HistoryEntry[];
};

/** The published pointer, in the served releases folder. */
export const POINTER_FILE = 'live.json';
/** The record with people's names and every step, in the bundle's state folder (and, before issue 35, in the served folder). */
export const RECORD_FILE = 'releases.json';

/** What the shell's server reads: the record without anyone's name. */
export type PublishedRecord = Omit<ReleaseRecord, 'by'>;
export type PublishedHistoryEntry = Omit<HistoryEntry, 'by'>;
export type PublishedPointer = Omit<Pointer, 'releases' | 'history'> & { releases: PublishedRecord[]; history: PublishedHistoryEntry[] };
/** Releases kept (their folders too) unless `--keep` / RELEASES_KEEP says otherwise: open pages keep their chunks. */
export const DEFAULT_KEEP = 5;

/** `<content hash>-<commit>`: the same files released twice are the same version. */
export const versionOf = (contentHash: string, commit: string): string => `${contentHash.slice(0, 10)}-${commit.slice(0, 7)}`;

/** One path segment of letters, digits, dots and dashes, starting with a letter or digit: never `..`, `/`, `?` or `#`. */
export const isVersionName = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-z][0-9a-z.-]{0,63}$/i.test(value);

/** A release's chunk as the pointer names it for preload hints: a relative path inside the release, nothing to escape. */
const isChunkPath = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 200 && value.split('/').every((segment) => /^[\w][\w.-]*$/.test(segment));

export const emptyPointer = (bundle: string): Pointer => ({ bundle, releases: [], history: [] });

/**
 * Checks what a pointer or record names before anything uses it: every version (live, canary, retained, history) a
 * version name, every hint a chunk path. A pointer naming `../../../shell` would otherwise point the shell's server at a
 * folder or address outside the releases: it is refused whole (the reader keeps the last good one).
 */
function checkedPointer(raw: unknown, bundle: string, file: string): Pointer {
  const record = raw as Partial<Pointer> | null;
  if (!record || typeof record !== 'object' || !Array.isArray(record.releases) || !Array.isArray(record.history)) {
    throw new Error(`${bundle}: ${file} is not a releases pointer`);
  }
  const refuse = (what: string, value: unknown): never => {
    throw new Error(`${bundle}: ${file} names ${JSON.stringify(value)} as ${what}, not a version name: refused`);
  };
  if (record.live !== undefined && !isVersionName(record.live)) refuse('the live version', record.live);
  if (record.canary !== undefined) {
    if (!isVersionName(record.canary?.version)) refuse('the canary', record.canary?.version);
    if (typeof record.canary.percent !== 'number' || !(record.canary.percent > 0 && record.canary.percent < 100)) refuse('the canary share', record.canary.percent);
  }
  for (const release of record.releases) {
    if (!isVersionName(release?.version)) refuse('a release', release?.version);
    const chunks = [...(release.hints?.routes ?? []), ...Object.values(release.hints?.words ?? {})];
    const wrong = chunks.find((chunk) => !isChunkPath(chunk));
    if (wrong !== undefined) throw new Error(`${bundle}: ${file} names ${JSON.stringify(wrong)} as a chunk of ${release.version}: refused`);
  }
  for (const entry of record.history) {
    if (!isVersionName(entry?.version)) refuse('a step', entry?.version);
    if (entry.live !== undefined && !isVersionName(entry.live)) refuse('a step\'s live version', entry.live);
  }
  return { bundle, live: record.live, canary: record.canary, releases: record.releases, history: record.history };
}

/** The release command's record (state folder), checked. */
export const parsePointer = (raw: unknown, bundle: string): Pointer => checkedPointer(raw, bundle, RECORD_FILE);

/** A published pointer as the shell's server reads it, checked; any name it carries (an older layout's) is dropped. */
export const parsePublished = (raw: unknown, bundle: string): PublishedPointer => published(checkedPointer(raw, bundle, POINTER_FILE));

/** The pointer to publish: the record without who did what. */
export function published(pointer: Pointer | PublishedPointer): PublishedPointer {
  const { bundle, live, canary, releases, history } = pointer;
  return {
    bundle,
    ...(live === undefined ? {} : { live }),
    ...(canary === undefined ? {} : { canary }),
    releases: releases.map(({ version, commit, at, contract, hints }) => ({ version, commit, at, ...(contract ? { contract } : {}), ...(hints ? { hints } : {}) })),
    history: history.map(({ at, action, version, commit, live: after, percent }) => ({
      at,
      action,
      version,
      ...(commit === undefined ? {} : { commit }),
      live: after,
      ...(percent === undefined ? {} : { percent }),
    })),
  };
}

export const recordOf = <P extends PublishedPointer>(pointer: P, version: string | undefined): P['releases'][number] | undefined =>
  version === undefined ? undefined : pointer.releases.find((release) => release.version === version);

/** Versions that have been live for everyone at some time (a canary never promoted is not one). */
const everLive = (pointer: PublishedPointer): Set<string> => new Set(pointer.history.map((entry) => entry.live).filter(Boolean));

type Step = { at: string; by: string };

/**
 * The pointer after releasing `record`: live for everyone, or with `canaryPercent` a canary beside the live one.
 * Returns the versions whose folders may go (older than the last `keep`, never the live one or the canary).
 */
export function addRelease(pointer: Pointer, record: ReleaseRecord, options: { canaryPercent?: number; keep?: number } = {}): { pointer: Pointer; removed: string[] } {
  const { canaryPercent } = options;
  if (canaryPercent !== undefined && !(canaryPercent > 0 && canaryPercent < 100)) throw new Error(`--canary takes a share between 0 and 100 (%), got ${canaryPercent}`);
  if (canaryPercent !== undefined && !pointer.live) throw new Error(`${pointer.bundle} has no live release yet: release it without --canary first`);
  if (canaryPercent !== undefined && record.version === pointer.live) throw new Error(`${record.version} is already live`);
  const releases = [...pointer.releases.filter((release) => release.version !== record.version), recordOf(pointer, record.version) ?? record];
  const live = canaryPercent === undefined ? record.version : pointer.live!;
  const next: Pointer = {
    ...pointer,
    live,
    canary: canaryPercent === undefined ? undefined : { version: record.version, percent: canaryPercent },
    releases,
    history: [
      ...pointer.history,
      {
        at: record.at,
        action: canaryPercent === undefined ? 'release' : 'canary',
        version: record.version,
        commit: record.commit,
        by: record.by,
        live,
        ...(canaryPercent === undefined ? {} : { percent: canaryPercent }),
      },
    ],
  };
  return prune(next, options.keep ?? DEFAULT_KEEP);
}

/** Keeps the newest `keep` releases (plus the live one and the canary, wherever they are). */
export function prune(pointer: Pointer, keep: number): { pointer: Pointer; removed: string[] } {
  const protectedVersions = new Set([pointer.live, pointer.canary?.version].filter(Boolean));
  const newest = new Set(pointer.releases.slice(-Math.max(1, keep)).map((release) => release.version));
  const kept = pointer.releases.filter((release) => newest.has(release.version) || protectedVersions.has(release.version));
  const removed = pointer.releases.filter((release) => !kept.includes(release)).map((release) => release.version);
  return { pointer: { ...pointer, releases: kept }, removed };
}

/** The canary made live for everyone. */
export function promote(pointer: Pointer, step: Step): Pointer {
  if (!pointer.canary) throw new Error(`${pointer.bundle} has no canary to promote`);
  const { version } = pointer.canary;
  return {
    ...pointer,
    live: version,
    canary: undefined,
    history: [...pointer.history, { ...step, action: 'promote', version, commit: recordOf(pointer, version)?.commit, live: version }],
  };
}

/** The retained release that was live before the live one (the one `rollback` goes back to by default). */
export function previousLive(pointer: PublishedPointer): string | undefined {
  const wasLive = everLive(pointer);
  const index = pointer.releases.findIndex((release) => release.version === pointer.live);
  for (let i = (index < 0 ? pointer.releases.length : index) - 1; i >= 0; i--) {
    if (wasLive.has(pointer.releases[i].version)) return pointer.releases[i].version;
  }
  return undefined;
}

/**
 * One step back, no rebuild: a running canary ends (everyone on the live version); otherwise `version` (a retained
 * release) or the previous live one becomes live.
 */
export function rollback(pointer: Pointer, step: Step & { version?: string }): Pointer {
  if (pointer.canary && step.version === undefined) {
    const live = pointer.live!;
    return { ...pointer, canary: undefined, history: [...pointer.history, { at: step.at, by: step.by, action: 'end-canary', version: pointer.canary.version, live }] };
  }
  const target = step.version ?? previousLive(pointer);
  if (!target) throw new Error(`${pointer.bundle}: no earlier release to roll back to`);
  const record = recordOf(pointer, target);
  if (!record) throw new Error(`${pointer.bundle}: ${target} is not a retained release (see npm run releases -- ${pointer.bundle})`);
  return {
    ...pointer,
    live: target,
    canary: undefined,
    history: [...pointer.history, { at: step.at, by: step.by, action: 'rollback', version: target, commit: record.commit, live: target }],
  };
}

/**
 * A visitor's place in [0, 100) for a canary: from the visitor's id (a first-party cookie) and the canary's version,
 * so a visitor stays on one side for the whole canary and each canary draws its own share of visitors.
 */
export function bucketOf(visitorId: string, salt: string): number {
  const digest = createHash('sha256').update(`${salt}\u0000${visitorId}`).digest();
  return (digest.readUInt32BE(0) % 10_000) / 100;
}

/** The version a visitor gets: the canary when their bucket falls in its share, else the live one. */
export function versionForBucket(pointer: PublishedPointer, visitorId: string | undefined): string | undefined {
  const { canary } = pointer;
  if (canary && visitorId !== undefined && bucketOf(visitorId, canary.version) < canary.percent) return canary.version;
  return pointer.live;
}

export type Choice = {
  /** The version to load; undefined: none can be loaded (the remote's error panel). */
  version?: string;
  /** Set when the wanted version was refused: what and why. */
  refused?: { version: string; problems: string[] };
};

/**
 * `wanted` if the shell provides what it needs, else the newest retained release that was live and is compatible
 * (the "last compatible version from the history"), else none.
 */
export function compatibleChoice(pointer: PublishedPointer, wanted: string | undefined, provides: Contract | undefined): Choice {
  if (wanted === undefined) return {};
  const problemsOf = (version: string) => {
    const needs = recordOf(pointer, version)?.contract;
    return needs && provides ? contractMismatches(needs, provides) : [];
  };
  const problems = problemsOf(wanted);
  if (!problems.length) return { version: wanted };
  const wasLive = everLive(pointer);
  const fallback = [...pointer.releases].reverse().find((release) => release.version !== wanted && wasLive.has(release.version) && !problemsOf(release.version).length);
  return { version: fallback?.version, refused: { version: wanted, problems } };
}
